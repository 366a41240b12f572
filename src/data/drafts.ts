/**
 * Drafts of forms a person is filling in (a review being written): JSON values kept encrypted in
 * the replica's `files` collection as kind `draft` (`draft:<key>`, content_type application/json,
 * `data` the JSON text). The replica has no room for a drafts collection (RxDB open-core's 13).
 * A draft survives reloads and closing the app; signing out wipes it with the replica.
 *
 * Files attached to a draft (a photo picked for an entry being written) are kept beside it, also
 * kind `draft`: `draft-file:<key>/<file id>`, `data` the bytes in base64 as a `local:` file's,
 * content_type the file's type; the draft's JSON names them (`DraftFile`). They belong to the
 * draft, not to a write: deleting the draft deletes every one under its key, and nothing else
 * (the outbox, settle.ts, a sweep of `file:` caches) ever reads or removes them.
 */
import { map, type Observable } from 'rxjs';
import { base64ToBytes, bytesToBase64 } from '@/contract/base64';
import { eraseFileDocs } from './documents/kept-bytes';
import type { OpenReplica } from './replica/replica-store';
import { SYNCED, syncFields, type FileDoc } from './replica/types';
import { signOutsSoFar } from './session-store';
import { sessionReplica } from './session-replica';

export const DRAFT_CONTENT_TYPE = 'application/json';
export const draftId = (key: string): string => `draft:${key}`;
/** Every stored draft's id lies in this range (a draft file's, `draft-file:`, sorts before it). */
const DRAFT_IDS = { $gte: 'draft:', $lt: 'draft;' } as const;

/** A file attached to a draft, as the draft's JSON names it (its bytes are stored beside the draft). */
export interface DraftFile {
  readonly id: string;
  readonly name: string;
  readonly mime: string;
  readonly size: number;
}

/** `/` occurs in no draft key (draft-keys.ts: ids and words joined by `:`), so a key's files are one id range. */
export const draftFileId = (key: string, fileId: string): string => `draft-file:${key}/${fileId}`;
const draftFilesOf = (key: string) => ({ $gte: `draft-file:${key}/`, $lt: `draft-file:${key}0` });

/** The session's replica (./session-replica.ts): a draft saved across a sign-out stores nothing. */
const replica = (): Promise<OpenReplica | null> => sessionReplica();

/** Stores `value` (anything JSON can hold) as the draft under `key`; false when no replica is open. */
export async function saveDraft(key: string, value: unknown): Promise<boolean> {
  const open = await replica();
  if (!open) return false;
  const doc: FileDoc = {
    id: draftId(key),
    kind: 'draft',
    updated_at: new Date().toISOString(),
    content_type: DRAFT_CONTENT_TYPE,
    data: JSON.stringify(value ?? null),
    ...syncFields(SYNCED),
  };
  await open.db.files.upsert(doc);
  return true;
}

/** The parsed value of a stored draft document (null when none, or unreadable). */
export function draftValueOf<T>(doc: Pick<FileDoc, 'kind' | 'data'> | null | undefined): T | null {
  if (!doc || doc.kind !== 'draft' || doc.data === null) return null;
  try {
    return JSON.parse(doc.data) as T;
  } catch {
    return null;
  }
}

/** The draft under `key`, or null. */
export async function readDraft<T>(key: string): Promise<T | null> {
  const open = await replica();
  const doc = await open?.db.files.findOne(draftId(key)).exec();
  return draftValueOf<T>(doc?.toJSON() as FileDoc | undefined);
}

/**
 * Forgets the draft under `key` and every file kept with it (nothing happens when there is none),
 * emptied as they are removed: a removed document's deleted row would otherwise keep the words and
 * the photos (eraseFileDocs).
 */
export async function deleteDraft(key: string): Promise<void> {
  const open = await replica();
  if (!open) return;
  const files = await open.db.files.find({ selector: { id: draftFilesOf(key) } }).exec();
  await eraseFileDocs(open.db, [draftId(key), ...files.map((doc) => doc.primary)]);
}

/**
 * Keeps `file` with the draft under `key` (encrypted like every file); what the draft's JSON names it
 * by, or null when no replica is open. The bytes are stored before the draft can name them, so a
 * draft never names a file that is not there.
 */
export async function keepDraftFile(key: string, file: Blob, name: string): Promise<DraftFile | null> {
  const session = signOutsSoFar();
  const open = await replica();
  if (!open) return null;
  const id = crypto.randomUUID();
  const mime = file.type || 'application/octet-stream';
  const data = bytesToBase64(new Uint8Array(await file.arrayBuffer()));
  // Reading a large file takes a while: a sign-out meanwhile wipes this replica, nothing goes after it.
  if (signOutsSoFar() !== session || open.db.closed) return null;
  const doc: FileDoc = {
    id: draftFileId(key, id),
    kind: 'draft',
    updated_at: new Date().toISOString(),
    content_type: mime,
    data,
    ...syncFields(SYNCED),
  };
  await open.db.files.upsert(doc);
  return { id, name, mime, size: file.size };
}

/** A file kept with the draft under `key`, as a File with the name and type the draft gives it; null when its bytes are gone. */
export async function readDraftFile(key: string, file: DraftFile): Promise<File | null> {
  const open = await replica();
  const doc = await open?.db.files.findOne(draftFileId(key, file.id)).exec();
  const plain = doc?.toJSON() as FileDoc | undefined;
  if (!plain?.data) return null;
  return new File([base64ToBytes(plain.data)], file.name, { type: file.mime || plain.content_type });
}

/** Forgets one file kept with the draft under `key` (removed from the form). */
export async function forgetDraftFile(key: string, fileId: string): Promise<void> {
  const open = await replica();
  if (open) await eraseFileDocs(open.db, [draftFileId(key, fileId)]);
}

/**
 * Forms whose latest words are not stored yet (a form stores its draft a moment after the last
 * change). `flushDrafts` stores them now: the sign-out warning counts drafts, and a word typed
 * just before pressing Logout must be among them.
 */
const unstored = new Set<() => Promise<unknown>>();

/** Registers a form's "store what is waiting now"; returns the unregister. */
export function onFlushDrafts(flush: () => Promise<unknown>): () => void {
  unstored.add(flush);
  return () => {
    unstored.delete(flush);
  };
}

/** Stores every form's waiting draft (failures are the forms' own: a draft is best effort). */
export async function flushDrafts(): Promise<void> {
  await Promise.all([...unstored].map((flush) => flush().catch(() => undefined)));
}

/** Whether a draft holds anything a person wrote or chose: words, a number, a yes, a non-empty list. */
export function draftHasContent(value: unknown): boolean {
  if (typeof value === 'string') return value.trim() !== '';
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.some(draftHasContent);
  if (value && typeof value === 'object') return Object.values(value).some(draftHasContent);
  return false;
}

/** A stored draft document that holds something. */
const holdsSomething = (doc: { toJSON(): unknown }): boolean => draftHasContent(draftValueOf(doc.toJSON() as FileDoc));

/** How many drafts on the device hold something (the sign-out warning's count: signing out wipes them). */
export async function countDrafts(open: OpenReplica): Promise<number> {
  const docs = await open.db.files.find({ selector: { kind: 'draft', id: DRAFT_IDS } }).exec();
  return docs.filter(holdsSomething).length;
}

/** Live: of `keys`, those whose draft holds something, the one stored last first. */
export function keptDrafts$(open: OpenReplica, keys: readonly string[]): Observable<string[]> {
  return open.db.files.find({ selector: { id: { $in: keys.map(draftId) } } }).$.pipe(
    map((docs) =>
      docs
        .filter(holdsSomething)
        .map((doc) => doc.toJSON() as unknown as FileDoc)
        .sort((a, b) => b.updated_at.localeCompare(a.updated_at))
        .flatMap((doc) => keys.filter((key) => draftId(key) === doc.id)),
    ),
  );
}

/** Live: of `keys`, the one whose draft holds something and was stored last, or null. */
export function newestDraft$(open: OpenReplica, keys: readonly string[]): Observable<string | null> {
  return keptDrafts$(open, keys).pipe(map((kept) => kept[0] ?? null));
}
