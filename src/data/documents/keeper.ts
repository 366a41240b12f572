/**
 * Keeps documents on the device (issue 11 "Keep offline"): after every pull of `documents`, and
 * whenever the young person changes a switch or frees space, one pass makes the device hold exactly
 * the files of the documents it should keep:
 *
 * - a document whose row is gone (withdrawn, or no longer theirs: a tombstone) loses its kept bytes
 *   and this device's state of it;
 * - a document not kept (the switch off, or the default for its size: src/data/replica/documents.ts
 *   KEEP_BY_DEFAULT_MAX_BYTES) loses its bytes;
 * - a kept document gets every file it shows (the file, page pictures, gallery items, the young
 *   person's own file answers), fetched through src/api one range of KEPT_CHUNK_BYTES at a time,
 *   each chunk stored encrypted at once (./kept-bytes.ts) and the manifest in its state updated, so
 *   the list shows progress and a long file resumes where it stopped; files a document no longer
 *   has (staff replaced them) go.
 *
 * Passes run one at a time per replica; a request during a pass runs one more pass after it.
 * Offline (or on any network failure) a pass stops and the next trigger carries on.
 */
import { getDocumentFile } from '@/api/documents/document-file';
import {
  changeDocumentState,
  documentFiles,
  documentStateId,
  wantsKept,
  type DocumentFileRef,
} from '../replica/documents';
import { incrementalRemoveEmptied } from '../replica/remove-emptied';
import type { OpenReplica, ReplicaDatabase } from '../replica/replica-store';
import type { DocumentDoc, DocumentStateDoc, DocumentsCollectionDoc, KeptBlob, KeptManifest } from '../replica/types';
import { chunkCount, chunkRange, KEPT_CHUNK_BYTES, removeKeptFiles, storeChunk } from './kept-bytes';
import { keepViewerCode } from './viewer-code';
import { askPersistentStorageOnce } from '../persistent-storage';
import { replicaPasses } from '../replica/passes';

const isOnline = (): boolean => (typeof navigator === 'undefined' ? true : navigator.onLine !== false);

const passes = replicaPasses({
  run: (db) => keepOnce(db),
  closed: (db) => db.documents.closed,
  failure: 'Keeping documents on this device failed',
});

/** Runs a keeping pass (or asks for one more after the running one). Never rejects. */
export const keepDocuments = (open: Pick<OpenReplica, 'db'>): Promise<void> => passes.request(open.db);

/** Resolves when no pass is running for this replica (tests). */
export const keeperIdle = (open: Pick<OpenReplica, 'db'>): Promise<void> => passes.idle(open.db);

type Plain = DocumentsCollectionDoc;

async function snapshot(db: ReplicaDatabase): Promise<{ rows: DocumentDoc[]; states: Map<string, DocumentStateDoc> }> {
  const docs = (await db.documents.find().exec()).map((doc) => doc.toJSON() as Plain);
  const rows = docs.filter((doc) => doc.kind !== 'state') as DocumentDoc[];
  const states = new Map(docs.filter((doc) => doc.kind === 'state').map((doc) => [(doc as DocumentStateDoc).document_id, doc as DocumentStateDoc]));
  return { rows, states };
}

/** `complete` when every file the document has is stored whole. */
const manifestOf = (version: number, blobs: readonly KeptBlob[], files: readonly DocumentFileRef[]): KeptManifest => ({
  version,
  blobs,
  complete: files.every((file) => blobs.some((blob) => blob.id === file.id && blob.chunks >= chunkCount(blob.size))),
  bytes: blobs.reduce((sum, blob) => sum + blob.stored, 0),
  at: new Date().toISOString(),
});

const setManifest = (db: ReplicaDatabase, documentId: string, kept: KeptManifest | null) =>
  changeDocumentState(db, documentId, (state) => ({ ...state, kept }));

/** This device's state of a document that is gone, emptied and deleted (../replica/remove-emptied.ts). */
async function eraseState(db: ReplicaDatabase, documentId: string): Promise<void> {
  const doc = await db.documents.findOne(documentStateId(documentId)).exec();
  if (doc) await incrementalRemoveEmptied(doc).catch(() => undefined);
}

async function keepOnce(db: ReplicaDatabase): Promise<void> {
  const { rows, states } = await snapshot(db);
  const live = new Set(rows.map((row) => row.id));

  // Gone from the device: withdrawn, or no longer this young person's.
  for (const [documentId, state] of states) {
    if (live.has(documentId) || db.closed) continue;
    await removeKeptFiles(db, documentId, state.kept?.blobs ?? []);
    await eraseState(db, documentId);
  }

  // Smallest first: most documents are ready offline soonest.
  let pdfKept = false;
  for (const row of [...rows].sort((a, b) => a.size - b.size)) {
    if (db.closed) return;
    const state = states.get(row.id) ?? null;
    const stopped = await keepDocument(db, row, state);
    if (stopped === 'offline') break;
    pdfKept ||= row.kind === 'file' && row.file?.mime === 'application/pdf' && wantsKept(row, state);
  }
  // A PDF on the device needs its viewer's code offline too.
  if (pdfKept) keepViewerCode();
}

/** Makes the device hold what it should of one document; 'offline' when the network failed. */
async function keepDocument(db: ReplicaDatabase, row: DocumentDoc, state: DocumentStateDoc | null): Promise<'done' | 'offline'> {
  const files = documentFiles(row);
  let blobs: KeptBlob[] = [...(state?.kept?.blobs ?? [])];

  if (!wantsKept(row, state)) {
    if (state?.kept) {
      await removeKeptFiles(db, row.id, blobs);
      await setManifest(db, row.id, null);
    }
    return 'done';
  }

  // Files staff replaced or removed (and a file whose size changed under the same id).
  const stale = blobs.filter((blob) => !files.some((file) => file.id === blob.id && file.size === blob.size));
  if (stale.length > 0) {
    await removeKeptFiles(db, row.id, stale);
    blobs = blobs.filter((blob) => !stale.includes(blob));
  }
  if (state?.kept && (stale.length > 0 || state.kept.version !== row.version || state.kept.complete !== manifestOf(row.version, blobs, files).complete)) {
    await setManifest(db, row.id, manifestOf(row.version, blobs, files));
  }

  for (const file of files) {
    const index = blobs.findIndex((blob) => blob.id === file.id);
    const entry: KeptBlob = index >= 0 ? blobs[index]! : { id: file.id, mime: file.mime, size: file.size, chunks: 0, stored: 0 };
    if (entry.chunks >= chunkCount(file.size)) continue;
    if (!isOnline()) return 'offline';
    // Named in the manifest before its first chunk is stored, so a removal always finds it.
    if (index < 0) {
      blobs = [...blobs, entry];
      await setManifest(db, row.id, manifestOf(row.version, blobs, files));
    }
    const outcome = await fetchFile(db, row, file, entry, (next) => {
      blobs = blobs.map((blob) => (blob.id === next.id ? next : blob));
      return setManifest(db, row.id, manifestOf(row.version, blobs, files));
    });
    if (outcome === 'offline') return 'offline';
    if (outcome === 'stopped') return 'done';
    if (outcome === 'kept') {
      void askPersistentStorageOnce().catch(() => undefined);
    }
  }
  return 'done';
}

/** Still wanted? (The young person may have switched it off while it was being fetched.) */
async function stillWanted(db: ReplicaDatabase, row: DocumentDoc): Promise<boolean> {
  if (db.closed) return false;
  const state = await db.documents.findOne(documentStateId(row.id)).exec();
  return wantsKept(row, state ? (state.toJSON() as DocumentStateDoc) : null);
}

/** Fetches the chunks of one file not stored yet, storing each as it comes. */
async function fetchFile(
  db: ReplicaDatabase,
  row: DocumentDoc,
  file: DocumentFileRef,
  from: KeptBlob,
  progress: (entry: KeptBlob) => Promise<unknown>,
): Promise<'kept' | 'offline' | 'skipped' | 'stopped'> {
  const total = chunkCount(file.size);
  let entry = from;
  if (file.size === 0) {
    await storeChunk(db, row.id, file.id, 0, new Uint8Array(0), file.mime);
    await progress({ ...entry, chunks: 1, stored: 0 });
    return 'kept';
  }
  for (let index = entry.chunks; index < total; index += 1) {
    if (!(await stillWanted(db, row))) return 'stopped';
    const range = chunkRange(file.size, index);
    const result = await getDocumentFile(row.id, file.itemId, { range, quiet: true });
    if (!result.ok) return result.status === 0 ? 'offline' : 'skipped'; // 404: gone; the next pull says what is there
    const bytes = new Uint8Array(await result.data.arrayBuffer());
    if (result.status === 200) {
      // The whole file (a server that ignores ranges): store it all.
      if (bytes.length !== file.size) return 'skipped';
      for (let i = index; i < total; i += 1) {
        const part = chunkRange(file.size, i);
        await storeChunk(db, row.id, file.id, i, bytes.subarray(part.start, part.end + 1), file.mime);
      }
      entry = { ...entry, chunks: total, stored: file.size };
      await progress(entry);
      return 'kept';
    }
    if (bytes.length !== range.end - range.start + 1) return 'skipped';
    await storeChunk(db, row.id, file.id, index, bytes, file.mime);
    entry = { ...entry, chunks: index + 1, stored: Math.min(file.size, entry.stored + bytes.length) };
    await progress(entry);
  }
  return 'kept';
}

/** The young person's Keep offline switch for one document (null: back to the default for its size). */
export async function setKeepOffline(open: Pick<OpenReplica, 'db'>, documentId: string, keep: boolean | null): Promise<void> {
  await changeDocumentState(open.db, documentId, (state) => (state.keep === keep ? null : { ...state, keep }));
  void keepDocuments(open);
}

/** "Free all": every document is no longer kept on this device (each switch off), and the bytes go. */
export async function freeAllKept(open: Pick<OpenReplica, 'db'>): Promise<void> {
  const { rows, states } = await snapshot(open.db);
  for (const row of rows) {
    const state = states.get(row.id) ?? null;
    if (state?.kept || wantsKept(row, state)) await changeDocumentState(open.db, row.id, (current) => ({ ...current, keep: false }));
  }
  await keepDocuments(open);
}

export { KEPT_CHUNK_BYTES };
