/**
 * What this device holds that the server does not, beyond what the outbox can tell.
 *
 * A change is written to the replica (pending, with its outbox id) a moment before its write is
 * sealed into the outbox: the other order lets a quick answer land before the change and be
 * overwritten by it. A page that dies in that moment (a closed tab, a phone that ends the browser)
 * leaves a document pending on a write that does not exist: never sent, never settled, and not
 * counted by the logout warning. Two things close that gap:
 * - a sweep, a little after the replica opens, marks such a change failed with the outbox's
 *   "This was not sent." once it is old enough that no save can still be on its way, so the young
 *   person sees it and can save it again;
 * - the logout warning also counts every pending or failed document no queued write accounts for
 *   (that one, and a change the outbox could not take at all), since the wipe would delete it.
 */
import { countDrafts, flushDrafts } from './drafts';
import { countUnsent, NOT_SENT_MESSAGE, queuedWriteIds } from './outbox/outbox';
import type { OutboxCounts } from './outbox/queue';
import { getReplica, replicaStore, type OpenReplica } from './replica/replica-store';
import { findUnsentDocuments, markNeverQueued, type UnsentDocument } from './replica/unsent-documents';

/**
 * How old a pending change with no write in the queue must be before it is called not sent. A
 * save reads and seals its files between the two writes (a long video on a slow phone: seconds),
 * and another tab may be in that moment.
 */
export const NEVER_QUEUED_AFTER_MS = 2 * 60_000;
/** After a replica opens, the sweep waits for the first screen and the first pulls. */
export const SWEEP_DELAY_MS = 5_000;

const unaccounted = (document: UnsentDocument, queued: ReadonlySet<string>): boolean =>
  !document.outboxId || !queued.has(document.outboxId);

/**
 * Marks each pending change whose write is not in the queue, and old enough, as not sent.
 * `nextDueAt`: when the youngest one left waiting would be due (null when none is left).
 */
export async function sweepNeverQueued(
  open: OpenReplica,
  { now = Date.now(), graceMs = NEVER_QUEUED_AFTER_MS }: { now?: number; graceMs?: number } = {},
): Promise<{ marked: number; nextDueAt: number | null }> {
  // The documents first, the queue after: a write settled in between leaves its document synced,
  // which the guarded mark then leaves alone; the other order would see a new write's document
  // without its write (the age check would still hold it back).
  const pending = (await findUnsentDocuments(open.db)).filter((document) => document.state === 'pending');
  if (pending.length === 0) return { marked: 0, nextDueAt: null };
  const queued = await queuedWriteIds();
  if (!queued) return { marked: 0, nextDueAt: null };
  let marked = 0;
  let nextDueAt: number | null = null;
  for (const document of pending.filter((candidate) => unaccounted(candidate, queued))) {
    const dueAt = document.writtenAt + graceMs;
    if (dueAt > now) {
      nextDueAt = Math.min(nextDueAt ?? dueAt, dueAt);
      continue;
    }
    if (await markNeverQueued(open.db, document, NOT_SENT_MESSAGE)) marked += 1;
  }
  return { marked, nextDueAt };
}

export interface DeviceUnsentCounts extends OutboxCounts {
  /** Of `failed`: pending or failed documents that no queued write accounts for. */
  readonly notQueued: number;
  /** Forms started and not sent (drafts that hold something): nothing sends them, the wipe deletes them. */
  readonly drafts: number;
}

/**
 * The logout warning's count: the outbox's, plus every pending or failed document that no queued
 * write accounts for (counted as failed: nothing will send it by itself), and the drafts of forms
 * started and not sent (the words typed a moment ago stored first).
 */
export async function countUnsentOnDevice(): Promise<DeviceUnsentCounts> {
  await flushDrafts();
  const counts = await countUnsent();
  const open = getReplica();
  const drafts = open ? await countDrafts(open).catch(() => 0) : 0;
  const documents = open ? await findUnsentDocuments(open.db).catch(() => []) : [];
  if (documents.length === 0) return { ...counts, notQueued: 0, drafts };
  // The queue unreadable: only a document with no write at all is certainly unaccounted for.
  const queued = (await queuedWriteIds()) ?? new Set<string>();
  const notQueued = documents.filter((document) => unaccounted(document, queued)).length;
  return { ...counts, failed: counts.failed + notQueued, notQueued, drafts };
}

/** Sweeps each replica that opens, `delayMs` after, and again when a change held back is due. Returns the stop. */
export function startNeverQueuedSweep({ delayMs = SWEEP_DELAY_MS, graceMs = NEVER_QUEUED_AFTER_MS } = {}): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  let current = getReplica();
  const schedule = (waitMs: number) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void sweep(), waitMs);
  };
  const sweep = async () => {
    timer = null;
    const open = getReplica();
    if (!open) return;
    const { nextDueAt } = await sweepNeverQueued(open, { graceMs }).catch(() => ({ nextDueAt: null }));
    if (nextDueAt !== null && !stopped && getReplica() === open && !timer) schedule(Math.max(delayMs, nextDueAt - Date.now() + 1_000));
  };
  if (current) schedule(delayMs);
  const unsubscribe = replicaStore.subscribe(() => {
    const next = getReplica();
    if (next === current) return;
    current = next;
    if (timer) clearTimeout(timer);
    timer = null;
    if (next) schedule(delayMs);
  });
  return () => {
    stopped = true;
    unsubscribe();
    if (timer) clearTimeout(timer);
    timer = null;
  };
}
