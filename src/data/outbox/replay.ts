import { CSRF_HEADER_NAME } from '@/contract/http';
import type { DataKey } from '../crypto/key-vault';
import { openBytes, openValue, sealValue } from './seal';
import { bodySize, buildBody } from './serialise';
import { allRecords, updateRecord, type OutboxStoreOptions } from './store';
import { claim, isReady, nextRecord, unreadableRecord, verdictOf, type HttpOutcome } from './transition';
import {
  IDEMPOTENCY_KEY_HEADER,
  idempotencyKeyOf,
  OUTBOX_LOCK,
  type OutboxMessage,
  type OutboxMeta,
  type OutboxRecord,
  type OutboxRequest,
} from './types';

/**
 * The one replayer, shared by the service worker and the page (when no worker controls it): the
 * loop. What each answer does to an entry (sent, held, retried, failed) is ./transition.ts.
 * Entries for the same local document go in order: a later one waits while an earlier one is not
 * through; after a 401/419 nothing more is sent until the person signs in again. Every request carries the entry's
 * Idempotency-Key, so a repeat (a lease that expired mid-flight, a lost answer) is harmless.
 *
 * One replayer at a time: a Web Lock where the platform has one (page and worker share it), an
 * in-process mutex otherwise, and, under both, a lease written atomically on the entry itself.
 * Under the Web Lock a lease found on an entry is one its replayer left when it went away (the lock
 * is released with its context): the entry goes now, not when the lease runs out.
 */

export interface TransportRequest {
  readonly method: 'POST' | 'PUT';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | FormData;
  /** Aborted when the replayer stops waiting for the answer (sendTimeoutMs). */
  readonly signal?: AbortSignal;
}

/**
 * How long a replayer waits for the answer to a write of `bytes` (body and files): 30 s, plus a
 * second for every 10 KB, the pace of one bar of Wi-Fi. A request that hangs on a half-dead
 * connection would otherwise hold the lock every replayer shares, and with it every write of every
 * tab and the worker, until the network stack gave up (minutes). Given up, it counts as a network
 * failure and goes again after the backoff, with the same Idempotency-Key.
 */
export function sendTimeoutMs(bytes: number): number {
  return 30_000 + Math.ceil(bytes / 10);
}

/** status 0: the network failed. `body` is the parsed JSON answer, or null. */
export type TransportResponse = HttpOutcome;

export interface Transport {
  /** The anti-forgery token for writes to `base`; null when it cannot be had now (wait for a page). */
  csrfToken(base: string): Promise<string | null>;
  send(request: TransportRequest): Promise<TransportResponse>;
}

export interface ReplayOptions extends OutboxStoreOptions {
  /** The data key, or null when this context cannot read it (the worker never creates one). */
  getKey(): Promise<DataKey | null>;
  readonly transport: Transport;
  notify?(message: OutboxMessage): void;
  now?(): number;
  random?(): number;
  /** false: no lock and no coalescing (tests use it to prove the lease alone prevents doubles). */
  readonly exclusive?: boolean;
  /** How long to wait for an answer (default sendTimeoutMs). */
  readonly timeoutFor?: (bytes: number) => number;
}

export interface ReplayReport {
  sent: number;
  failed: number;
  retrying: number;
  held: boolean;
  /** Why nothing could be sent: no readable key, or no CSRF token in this context. */
  waitingFor: 'key' | 'csrf' | null;
  /** The earliest time a backed-off entry may go again. */
  nextAttemptAt: number | null;
  /** Entries not yet sent (pending, held, failed). */
  remaining: number;
}

const emptyReport = (): ReplayReport => ({
  sent: 0,
  failed: 0,
  retrying: 0,
  held: false,
  waitingFor: null,
  nextAttemptAt: null,
  remaining: 0,
});

const localKey = (meta: OutboxMeta): string | null => (meta.local ? `${meta.local.collection}/${meta.local.id}` : null);

/** One pass over the queue. `leasesLapsed`: this replayer holds the lock all contexts share (see isReady). */
async function pass(options: ReplayOptions, leasesLapsed: boolean): Promise<ReplayReport> {
  const now = options.now ?? Date.now;
  const report = emptyReport();
  const records = await allRecords(options);
  const unsent = records.filter((r) => r.state !== 'sent');
  report.remaining = unsent.length;
  if (unsent.some((r) => r.state === 'held')) {
    report.held = true;
    return report;
  }
  if (!unsent.some((r) => r.state === 'pending')) return report;

  const key = await options.getKey().catch(() => null);
  if (!key) {
    report.waitingFor = 'key';
    options.notify?.({ type: 'outbox:need-page', reason: 'key' });
    return report;
  }

  const blocked = new Set<string>();
  const tokens = new Map<string, string | null>();

  for (const record of unsent) {
    let meta: OutboxMeta;
    try {
      meta = openValue<OutboxMeta>(key, record.id, 'meta', record.meta);
    } catch {
      // Not readable with this key (it was replaced): it can never be sent.
      await markUnreadable(options, record, now());
      report.failed += 1;
      continue;
    }
    const docKey = localKey(meta);
    const t = now();
    if (!isReady(record, t, leasesLapsed) || (docKey && blocked.has(docKey))) {
      if (docKey) blocked.add(docKey);
      if (record.state === 'pending' && record.nextAttemptAt > t) {
        report.nextAttemptAt = Math.min(report.nextAttemptAt ?? Infinity, record.nextAttemptAt);
      }
      continue;
    }

    let request: OutboxRequest;
    try {
      if (!record.request) throw new Error('no request');
      request = openValue<OutboxRequest>(key, record.id, 'request', record.request);
    } catch {
      await markUnreadable(options, record, now());
      report.failed += 1;
      if (docKey) blocked.add(docKey);
      continue;
    }

    if (!tokens.has(request.base)) tokens.set(request.base, await options.transport.csrfToken(request.base).catch(() => null));
    const token = tokens.get(request.base) ?? null;
    if (token === null) {
      report.waitingFor = 'csrf';
      options.notify?.({ type: 'outbox:need-page', reason: 'csrf' });
      break;
    }

    // Claim: atomically, only if still ready.
    const claimed = await updateRecord(options, record.id, (current) => claim(current, now(), leasesLapsed));
    if (!claimed) {
      if (docKey) blocked.add(docKey);
      continue;
    }

    let files: Uint8Array<ArrayBuffer>[];
    try {
      files = claimed.files.map((sealed, index) => openBytes(key, record.id, index, sealed));
    } catch {
      await markUnreadable(options, claimed, now());
      report.failed += 1;
      if (docKey) blocked.add(docKey);
      continue;
    }
    const { body, contentType } = buildBody(request.body, files);
    const headers: Record<string, string> = {
      Accept: 'application/json',
      [IDEMPOTENCY_KEY_HEADER]: idempotencyKeyOf(claimed),
      [CSRF_HEADER_NAME]: token,
    };
    if (contentType) headers['Content-Type'] = contentType;

    const waitMs = (options.timeoutFor ?? sendTimeoutMs)(bodySize(request.body, files));
    const response = await sendWithin(options, { method: request.method, url: `${request.base}${request.path}`, headers, body }, waitMs);
    const status = response.status;
    const verdict = verdictOf(response, meta.failureMessage);
    const at = now();
    const written = await updateRecord(options, record.id, (current) =>
      nextRecord(current, status, verdict, { now: at, random: options.random, seal: (part, value) => sealValue(key, record.id, part, value) }),
    );

    switch (verdict.kind) {
      case 'sent':
        report.sent += 1;
        break;
      case 'held':
        report.held = true;
        options.notify?.({ type: 'outbox:held', status: verdict.status });
        break;
      case 'retry':
        if (written) report.nextAttemptAt = Math.min(report.nextAttemptAt ?? Infinity, written.nextAttemptAt);
        report.retrying += 1;
        if (docKey) blocked.add(docKey);
        break;
      case 'failed':
        report.failed += 1;
        if (docKey) blocked.add(docKey);
        break;
    }
    options.notify?.({ type: 'outbox:changed' });
    if (verdict.kind === 'held') break;
  }

  const after = await allRecords(options);
  report.remaining = after.filter((r) => r.state !== 'sent').length;
  return report;
}

/** The transport's answer, or a network failure (status 0) once `ms` pass without one (the request is aborted). */
async function sendWithin(options: ReplayOptions, request: Omit<TransportRequest, 'signal'>, ms: number): Promise<TransportResponse> {
  const abort = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<TransportResponse>((resolve) => {
    timer = setTimeout(() => {
      abort.abort();
      resolve({ status: 0, body: null });
    }, ms);
  });
  try {
    return await Promise.race([options.transport.send({ ...request, signal: abort.signal }), timedOut]);
  } catch {
    return { status: 0, body: null };
  } finally {
    clearTimeout(timer);
  }
}

async function markUnreadable(options: ReplayOptions, record: OutboxRecord, _at: number): Promise<void> {
  await updateRecord(options, record.id, unreadableRecord);
  options.notify?.({ type: 'outbox:changed' });
}

/** Passes until one sends nothing new (entries queued meanwhile go in the same run). */
async function drain(options: ReplayOptions, leasesLapsed = false): Promise<ReplayReport> {
  let total = emptyReport();
  for (let round = 0; round < 20; round += 1) {
    const report = await pass(options, leasesLapsed);
    total = {
      ...report,
      sent: total.sent + report.sent,
      failed: total.failed + report.failed,
      retrying: total.retrying + report.retrying,
    };
    if (report.sent === 0 || report.held || report.waitingFor) break;
  }
  return total;
}

// --- one replayer at a time -------------------------------------------------------------------

const mutexes = new Map<string, Promise<unknown>>();

/** `work` learns whether it holds a lock shared by every context (a Web Lock) or only this context's mutex. */
async function exclusively<T>(name: string, work: (acrossContexts: boolean) => Promise<T>): Promise<T> {
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  if (locks && typeof locks.request === 'function') {
    return locks.request(name, { mode: 'exclusive' }, () => work(true)) as Promise<T>;
  }
  const previous = mutexes.get(name) ?? Promise.resolve();
  const inThisContext = () => work(false);
  const run = previous.then(inThisContext, inThisContext);
  const tail = run.catch(() => undefined);
  mutexes.set(name, tail);
  void tail.then(() => {
    if (mutexes.get(name) === tail) mutexes.delete(name);
  });
  return run;
}

interface Running {
  promise: Promise<ReplayReport>;
  again: boolean;
}
const running = new Map<string, Running>();

/**
 * Replays what is ready. Calls made while a replay runs in this context join it (and make it go
 * round once more); other contexts wait for the lock.
 */
export function replayOutbox(options: ReplayOptions): Promise<ReplayReport> {
  if (options.exclusive === false) return drain(options);
  const name = `${OUTBOX_LOCK}:${options.databaseName ?? 'default'}`;
  const current = running.get(name);
  if (current) {
    current.again = true;
    return current.promise;
  }
  const state: Running = { promise: Promise.resolve(emptyReport()), again: false };
  state.promise = (async () => {
    try {
      let total = emptyReport();
      let report: ReplayReport;
      do {
        state.again = false;
        report = await exclusively(name, (acrossContexts) => drain(options, acrossContexts));
        total = {
          ...report,
          sent: total.sent + report.sent,
          failed: total.failed + report.failed,
          retrying: total.retrying + report.retrying,
        };
      } while (state.again && !report.held && !report.waitingFor);
      return total;
    } finally {
      running.delete(name);
    }
  })();
  running.set(name, state);
  return state.promise;
}
