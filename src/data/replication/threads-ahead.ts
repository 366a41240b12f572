/**
 * The newest comment threads, pulled ahead. A thread's comments come from a list per entry
 * (./endpoints.ts commentsReplication), which used to be pulled only while its screen was open: a
 * young person who had not opened a thread while online could not read the reply the entry list
 * said was there, and a first visit online held the reply form back while the comments came.
 *
 * In the tab that pulls, once the main pulls have their first answers, this pulls the threads of
 * the newest entries of each kind whose server count (`comments_count`, pulled with the entry) is
 * more than the server comments the replica holds, newest first, one at a time, through the
 * controller's holds (a thread a screen holds meanwhile keeps running; nothing is pulled twice at
 * once). Each hold is released when its first pull has ended. It looks again when entries change
 * (a new reply raises the count through the journal or voice re-pull); not on comment writes, which
 * its own pulls and the young person's replies make and which never make a thread due. A failure
 * ends the round; the next change or re-sync tries again.
 */
import type { Observable } from 'rxjs';
import { merge } from 'rxjs';
import { ENTRY_KINDS, type EntryKind } from '@/contract/entry-kind';
import type { ReplicaDatabase } from '../replica/replica-store';
import type { EntryDoc } from '../replica/types';
import type { FirstPull, Hold } from './hold';
import { commentsReplication, type Replicated } from './endpoints';

/**
 * Threads of each kind pulled ahead: those of the newest 20 entries, the first page of the journal
 * list and of My messages, where a young person looks for a reply. Each thread short of its count
 * is a request (and a replication set up and torn down), one at a time: 40 at most after a sign-in,
 * about 60 ms each on the embedded server. Older threads are still pulled when opened.
 */
export const THREADS_AHEAD_PER_KIND = 20;

/** Changes come in bursts (a pulled page is many writes): one look once they have settled. */
export const THREADS_AHEAD_SETTLE_MS = 500;

export interface ThreadsAheadOptions {
  readonly db: ReplicaDatabase;
  readonly acquire: (replicated: Replicated, options: { readonly background: true }) => Hold;
  /** Resolves once the main pulls have their first answers: a sign-in's first screen goes first. */
  readonly afterFirstPulls: () => Promise<void>;
  readonly perKind?: number;
  readonly settleMs?: number;
}

export interface ThreadsAhead {
  /** A re-sync: after a failed round, try again. */
  nudge(): void;
  /** Starts nothing more. The controller cancels a hold still running (it stops every replication). */
  stop(): void;
}

interface DueThread {
  readonly kind: EntryKind;
  readonly id: string;
  readonly sortKey: string;
  readonly count: number;
}

/** A refusal of this one thread (gone, no longer shared): not worth asking again until its count changes. */
const refused = (outcome: FirstPull) => !outcome.ok && outcome.status >= 400 && outcome.status < 500;

export function startThreadsAhead(options: ThreadsAheadOptions): ThreadsAhead {
  const { db, acquire } = options;
  const perKind = options.perKind ?? THREADS_AHEAD_PER_KIND;
  const settleMs = options.settleMs ?? THREADS_AHEAD_SETTLE_MS;
  /** The count each thread was last pulled (or refused) at in this start: not asked again until it moves. */
  const pulledAt = new Map<string, number>();
  let stopped = false;
  let watching: { unsubscribe(): void } | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inRound = false;
  let changedMeanwhile = false;
  let lastRoundFailed = false;

  /** The server comments the replica holds of a thread (the device's unsent ones are not on the server). */
  async function heldOf(kind: EntryKind, id: string, count: number): Promise<number> {
    // A count on the thread's index reads no document; the unsent ones are read only when it could matter.
    const all = await db.comments.count({ selector: { entry_type: kind, entry_id: id } }).exec();
    if (all < count) return all;
    const unsent = await db.comments.find({ selector: { entry_type: kind, entry_id: id, local_only: true } }).exec();
    return all - unsent.length;
  }

  async function dueThreads(): Promise<DueThread[]> {
    const due: DueThread[] = [];
    for (const kind of ENTRY_KINDS) {
      // Entries on the server only: one written here and not sent yet has no thread there.
      const newest = await db[kind].find({ selector: { local_only: false }, sort: [{ sort_key: 'desc' }, { id: 'desc' }], limit: perKind }).exec();
      for (const doc of newest) {
        const entry = doc.toJSON() as EntryDoc;
        const count = entry.comments_count ?? 0;
        const key = `${kind}:${entry.id}`;
        if (count === 0 || pulledAt.get(key) === count) continue;
        if ((await heldOf(kind, entry.id, count)) < count) due.push({ kind, id: entry.id, sortKey: entry.sort_key, count });
      }
    }
    // Newest first across both kinds (both sort keys start with the date).
    return due.sort((a, b) => (a.sortKey < b.sortKey ? 1 : a.sortKey > b.sortKey ? -1 : 0));
  }

  async function round(): Promise<void> {
    if (stopped) return;
    if (inRound) {
      changedMeanwhile = true;
      return;
    }
    inRound = true;
    lastRoundFailed = false;
    try {
      for (const thread of await dueThreads()) {
        if (stopped) return;
        const hold = acquire(commentsReplication(thread.kind, thread.id), { background: true });
        const outcome = await hold.firstPull;
        // Stopped meanwhile: the controller has cancelled the hold with everything else.
        if (stopped) return;
        hold();
        if (outcome.ok || refused(outcome)) {
          pulledAt.set(`${thread.kind}:${thread.id}`, thread.count);
          continue;
        }
        // Offline, or the server failing: the rest would fail too.
        lastRoundFailed = true;
        break;
      }
    } catch {
      // A read of a replica that closed (sign-out) or failed: the next change looks again.
      lastRoundFailed = true;
    } finally {
      inRound = false;
    }
    if (changedMeanwhile && !stopped) {
      changedMeanwhile = false;
      schedule();
    }
  }

  function schedule(): void {
    if (stopped || !watching) return;
    clearTimeout(timer);
    timer = setTimeout(() => void round(), settleMs);
  }

  void options.afterFirstPulls().then(
    () => {
      if (stopped) return;
      const changes: Observable<unknown>[] = [db.journal.eventBulks$, db.voice.eventBulks$];
      watching = merge(...changes).subscribe(() => schedule());
      void round();
    },
    () => undefined,
  );

  return {
    nudge() {
      if (lastRoundFailed) schedule();
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      watching?.unsubscribe();
      watching = null;
    },
  };
}
