import type { DocumentDoc, DocumentStateDoc } from '@/data/replica/types';
import { documentFiles, wantsKept } from '@/data/replica/documents';
import { chunkCount } from '@/data/documents/kept-bytes';
import { longDate } from '@/lib/en-gb';

/** "12 KB", "2.4 MB": decimal units as phones show storage. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1).replace(/\.0$/, '')} ${units[unit]}`;
}

/** What kind of document it is, in words. */
export function kindLabel(doc: Pick<DocumentDoc, 'kind' | 'mime'>): string {
  switch (doc.kind) {
    case 'book':
      return 'Book';
    case 'gallery':
      return 'Photos and videos';
    case 'form':
      return 'Form to fill in';
    default: {
      const mime = doc.mime ?? '';
      if (mime === 'application/pdf') return 'PDF';
      if (mime.startsWith('image/')) return 'Picture';
      if (mime.startsWith('video/')) return 'Video';
      if (mime.startsWith('audio/')) return 'Recording';
      if (mime.startsWith('text/')) return 'Text';
      return 'File';
    }
  }
}

export type KeptStatus =
  /** Nothing to fetch: everything it shows is in the replica (a form without files). */
  | { readonly kind: 'ready' }
  | { readonly kind: 'kept'; readonly bytes: number }
  | { readonly kind: 'saving'; readonly percent: number }
  | { readonly kind: 'not-kept' };

/** Whether the device holds everything this document shows, is fetching it, or does not keep it. */
export function keptStatus(doc: DocumentDoc, state: DocumentStateDoc | null): KeptStatus {
  const files = documentFiles(doc);
  const kept = state?.kept ?? null;
  const whole = (id: string, size: number) => kept?.blobs.some((b) => b.id === id && b.size === size && b.chunks >= chunkCount(size)) ?? false;
  if (files.length === 0) return { kind: 'ready' };
  if (files.every((file) => whole(file.id, file.size))) return { kind: 'kept', bytes: kept?.bytes ?? 0 };
  if (!wantsKept(doc, state)) return { kind: 'not-kept' };
  const total = files.reduce((sum, file) => sum + file.size, 0);
  const stored = kept?.blobs.reduce((sum, blob) => sum + blob.stored, 0) ?? 0;
  return { kind: 'saving', percent: total > 0 ? Math.min(99, Math.floor((stored * 100) / total)) : 0 };
}

/** Lower-case, accents removed: "Café" matches "cafe". */
export const searchable = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase();

export function matches(doc: Pick<DocumentDoc, 'title' | 'description'>, query: string): boolean {
  const words = searchable(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = searchable(`${doc.title} ${doc.description ?? ''}`);
  return words.every((word) => text.includes(word));
}

export const formatDate = (iso: string): string => {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? '' : longDate(new Date(time), { weekday: false, year: true });
};
