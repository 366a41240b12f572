import type { DataKey } from '../crypto/key-vault';
import { openValue, sealBytes, sealValue } from './seal';
import { describeBody } from './serialise';
import { addRecord, allRecords, deleteRecords, updateRecord, type OutboxStoreOptions } from './store';
import type { LocalRef, OutboxMeta, OutboxRecord, OutboxRequest, OutboxResult, OutboxState, WriteInput } from './types';

/** Queue operations on the store: no network, no DOM, no React (shared by page, worker and tests). */

let counter = 0;
function nextSeq(now: number): number {
  counter = (counter + 1) % 1000;
  return now * 1000 + counter;
}

/** Encrypts and stores one write. The body never touches IndexedDB in plain text. */
export async function putWrite(
  options: OutboxStoreOptions & { apiBase: string; now?: () => number },
  key: DataKey,
  input: WriteInput,
): Promise<OutboxRecord> {
  const id = input.idempotencyKey;
  const now = (options.now ?? Date.now)();
  const indexed = input.files ?? [];
  const named = input.fileFields ?? [];
  const fileList = [...indexed, ...named.map((part) => part.file)];
  const fileName = (file: Blob, fallback: string) =>
    typeof (file as File).name === 'string' && (file as File).name ? (file as File).name : fallback;
  const described = describeBody(input, [
    ...indexed.map((file, index) => ({ name: fileName(file, `file-${index}`), type: file.type || 'application/octet-stream' })),
    ...named.map((part) => ({ name: part.filename ?? fileName(part.file, part.name), type: part.file.type || 'application/octet-stream' })),
  ]);
  const request: OutboxRequest = {
    method: input.methodOverride ? 'POST' : input.method,
    base: options.apiBase.replace(/\/+$/, ''),
    path: described.path,
    body: described.body,
  };
  const meta: OutboxMeta = {
    label: input.label,
    local: input.local,
    topics: input.topics ?? [],
    failureMessage: input.failureMessage,
  };
  const files = await Promise.all(
    fileList.map(async (file, index) => sealBytes(key, id, index, new Uint8Array(await file.arrayBuffer()))),
  );
  const record: OutboxRecord = {
    id,
    seq: nextSeq(now),
    createdAt: now,
    state: 'pending',
    attempts: 0,
    nextAttemptAt: 0,
    leaseUntil: 0,
    lastStatus: null,
    meta: sealValue(key, id, 'meta', meta),
    request: sealValue(key, id, 'request', request),
    files,
    failure: null,
    result: null,
    notified: false,
  };
  await addRecord(options, record);
  return record;
}

export interface OutboxCounts {
  /** Waiting to be sent (including held). */
  readonly pending: number;
  /** Held until the person signs in again. */
  readonly held: number;
  /** Refused by the server; kept until retried or discarded. */
  readonly failed: number;
}

/**
 * What is not sent yet, as the young person counts it: with the key, one thing per local document
 * (two edits of one entry waiting are one entry; a change queued behind a refused one of the same
 * document waits for the young person's choice, so the document counts as refused, not as
 * "will be sent"). Without the key, or for a write that belongs to no document, one per request.
 */
export async function countRecords(options: OutboxStoreOptions, getKey: () => Promise<DataKey | null> = async () => null): Promise<OutboxCounts> {
  const records = (await allRecords(options)).filter((r) => r.state !== 'sent');
  // Only asked for when there is something to group (it is never created just to count nothing).
  const key = records.length > 1 ? await getKey().catch(() => null) : null;
  const things = new Map<string, OutboxState[]>();
  for (const record of records) {
    let thing = `record:${record.id}`;
    if (key) {
      try {
        const local = openValue<OutboxMeta>(key, record.id, 'meta', record.meta).local;
        if (local) thing = `doc:${local.collection}/${local.id}`;
      } catch {
        // unreadable with this key: counted on its own
      }
    }
    things.set(thing, [...(things.get(thing) ?? []), record.state]);
  }
  let pending = 0;
  let held = 0;
  let failed = 0;
  for (const states of things.values()) {
    if (states.includes('failed')) failed += 1;
    else if (states.includes('held')) {
      pending += 1;
      held += 1;
    } else pending += 1;
  }
  return { pending, held, failed };
}

/** After the person signs in again: held entries go back to pending, to be sent now. */
export async function releaseHeld(options: OutboxStoreOptions): Promise<number> {
  const records = await allRecords(options);
  let released = 0;
  for (const record of records.filter((r) => r.state === 'held')) {
    const written = await updateRecord(options, record.id, (current) =>
      current.state === 'held' ? { ...current, state: 'pending', nextAttemptAt: 0, leaseUntil: 0 } : null,
    );
    if (written) released += 1;
  }
  return released;
}

/**
 * The network came back: entries waiting out a backoff for a network error or a 5xx are due now,
 * so a person who saw "it will be sent when you are online" is not kept waiting minutes more.
 */
export async function makeWaitingDue(options: OutboxStoreOptions): Promise<number> {
  const records = await allRecords(options);
  let due = 0;
  for (const record of records.filter((r) => r.state === 'pending' && r.nextAttemptAt > 0)) {
    const written = await updateRecord(options, record.id, (current) =>
      current.state === 'pending' && current.nextAttemptAt > 0 ? { ...current, nextAttemptAt: 0 } : null,
    );
    if (written) due += 1;
  }
  return due;
}

/** A failed entry the server refused (4xx): the server certainly did not act on it. */
const refusedByServer = (record: OutboxRecord): boolean =>
  record.state === 'failed' && record.lastStatus !== null && record.lastStatus >= 400 && record.lastStatus < 500;

/**
 * A failed entry is sent again (the person changed nothing, or the server was fixed). After a
 * refusal (4xx) under a new Idempotency-Key: the server would give the old answer back.
 */
export async function retryRecord(options: OutboxStoreOptions, id: string): Promise<boolean> {
  const written = await updateRecord(options, id, (current) => {
    if (current.state !== 'failed' || !current.request) return null;
    const keyRound = (current.keyRound ?? 0) + (refusedByServer(current) ? 1 : 0);
    return { ...current, state: 'pending', nextAttemptAt: 0, leaseUntil: 0, attempts: 0, failure: null, notified: false, keyRound };
  });
  return written !== null;
}

/** Removes every unsent entry (logout's "Sign out and delete them"). Returns their local documents. */
export async function removeUnsent(options: OutboxStoreOptions, key: DataKey | null): Promise<LocalRef[]> {
  const records = (await allRecords(options)).filter((r) => r.state !== 'sent');
  const refs: LocalRef[] = [];
  if (key) {
    for (const record of records) {
      try {
        const meta = openValue<OutboxMeta>(key, record.id, 'meta', record.meta);
        if (meta.local) refs.push(meta.local);
      } catch {
        // unreadable: nothing to tell the replica
      }
    }
  }
  await deleteRecords(options, records.map((r) => r.id));
  return refs;
}

export interface Outcome {
  readonly id: string;
  readonly state: 'sent' | 'failed';
  readonly meta: OutboxMeta | null;
  readonly message: string | null;
  /** For a sent entry: what the server answered; for a failed one its field errors (null when unknown). */
  readonly result: OutboxResult | null;
}

/** Outcomes (sent, failed) not yet applied to the local replica, plus the local documents still waiting. */
export async function pendingOutcomes(
  options: OutboxStoreOptions,
  key: DataKey,
): Promise<{ outcomes: Outcome[]; waitingDocs: Set<string> }> {
  const records = await allRecords(options);
  const outcomes: Outcome[] = [];
  const waitingDocs = new Set<string>();
  for (const record of records) {
    let meta: OutboxMeta | null = null;
    try {
      meta = openValue<OutboxMeta>(key, record.id, 'meta', record.meta);
    } catch {
      meta = null;
    }
    if ((record.state === 'pending' || record.state === 'held') && meta?.local) {
      waitingDocs.add(`${meta.local.collection}/${meta.local.id}`);
    }
    if (record.notified || (record.state !== 'sent' && record.state !== 'failed')) continue;
    let message: string | null = null;
    if (record.state === 'failed') {
      try {
        message = record.failure ? openValue<string>(key, record.id, 'failure', record.failure) : meta?.failureMessage ?? null;
      } catch {
        message = meta?.failureMessage ?? null;
      }
    }
    let result: OutboxResult | null = null;
    if (record.result) {
      try {
        result = openValue<OutboxResult>(key, record.id, 'result', record.result);
      } catch {
        result = null;
      }
    }
    outcomes.push({ id: record.id, state: record.state, meta, message, result });
  }
  return { outcomes, waitingDocs };
}

/** An outcome was applied: a sent entry goes for good, a failed one stays (with its body) but is marked. */
export async function markApplied(options: OutboxStoreOptions, outcome: Outcome): Promise<void> {
  await updateRecord(options, outcome.id, (current) => {
    if (current.state === 'sent') return 'delete';
    if (current.state === 'failed') return { ...current, notified: true };
    return null;
  });
}

/**
 * Takes back an unsent write so a new one can replace it (editing an entry the server has not
 * created yet). Only when the server certainly never acted on it: pending and never claimed by a
 * replayer, or refused with a 4xx. Returns whether it was removed. A claim whose lease ran out
 * without an answer (the page closed or crashed mid-request) may well have reached the server: a
 * new create under the same id would then be answered with the first one's row and its words lost.
 */
export async function withdrawRecord(options: OutboxStoreOptions, id: string): Promise<boolean> {
  let withdrawn = false;
  await updateRecord(options, id, (current) => {
    const neverTried = current.state === 'pending' && current.attempts === 0 && current.leaseUntil === 0;
    if (!neverTried && !refusedByServer(current)) return null;
    withdrawn = true;
    return 'delete';
  });
  return withdrawn;
}

/**
 * Takes back every unsent write of one local document that the server never acted on (see
 * withdrawRecord): what a new version of the document replaces, so nothing behind a refused write
 * waits forever, and nothing goes that the young person no longer wants. Returns how many were
 * withdrawn and how many are still on their way (they may have reached the server).
 */
export async function withdrawRecordsOf(options: OutboxStoreOptions, key: DataKey, local: LocalRef): Promise<{ withdrawn: number; left: number }> {
  let withdrawn = 0;
  let left = 0;
  for (const record of await allRecords(options)) {
    if (record.state === 'sent') continue;
    let meta: OutboxMeta;
    try {
      meta = openValue<OutboxMeta>(key, record.id, 'meta', record.meta);
    } catch {
      continue;
    }
    if (meta.local?.collection !== local.collection || meta.local.id !== local.id) continue;
    if (await withdrawRecord(options, record.id)) withdrawn += 1;
    else left += 1;
  }
  return { withdrawn, left };
}
