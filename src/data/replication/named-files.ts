/**
 * Which cached files the replica's rows name (./file-names.ts), and which people's profile photos
 * (./photo-names.ts), kept as an encrypted summary beside them, as the journal's reactions are (src/entries/data/journal-reactions.ts, stop 40): the file
 * sweep must not read and decrypt 5,000 entries after every pull to learn that.
 *
 * The summary is one `files` document (kind `summary`, never collected): each row that names a
 * cached file or a photo, as `[collection:id, keys, entry]`, and per collection the checkpoint of the latest
 * write it has read (RxDB's `_meta.lwt` and the row's id). A catch-up reads only the rows written
 * since (RxDB's changes-since query, in pages, deleted rows included: Hearth never purges them), so
 * a deleted row drops what it named even when it arrived as a blank tombstone. Missing, unreadable
 * or of another version, the summary is rebuilt from every row (once per device). Version 2 added
 * the photos: a summary of version 1 names none, and trusting it would collect every photo.
 *
 * A write is stamped (`_meta.lwt`) before it is encrypted and stored, so one stamped earlier can
 * land after one stamped later (a pull's page of 1,000 beside a small local write, another tab's).
 * So the checkpoint never passes writes of the last SETTLE_MS: those are read again next time
 * (reading a row twice is harmless: applying it sets its state).
 */
import type { ChangeCheckpoint, ChangesSince, ReplicaDatabase } from '../replica/replica-store';
import { summaryDoc, type FileDoc } from '../replica/types';
import { NAMING_COLLECTIONS, namesOf, type NamingCollection, type RowNames } from './file-names';
import { photoNamesOf } from './photo-names';

export const FILE_SWEEP_SUMMARY_ID = 'summary:file-sweep';
const VERSION = 2;
/** Changed rows read per page (each page is decrypted in slices). */
const PAGE = 500;
export const SETTLE_MS = 10_000;

type Collection = Parameters<ChangesSince>[0];
type Plain = Record<string, unknown> & { id: string; _deleted?: boolean; _meta?: { lwt?: number } };

interface Stored {
  readonly v: number;
  readonly checkpoints: Readonly<Record<string, ChangeCheckpoint>>;
  readonly rows: readonly (readonly [row: string, keys: readonly string[], entry: string | null])[];
}

function parseStored(doc: Pick<FileDoc, 'data'> | null | undefined): Stored | null {
  if (!doc?.data) return null;
  try {
    const value = JSON.parse(doc.data) as Stored;
    return value && value.v === VERSION && Array.isArray(value.rows) && typeof value.checkpoints === 'object' ? value : null;
  } catch {
    return null;
  }
}

const isNaming = (collection: string): collection is NamingCollection => (NAMING_COLLECTIONS as readonly string[]).includes(collection);
const isEntry = (collection: string): boolean => collection === 'journal' || collection === 'voice';

export class NamedFiles {
  private readonly rows = new Map<string, RowNames>();
  private readonly checkpoints = new Map<string, ChangeCheckpoint>();
  private loaded: Promise<void> | null = null;
  private changed = false;

  constructor(
    private readonly db: ReplicaDatabase,
    private readonly changesSince: ChangesSince,
    /** The signed-in young person's user id: their own photo is never collected, so never counted. */
    private readonly own: string,
  ) {}

  private load(): Promise<void> {
    this.loaded ??= (async () => {
      const doc = await this.db.files.findOne(FILE_SWEEP_SUMMARY_ID).exec();
      const stored = parseStored(doc?.toJSON() as FileDoc | undefined);
      if (!stored) return;
      for (const [row, keys, entry] of stored.rows) this.rows.set(row, { keys, entry });
      for (const [collection, checkpoint] of Object.entries(stored.checkpoints)) this.checkpoints.set(collection, checkpoint);
    })();
    return this.loaded;
  }

  /**
   * Reads what was written to these collections since the last catch-up (comments before entries:
   * an entry that is gone takes its comments' files with it). `visit` sees every row read.
   */
  async catchUp(collections: readonly Collection[], visit: (collection: Collection, doc: Plain) => void = () => undefined): Promise<void> {
    await this.load();
    const goneEntries = new Set<string>();
    for (const collection of collections) {
      const settled = Date.now() - SETTLE_MS;
      let at = this.checkpoints.get(collection) ?? null;
      for (;;) {
        if (this.db.closed) return;
        // In (lwt, id) order: `at` follows the reading, the kept checkpoint only settled writes.
        const page = (await this.changesSince(collection, PAGE, at)) as readonly Plain[];
        for (const doc of page) {
          const lwt = doc._meta?.lwt ?? 0;
          at = { id: doc.id, lwt };
          if (lwt < settled) this.setCheckpoint(collection, at);
          this.apply(collection, doc);
          if (isEntry(collection) && doc._deleted) goneEntries.add(`${collection}:${doc.id}`);
          visit(collection, doc);
        }
        if (page.length < PAGE) break;
      }
    }
    if (goneEntries.size === 0) return;
    for (const [row, names] of this.rows) {
      if (names.entry && goneEntries.has(names.entry)) {
        this.rows.delete(row);
        this.changed = true;
      }
    }
  }

  private setCheckpoint(collection: string, at: ChangeCheckpoint): void {
    this.checkpoints.set(collection, at);
    this.changed = true;
  }

  private apply(collection: Collection, doc: Plain): void {
    const row = `${collection}:${doc.id}`;
    const files: RowNames = isNaming(collection) ? namesOf(collection, doc) : { keys: [], entry: null };
    const photos = photoNamesOf(doc, this.own);
    const names: RowNames = photos.length === 0 ? files : { keys: [...files.keys, ...photos], entry: files.entry };
    const before = this.rows.get(row);
    if (names.keys.length === 0) {
      if (this.rows.delete(row)) this.changed = true;
      return;
    }
    if (before && before.entry === names.entry && before.keys.length === names.keys.length && before.keys.every((key, i) => key === names.keys[i])) return;
    this.rows.set(row, names);
    this.changed = true;
  }

  /** Every cached-file and photo key a row on the device names now. */
  named(): Set<string> {
    const keys = new Set<string>();
    for (const names of this.rows.values()) for (const key of names.keys) keys.add(key);
    return keys;
  }

  /** Stores the summary when it changed since it was read or last stored. A cache: a write lost is caught up next time. */
  async store(): Promise<void> {
    if (!this.changed || this.db.closed) return;
    this.changed = false;
    const stored: Stored = {
      v: VERSION,
      checkpoints: Object.fromEntries(this.checkpoints),
      rows: [...this.rows].map(([row, names]) => [row, names.keys, names.entry] as const),
    };
    const doc = summaryDoc(FILE_SWEEP_SUMMARY_ID, stored);
    await this.db.files.upsert(doc).catch(() => undefined);
  }
}
