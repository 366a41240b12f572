import { getApiBase } from '@/api/base-address';
import { csrfExpired, sessionExpired } from '@/api/events';
import { outboxCsrfToken, sendOutboxRequest } from '@/api/outbox-transport';
import { createStore } from '../create-store';
import { getOrCreateDataKey, type DataKey } from '../crypto/key-vault';
import { deviceIdOf } from './device-id';
import { applyPendingOutcomes, unwiredSink, type OutcomeSink } from './outcomes';
import {
  countRecords,
  makeWaitingDue,
  putWrite,
  releaseHeld,
  removeUnsent,
  retryRecord,
  withdrawRecord,
  withdrawRecordsOf,
  type OutboxCounts,
} from './queue';
import { replayOutbox, type ReplayReport, type Transport } from './replay';
import { allRecords, destroyOutboxStore, OUTBOX_DATABASE, type OutboxStoreOptions } from './store';
import { currentOwner, keyDatabaseFor, outboxDatabaseFor } from '../owner';
import { OUTBOX_CHANNEL, type LocalRef, type OutboxCommand, type OutboxMessage, type WriteInput } from './types';

/**
 * The page's side of the outbox: every write goes through `enqueueWrite`. The service worker
 * replays the queue when it controls the page; otherwise (first load, dev, tests, a browser
 * without workers) the page replays the same queue with the same code, one replayer at a time.
 * What happens to the replica after a replay is ./outcomes.ts; the triggers (online, visible, a
 * heartbeat, the worker's messages) are ./start-outbox.ts, started by the composition root.
 */

export interface OutboxConfig extends OutboxStoreOptions {
  getKey(): Promise<DataKey>;
  transport: Transport;
  apiBase(): string;
  sink: OutcomeSink;
  /** The page replays by itself even when a worker controls it (tests, dev). */
  pageOnly: boolean;
  now(): number;
  random(): number;
}

/**
 * The outbox belongs to the signed-in person (src/data/owner.ts): their own IndexedDB database and
 * data key. With nobody signed in it points at an empty, keyless store, so nothing of anyone's can
 * be sent under another person's session.
 */
export function ownerParts(owner: string | null): Pick<OutboxConfig, 'databaseName' | 'getKey'> {
  if (!owner) {
    return {
      databaseName: OUTBOX_DATABASE,
      getKey: () => Promise.reject(new Error('Nobody is signed in on this device')),
    };
  }
  return {
    databaseName: outboxDatabaseFor(owner),
    getKey: async () => (await getOrCreateDataKey({ databaseName: keyDatabaseFor(owner) })).key,
  };
}

const defaults = (): OutboxConfig => ({
  ...ownerParts(currentOwner()),
  transport: { csrfToken: outboxCsrfToken, send: sendOutboxRequest },
  apiBase: getApiBase,
  sink: unwiredSink,
  pageOnly: false,
  now: Date.now,
  random: Math.random,
});

let config: OutboxConfig = defaults();

/** The composition root sets the sink; tests swap parts (fake-indexeddb, a fake transport, a sink). */
export function configureOutbox(partial: Partial<OutboxConfig>): void {
  config = { ...config, ...partial };
}

/** The parts in use (the composition root reads the sink to put it back on stop). */
export const getOutboxConfig = (): Readonly<OutboxConfig> => config;

export function resetOutboxConfig(): void {
  config = defaults();
  channel?.close();
  channel = null;
  if (retryTimer) clearTimeout(retryTimer);
  retryTimer = null;
  countsStore.set(emptyCounts);
}

const emptyCounts: OutboxCounts = Object.freeze({ pending: 0, held: 0, failed: 0 });
/** The counts for useOutbox, refreshed on every change this page hears of. */
export const countsStore = createStore<OutboxCounts>(emptyCounts);

let channel: BroadcastChannel | null = null;
function broadcast(message: OutboxMessage): void {
  try {
    channel ??= typeof BroadcastChannel === 'function' ? new BroadcastChannel(OUTBOX_CHANNEL) : null;
    channel?.postMessage(message);
  } catch {
    // no channel: this page still refreshes itself
  }
}

export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

/** This device's id for the server's edit-conflict rule (./device-id.ts); null without a data key. */
export async function currentDeviceId(): Promise<string | null> {
  const key = await config.getKey().catch(() => null);
  return key ? deviceIdOf(key) : null;
}

/**
 * Stores a write (encrypted) and starts sending it. The caller has already written the optimistic
 * local document with `{ state: 'pending', outbox_id: input.idempotencyKey }`.
 */
export async function enqueueWrite(input: WriteInput): Promise<{ outboxId: string }> {
  const key = await config.getKey();
  await putWrite({ ...config, apiBase: config.apiBase(), now: config.now }, key, input);
  broadcast({ type: 'outbox:changed' });
  await refreshCounts();
  flushOutbox();
  return { outboxId: input.idempotencyKey };
}

interface WorkerLike {
  postMessage(message: OutboxCommand): void;
}
function controllingWorker(): WorkerLike | null {
  if (config.pageOnly) return null;
  const container = (globalThis.navigator as Navigator | undefined)?.serviceWorker;
  return (container?.controller as WorkerLike | null | undefined) ?? null;
}

/** `online`: what waited out a backoff is due at once, then the queue is replayed. */
export function flushOutboxNowOnline(): void {
  void makeWaitingDue(config)
    .catch(() => 0)
    .then(() => flushOutbox());
}

/**
 * The page sends by itself, now: for when the worker keeps failing while this page's own requests
 * get through (a worker stuck with a stale view of the network).
 */
export async function replayHereNow(): Promise<ReplayReport> {
  await makeWaitingDue(config).catch(() => 0);
  return replayHere();
}

/** Asks the worker to replay (passing the current CSRF token) or replays here. Never throws. */
export function flushOutbox(): void {
  void (async () => {
    const worker = controllingWorker();
    if (!worker) {
      await replayHere();
      return;
    }
    const token = await config.transport.csrfToken(config.apiBase()).catch(() => null);
    worker.postMessage({ type: 'outbox:flush', csrfToken: token });
  })().catch(() => undefined);
}

let retryTimer: ReturnType<typeof setTimeout> | null = null;

/** Replays in this page (same code as the worker), then applies outcomes and plans the next try. */
export async function replayHere(): Promise<ReplayReport> {
  const report = await replayOutbox({
    ...config,
    getKey: config.getKey,
    transport: config.transport,
    now: config.now,
    random: config.random,
    // Other pages hear of changes; "need a page" is the worker's call for help, never a page's.
    notify: (message) => {
      if (message.type !== 'outbox:need-page') broadcast(message);
    },
  });
  await applyOutcomes();
  return report;
}

let applying: Promise<void> = Promise.resolve();

/** Applies sent/failed outcomes to the replica (any context may have produced them), one run at a time. */
export function applyOutcomes(): Promise<void> {
  applying = applying.then(applyOutcomesOnce, applyOutcomesOnce);
  return applying;
}

async function applyOutcomesOnce(): Promise<void> {
  await applyPendingOutcomes(config);
  await refreshCounts();
  scheduleRetry();
}

/** Plans the next replay at the earliest backed-off entry (while this page is open). */
function scheduleRetry(): void {
  void allRecords(config)
    .then((records) => {
      const next = records.filter((r) => r.state === 'pending').reduce((min, r) => Math.min(min, r.nextAttemptAt), Infinity);
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = null;
      if (!Number.isFinite(next)) return;
      const delay = Math.max(1_000, next - config.now());
      retryTimer = setTimeout(() => {
        retryTimer = null;
        flushOutbox();
      }, Math.min(delay, 2 ** 31 - 1));
    })
    .catch(() => undefined);
}

export async function refreshCounts(): Promise<OutboxCounts> {
  try {
    const counts = await countRecords(config, () => config.getKey());
    const current = countsStore.get();
    if (current.pending !== counts.pending || current.held !== counts.held || current.failed !== counts.failed) {
      countsStore.set(counts);
    }
    return counts;
  } catch {
    return countsStore.get();
  }
}

/**
 * The id of every write in the queue, whatever its state (a delivered one stays until a page has
 * applied its outcome). Null when the queue cannot be read: then nothing can be said to be missing.
 */
export async function queuedWriteIds(): Promise<ReadonlySet<string> | null> {
  try {
    return new Set((await allRecords(config)).map((record) => record.id));
  } catch {
    return null;
  }
}

/** Unsent things (pending + held, failed; one per document, see countRecords), for /dev and the logout warning. */
export const countUnsent = (): Promise<OutboxCounts> => refreshCounts();

/** After the person signs in again: held entries are sent. */
export async function resumeOutbox(): Promise<void> {
  await releaseHeld(config);
  await refreshCounts();
  const worker = controllingWorker();
  if (worker) {
    const token = await config.transport.csrfToken(config.apiBase()).catch(() => null);
    worker.postMessage({ type: 'outbox:resume', csrfToken: token });
  } else {
    await replayHere();
  }
}

/** Sends a failed entry again. */
export async function retryFailedWrite(outboxId: string): Promise<boolean> {
  const again = await retryRecord(config, outboxId);
  if (again) {
    await refreshCounts();
    flushOutbox();
  }
  return again;
}

/** Takes back an unsent write the server never acted on (see withdrawRecord). */
export async function withdrawUnsentWrite(outboxId: string): Promise<boolean> {
  const withdrawn = await withdrawRecord(config, outboxId);
  if (withdrawn) {
    broadcast({ type: 'outbox:changed' });
    await refreshCounts();
  }
  return withdrawn;
}

/**
 * Takes back every unsent write of a local document the server never acted on (a refused one and
 * those queued behind it). True when none is left on its way.
 */
export async function withdrawWritesOf(local: LocalRef): Promise<boolean> {
  const key = await config.getKey().catch(() => null);
  if (!key) return false;
  const { withdrawn, left } = await withdrawRecordsOf(config, key, local);
  if (withdrawn) {
    broadcast({ type: 'outbox:changed' });
    await refreshCounts();
  }
  return left === 0;
}

export const NOT_SENT_MESSAGE = 'This was not sent.';

/** Drops every unsent entry; their local documents keep the text, marked failed. */
export async function discardUnsent(): Promise<number> {
  const key = await config.getKey().catch(() => null);
  const refs = await removeUnsent(config, key);
  for (const local of refs) {
    await config.sink.setSyncState(local, { state: 'failed', message: NOT_SENT_MESSAGE, outbox_id: null }).catch(() => undefined);
  }
  broadcast({ type: 'outbox:changed' });
  await refreshCounts();
  return refs.length;
}

/** Logout: the whole queue and its database. */
export async function wipeOutbox(): Promise<void> {
  if (retryTimer) clearTimeout(retryTimer);
  retryTimer = null;
  await destroyOutboxStore(config);
  // Nobody's queue from here on: this page hears its own broadcast, and applying outcomes with the
  // old owner would reopen (so recreate) the deleted database and could recreate the data key.
  configureOutbox(ownerParts(null));
  countsStore.set(emptyCounts);
  broadcast({ type: 'outbox:changed' });
}

/**
 * Waits until nothing is waiting to be sent (failed entries do not count: they will not send by
 * themselves), or the timeout. Resolves to the counts at the end.
 */
export async function waitForOutboxToDrain(timeoutMs: number): Promise<{ drained: boolean; counts: OutboxCounts }> {
  const deadline = config.now() + timeoutMs;
  flushOutbox();
  for (;;) {
    const counts = await refreshCounts();
    if (counts.pending === 0) return { drained: true, counts };
    if (counts.held > 0 || config.now() >= deadline) return { drained: false, counts };
    await new Promise<void>((resolve) => {
      const unsubscribe = countsStore.subscribe(() => {
        unsubscribe();
        resolve();
      });
      setTimeout(
        () => {
          unsubscribe();
          resolve();
        },
        Math.min(500, Math.max(0, deadline - config.now())),
      );
    });
  }
}

/** Listens to the worker and other tabs: outcomes to apply, a replay the worker cannot do. */
export function handleOutboxMessage(message: OutboxMessage): void {
  switch (message.type) {
    case 'outbox:changed':
      void applyOutcomes();
      break;
    case 'outbox:need-page':
      void replayHere();
      break;
    case 'outbox:held':
      // The server no longer knows this session: as the HTTP client does (local data is kept).
      if (message.status === 419) csrfExpired.emit();
      sessionExpired.emit({ status: message.status });
      void refreshCounts();
      break;
  }
}

export function listenToOutboxChannel(): () => void {
  if (typeof BroadcastChannel !== 'function') return () => undefined;
  const listener = new BroadcastChannel(OUTBOX_CHANNEL);
  listener.onmessage = (event: MessageEvent<OutboxMessage>) => handleOutboxMessage(event.data);
  return () => listener.close();
}
