/**
 * The reactions a young person has used in their journal (the list's Feeling filter), kept as an
 * encrypted summary instead of read off every entry each time the journal opens.
 *
 * Reactions are encrypted, so the only other way to know them is to read and decrypt every entry:
 * with 5,000 entries that was most of the warm journal's Total Blocking Time in Lighthouse (median
 * 152-185 ms with it, 64-88 ms without, alternating runs on the bench's data, stop 40).
 *
 * The summary is one `files` document (kind `summary`, encrypted like a draft): each entry that has
 * a reaction, as `[id, sort_key, reaction]`, and the checkpoint of the latest write it has seen
 * (RxDB's `_meta.lwt` and the entry's id). Opening it costs one record. It then catches up with the
 * entries written since (RxDB's changes-since query, in pages, deleted entries included; entries are
 * never purged here, Hearth does not add RxDB's cleanup) and follows the collection's change events
 * while someone watches.
 * It listens before it reads, and applies what arrives during the read after it, so a write that
 * commits while it reads (another tab's, stamped earlier) is not missed. Applying an entry sets its
 * state, so seeing one twice is harmless.
 *
 * The summary is a cache: unreadable, missing or of another version, it is rebuilt from the
 * entries (once per device, the cost it saves every other time), and it goes with the replica at
 * sign-out.
 */
import type { RxChangeEventBulk, RxCollection } from 'rxdb';
import { Observable, type Subscription } from 'rxjs';
import type { ChangeCheckpoint, OpenReplica, ReplicaDatabase } from '../../data/replica/replica-store';
import { summaryDoc, type FileDoc, type JournalDoc } from '../../data/replica/types';

export const REACTIONS_SUMMARY_ID = 'summary:journal-reactions';
const VERSION = 1;
/** Changed entries read per page while catching up (each page is decrypted in slices). */
const PAGE = 500;
/** A burst of changes (a pull's pages) is stored once. */
const STORE_AFTER_MS = 1_000;

type Row = readonly [sortKey: string, reaction: string];
interface Stored {
  readonly v: number;
  readonly checkpoint: ChangeCheckpoint | null;
  readonly entries: readonly (readonly [id: string, sortKey: string, reaction: string])[];
}
type EntryState = Pick<JournalDoc, 'id' | 'sort_key' | 'reaction'> & { _deleted?: boolean; _meta?: { lwt?: number } };

/** The reactions, each once, most recent first (sort key, then id, descending, as the list). */
function reactionsOf(entries: ReadonlyMap<string, Row>): string[] {
  const latest = new Map<string, string>();
  for (const [id, [sortKey, reaction]] of entries) {
    const key = `${sortKey}\u0000${id}`;
    const seen = latest.get(reaction);
    if (seen === undefined || key > seen) latest.set(reaction, key);
  }
  return [...latest].sort((a, b) => (a[1] < b[1] ? 1 : a[1] > b[1] ? -1 : 0)).map(([reaction]) => reaction);
}

function parseStored(doc: Pick<FileDoc, 'data'> | null | undefined): Stored | null {
  if (!doc?.data) return null;
  try {
    const value = JSON.parse(doc.data) as Stored;
    return value && value.v === VERSION && Array.isArray(value.entries) ? value : null;
  } catch {
    return null;
  }
}

class ReactionsSummary {
  private readonly entries = new Map<string, Row>();
  private checkpoint: ChangeCheckpoint | null = null;
  private loaded: Promise<void> | null = null;
  private catchingUp: Promise<void> | null = null;
  /** Change events that arrived during a catch-up, applied after it (they may be newer than its read). */
  private held: EntryState[] | null = null;
  private storeTimer: ReturnType<typeof setTimeout> | null = null;
  private changes: Subscription | null = null;
  private readonly watchers = new Set<(reactions: string[]) => void>();
  private last: string[] | null = null;

  constructor(private readonly replica: OpenReplica) {}

  private get db(): ReplicaDatabase {
    return this.replica.db;
  }

  private get journal(): RxCollection<JournalDoc> {
    return this.db.journal as unknown as RxCollection<JournalDoc>;
  }

  watch(emit: (reactions: string[]) => void, fail: (error: unknown) => void): () => void {
    this.watchers.add(emit);
    if (this.last) emit(this.last);
    if (!this.changes) {
      // Not listening until now: what was written meanwhile is read first.
      // By write, not by entry: a pull's page of 1,000 entries is one pass over the summary, not 1,000.
      this.changes = this.journal.eventBulks$.subscribe((bulk) => this.onChanges(bulk as RxChangeEventBulk<EntryState>));
      this.catchUp().catch(fail);
    }
    return () => {
      this.watchers.delete(emit);
      if (this.watchers.size === 0) {
        this.changes?.unsubscribe();
        this.changes = null;
        this.flush();
      }
    };
  }

  private load(): Promise<void> {
    this.loaded ??= (async () => {
      const doc = await this.db.files.findOne(REACTIONS_SUMMARY_ID).exec();
      const stored = parseStored(doc?.toJSON() as FileDoc | undefined);
      if (!stored) return;
      for (const [id, sortKey, reaction] of stored.entries) this.entries.set(id, [sortKey, reaction]);
      this.checkpoint = stored.checkpoint;
      this.publish();
    })();
    return this.loaded;
  }

  /** Reads the entries written since the summary's checkpoint, then the events that came meanwhile. */
  private catchUp(): Promise<void> {
    this.catchingUp ??= (async () => {
      this.held = [];
      try {
        await this.load();
        const from = this.checkpoint;
        for (;;) {
          if (this.db.closed) return;
          // In (lwt, id) order: each page moves the checkpoint to its last entry (apply).
          const page = await this.replica.changesSince('journal', PAGE, this.checkpoint);
          for (const doc of page) this.apply(doc as unknown as EntryState);
          if (page.length < PAGE) break;
        }
        // In the order written: an event older than the read is followed by the newer ones.
        for (const doc of this.held) this.apply(doc);
        if (this.checkpoint !== from) this.scheduleStore();
        this.publish();
      } finally {
        this.held = null;
        this.catchingUp = null;
      }
    })();
    return this.catchingUp;
  }

  private onChanges(bulk: RxChangeEventBulk<EntryState>): void {
    const docs = bulk.events.map((event) => (event.operation === 'DELETE' ? { ...event.documentData, _deleted: true } : event.documentData));
    if (this.held) {
      this.held.push(...docs);
      return;
    }
    for (const doc of docs) this.apply(doc);
    // Stored even when no reaction changed: the checkpoint moved, and the next open would read those entries again.
    this.scheduleStore();
    this.publish();
  }

  /** Sets one entry's state, and moves the checkpoint past it. */
  private apply(doc: EntryState): void {
    const lwt = doc._meta?.lwt ?? 0;
    const at = this.checkpoint;
    if (!at || lwt > at.lwt || (lwt === at.lwt && doc.id > at.id)) this.checkpoint = { id: doc.id, lwt };
    if (doc._deleted || !doc.reaction) this.entries.delete(doc.id);
    else this.entries.set(doc.id, [doc.sort_key, doc.reaction]);
  }

  private publish(): void {
    const next = reactionsOf(this.entries);
    if (this.last && next.length === this.last.length && next.every((r, i) => r === this.last![i])) return;
    this.last = next;
    for (const emit of this.watchers) emit(next);
  }

  private scheduleStore(): void {
    if (this.storeTimer) return;
    this.storeTimer = setTimeout(() => this.flush(), STORE_AFTER_MS);
  }

  private flush(): void {
    if (!this.storeTimer) return;
    clearTimeout(this.storeTimer);
    this.storeTimer = null;
    void this.store();
  }

  private async store(): Promise<void> {
    if (this.db.closed) return;
    const stored: Stored = { v: VERSION, checkpoint: this.checkpoint, entries: [...this.entries].map(([id, [sortKey, reaction]]) => [id, sortKey, reaction] as const) };
    const doc = summaryDoc(REACTIONS_SUMMARY_ID, stored);
    // A cache: a write lost to a closing replica, or to another tab's, is caught up from its checkpoint next time.
    await this.db.files.upsert(doc).catch(() => undefined);
  }
}

const summaries = new WeakMap<ReplicaDatabase, ReactionsSummary>();

/** The reactions used in the journal, each once, most recent first; live. */
export function journalReactions$(replica: OpenReplica): Observable<string[]> {
  return new Observable<string[]>((subscriber) => {
    let summary = summaries.get(replica.db);
    if (!summary) summaries.set(replica.db, (summary = new ReactionsSummary(replica)));
    return summary.watch(
      (reactions) => subscriber.next(reactions),
      (error) => subscriber.error(error),
    );
  });
}
