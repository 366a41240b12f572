/**
 * Documents on the device (issue 11): the rows staff shared (kinds file, book, gallery, form) and
 * this device's own state of each (kind `state`, `state:<document id>`) in the one `documents`
 * collection. Queries here decrypt and pair them; sorting, grouping and search happen after
 * decryption (encrypted fields cannot be queried).
 *
 * A state is written only through `changeDocumentState` (RxDB's incrementalModify: concurrent
 * changes, say the keeper's progress and a page turn, never lose each other).
 */
import { combineLatest, map, type Observable } from 'rxjs';
import type { BookPage, DocumentBlob, GalleryItem } from '@/contract/documents';
import type { ReplicaDatabase } from './replica-store';
import { SYNCED, syncFields, type DocumentDoc, type DocumentStateDoc, type DocumentsCollectionDoc } from './types';

export const documentStateId = (documentId: string): string => `state:${documentId}`;
export const isDocumentStateId = (id: string): boolean => id.startsWith('state:');

/**
 * Keep offline is on by default for a document of at most this many bytes (all its files together).
 * Why 5 MB: the demo's PDFs, books and galleries are tens to hundreds of kilobytes and a short phone
 * video a few megabytes; a cheap phone with 16 GB usually has room for that many. Anything larger
 * (a longer video) waits for the young person to choose it.
 */
export const KEEP_BY_DEFAULT_MAX_BYTES = 5 * 1024 * 1024;

/** A document and this device's state of it (null before anything was recorded). */
export interface DocumentWithState {
  readonly doc: DocumentDoc;
  readonly state: DocumentStateDoc | null;
}

export function emptyDocumentState(documentId: string, now = new Date().toISOString()): DocumentStateDoc {
  return {
    id: documentStateId(documentId),
    kind: 'state',
    updated_at: now,
    document_id: documentId,
    opened_version: null,
    reading: null,
    keep: null,
    kept: null,
    outgoing: null,
    errors: null,
    ...syncFields(SYNCED),
  };
}

/** Whether the device keeps this document: the young person's choice, else the default for its size. */
export const wantsKept = (doc: Pick<DocumentDoc, 'size'>, state: Pick<DocumentStateDoc, 'keep'> | null): boolean =>
  state?.keep ?? doc.size <= KEEP_BY_DEFAULT_MAX_BYTES;

/** Every file the device needs to show a document offline, with the id the blob path takes (null: the main file). */
export interface DocumentFileRef {
  /** The stored file's id (its key in the kept manifest). */
  readonly id: string;
  /** The item id of its blob path, or null for the main file of a `file` document. */
  readonly itemId: string | null;
  readonly mime: string;
  readonly size: number;
}

export function documentFiles(doc: DocumentDoc): DocumentFileRef[] {
  const out: DocumentFileRef[] = [];
  const add = (blob: DocumentBlob, main = false) => out.push({ id: blob.id, itemId: main ? null : blob.id, mime: blob.mime, size: blob.size });
  if (doc.kind === 'file' && doc.file) add(doc.file, true);
  for (const page of doc.book?.pages ?? []) for (const image of page.images) add(image);
  for (const item of doc.gallery?.items ?? []) add(item);
  for (const file of doc.submission?.files ?? []) add(file);
  return out;
}

/** The file of a document with this id (a page picture, a gallery item, an answer), as a ref. */
export function documentFile(doc: DocumentDoc, fileId: string): DocumentFileRef | null {
  return documentFiles(doc).find((file) => file.id === fileId) ?? null;
}

/** "New" until opened on this device (a document staff changed before that: "Updated"); "Updated" when `version` passed the one opened. */
export type DocumentMark = 'new' | 'updated' | null;
export function documentMark(doc: Pick<DocumentDoc, 'version'>, state: Pick<DocumentStateDoc, 'opened_version'> | null): DocumentMark {
  const opened = state?.opened_version ?? null;
  if (opened === null) return doc.version > 1 ? 'updated' : 'new';
  return doc.version > opened ? 'updated' : null;
}

const plainOf = (doc: { toJSON(): unknown }): DocumentsCollectionDoc => doc.toJSON() as DocumentsCollectionDoc;

/** Splits the collection into rows and states (by document id). */
function split(docs: readonly DocumentsCollectionDoc[]): { rows: DocumentDoc[]; states: Map<string, DocumentStateDoc> } {
  const rows: DocumentDoc[] = [];
  const states = new Map<string, DocumentStateDoc>();
  for (const doc of docs) {
    if (doc.kind === 'state') states.set((doc as DocumentStateDoc).document_id, doc as DocumentStateDoc);
    else rows.push(doc as DocumentDoc);
  }
  return { rows, states };
}

/** Every document with its state, newest change first (categories and search are the screen's). */
export function documentsWithState$(db: ReplicaDatabase): Observable<DocumentWithState[]> {
  return db.documents.find().$.pipe(
    map((docs) => {
      const { rows, states } = split(docs.map(plainOf));
      return rows
        .sort((a, b) => b.content_updated_at.localeCompare(a.content_updated_at) || a.title.localeCompare(b.title))
        .map((doc) => ({ doc, state: states.get(doc.id) ?? null }));
    }),
  );
}

/** One document with its state; null when the replica does not have it (unknown, or withdrawn). */
export function documentWithState$(db: ReplicaDatabase, id: string): Observable<DocumentWithState | null> {
  return combineLatest([db.documents.findOne(id).$, db.documents.findOne(documentStateId(id)).$]).pipe(
    map(([row, state]) => {
      const doc = row ? (plainOf(row) as DocumentDoc) : null;
      if (!doc || doc.kind === ('state' as string)) return null;
      return { doc, state: state ? (plainOf(state) as DocumentStateDoc) : null };
    }),
  );
}

export async function readDocument(db: ReplicaDatabase, id: string): Promise<DocumentDoc | null> {
  const found = await db.documents.findOne(id).exec();
  const doc = found ? (plainOf(found) as DocumentDoc) : null;
  return doc && doc.kind !== ('state' as string) ? doc : null;
}

export async function readDocumentState(db: ReplicaDatabase, documentId: string): Promise<DocumentStateDoc | null> {
  const found = await db.documents.findOne(documentStateId(documentId)).exec();
  return found ? (plainOf(found) as DocumentStateDoc) : null;
}

/**
 * Changes this device's state of a document (created when missing). `change` gets the current
 * state and returns the new one, or null to leave it as it is. Atomic per document.
 */
export async function changeDocumentState(
  db: ReplicaDatabase,
  documentId: string,
  change: (current: DocumentStateDoc) => DocumentStateDoc | null,
): Promise<DocumentStateDoc | null> {
  if (db.closed) return null;
  const id = documentStateId(documentId);
  let result: DocumentStateDoc | null = null;
  const apply = (current: DocumentStateDoc): DocumentStateDoc => {
    const next = change(current);
    result = next;
    return next ? { ...next, id, kind: 'state', document_id: documentId, updated_at: new Date().toISOString() } : current;
  };
  const existing = await db.documents.findOne(id).exec();
  if (existing) {
    await existing.incrementalModify((doc) => apply(doc as unknown as DocumentStateDoc) as unknown as typeof doc);
    return result;
  }
  const fresh = change(emptyDocumentState(documentId));
  if (!fresh) return null;
  try {
    await db.documents.insert({ ...fresh, id, kind: 'state', document_id: documentId } as DocumentsCollectionDoc);
    return fresh;
  } catch {
    // Another write made it in between: change that one.
    const raced = await db.documents.findOne(id).exec();
    if (!raced) throw new Error('The document state could not be written');
    await raced.incrementalModify((doc) => apply(doc as unknown as DocumentStateDoc) as unknown as typeof doc);
    return result;
  }
}

/** Opened now: "New" and "Updated" go (the version seen is remembered, encrypted, in the replica). */
export function markDocumentOpened(db: ReplicaDatabase, doc: Pick<DocumentDoc, 'id' | 'version'>): Promise<DocumentStateDoc | null> {
  return changeDocumentState(db, doc.id, (state) => (state.opened_version === doc.version ? null : { ...state, opened_version: doc.version }));
}

/** The book page the young person is reading now (restored when the book is opened again). */
export function rememberReadingPosition(db: ReplicaDatabase, documentId: string, pageId: string): Promise<DocumentStateDoc | null> {
  return changeDocumentState(db, documentId, (state) =>
    state.reading?.page_id === pageId ? null : { ...state, reading: { page_id: pageId, at: new Date().toISOString() } },
  );
}

/** A book's pages in reading order with their chapter (the contract sends them in that order). */
export function bookPages(doc: DocumentDoc): { page: BookPage; chapterTitle: string; index: number }[] {
  const chapters = new Map((doc.book?.chapters ?? []).map((chapter) => [chapter.id, chapter.title]));
  return (doc.book?.pages ?? []).map((page, index) => ({ page, chapterTitle: chapters.get(page.chapter_id) ?? '', index }));
}

/** A gallery's items in order. */
export const galleryItems = (doc: DocumentDoc): GalleryItem[] => [...(doc.gallery?.items ?? [])].sort((a, b) => a.position - b.position);
