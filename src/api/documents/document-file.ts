import { paths } from '@/contract/paths';
import { getApiBase } from '../base-address';
import { request } from '../client';
import type { Result } from '../result';

/**
 * SPEC §7 "any document path as a blob": the file of a `file` document (`itemId` null) or any other
 * file of a document (a book page's picture, a gallery item, a file answer of the young person's
 * submission), built from the contract's paths (the row's `blob` says the same).
 */
export const documentFilePath = (documentId: string, itemId: string | null): string =>
  itemId ? paths.documentItemBlob.build(documentId, itemId) : paths.documentBlob.build(documentId);

export interface ByteRange {
  /** First byte (inclusive). */
  readonly start: number;
  /** Last byte (inclusive). */
  readonly end: number;
}

/**
 * GET a document's file, or one range of it (`Range: bytes=start-end`, answered 206 with that part;
 * a server that ignores ranges answers 200 with the whole file: the caller looks at `status`).
 * `quiet`: in the background (keeping documents offline), without the top loading bar.
 */
export function getDocumentFile(documentId: string, itemId: string | null, options: { range?: ByteRange; quiet?: boolean; signal?: AbortSignal } = {}): Promise<Result<Blob>> {
  const { range, quiet, signal } = options;
  return request<Blob>(documentFilePath(documentId, itemId), {
    responseType: 'blob',
    quiet,
    signal,
    ...(range ? { headers: { Range: `bytes=${range.start}-${range.end}` } } : {}),
  });
}

/**
 * The address a `<video>` or `<audio>` element streams a document's file from while online (range
 * requests, cookies of this origin). Only for an API on this origin: elsewhere the CSP's media-src
 * (and cookies) would not allow it, and null says "fetch it instead".
 */
export function documentStreamUrl(documentId: string, itemId: string | null): string | null {
  const base = getApiBase();
  if (/^https?:\/\//i.test(base) && typeof location !== 'undefined' && !base.startsWith(location.origin)) return null;
  return `${base}${documentFilePath(documentId, itemId)}`;
}
