/**
 * HTTP range requests (RFC 9110 §14) for one stored representation of `size` bytes with a strong
 * ETag, as the document blobs answer them (docs/api.md):
 * - no Range, a Range that cannot be read (another unit, bad numbers), or several ranges: the whole
 *   representation (200); a server may ignore Range, and a video player asks for one range at a time;
 * - `If-Range` that does not match the ETag (or the Last-Modified date, to the second): the whole (200);
 * - one satisfiable range: `bytes=a-b`, `bytes=a-` (to the end), `bytes=-n` (the last n bytes),
 *   clipped to the end: 206 with Content-Range;
 * - one range that starts at or past the end (or a suffix of zero bytes): 416, Content-Range giving the size.
 */
export type RangeAnswer =
  | { kind: 'whole' }
  | { kind: 'partial'; start: number; end: number }
  | { kind: 'unsatisfiable' };

const RANGE = /^bytes=([0-9]*)-([0-9]*)$/i;

export function rangeOf(header: string | undefined, size: number): RangeAnswer {
  if (header === undefined) return { kind: 'whole' };
  const spec = header.replace(/[ \t]/g, '');
  if (spec.includes(',')) return { kind: 'whole' };
  const match = RANGE.exec(spec);
  if (!match) return { kind: 'whole' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first.length > 15 || last.length > 15) return { kind: 'whole' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? Number.MAX_SAFE_INTEGER : Number(last);
  if (end < start) return { kind: 'whole' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end: Math.min(end, size - 1) };
}

/** An HTTP date, to the second (what Last-Modified carries). */
export const httpDate = (date: Date): string => date.toUTCString();

/**
 * Whether a Range may be honoured: no If-Range, or If-Range naming this strong ETag, or this
 * Last-Modified date exactly (our blobs never change under one id, so the date is as good as strong).
 */
export function ifRangeHolds(ifRange: string | undefined, etag: string, lastModified: Date): boolean {
  if (ifRange === undefined) return true;
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return value === etag;
  const date = Date.parse(value);
  return !Number.isNaN(date) && Math.floor(date / 1000) === Math.floor(lastModified.getTime() / 1000);
}

/** Whether If-None-Match names this ETag (weak comparison, `*` included): the answer is then 304. */
export function noneMatch(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}
