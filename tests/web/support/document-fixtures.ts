import type { BookPage, GalleryItem } from '@/contract/documents';
import type { DocumentDoc, DocumentStateDoc } from '@/data/replica/types';

/** Documents as the replica holds them, for the screens' tests (the data layer has its own, against the real server). */
export const duuid = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const sync = { sync_state: 'synced', sync_message: null, sync_outbox_id: null } as const;
const ALI = { id: duuid(900), first_name: 'Ali', last_name: 'Hassan', has_photo: false };

function base(n: number, kind: DocumentDoc['kind'], title: string, extra: Partial<DocumentDoc> = {}): DocumentDoc {
  return {
    id: duuid(n),
    kind,
    title,
    description: `About ${title}`,
    category: 'General',
    resident_id: duuid(2),
    home_id: null,
    size: 0,
    mime: null,
    version: 1,
    created_at: '2026-03-01T09:00:00.000000Z',
    content_updated_at: `2026-03-${String(10 + (n % 10)).padStart(2, '0')}T09:00:00.000000Z`,
    updated_at: '2026-03-20T09:00:00.000000Z',
    creator: ALI,
    file: null,
    book: null,
    gallery: null,
    form: null,
    submission: null,
    ...sync,
    ...extra,
  };
}

export const blob = (n: number, name: string, mime: string, size: number) => ({ id: duuid(n), name, mime, size, blob: `/v1/documents/x/items/${duuid(n)}/blob` });

export function fileDoc(n: number, title: string, mime: string, size: number, extra: Partial<DocumentDoc> = {}): DocumentDoc {
  return base(n, 'file', title, { mime, size, file: blob(100 + n, `${title}.bin`, mime, size), ...extra });
}

export function bookDoc(n: number, title: string, pages: { title: string; html: string; chapter: number; images?: { n: number; alt: string }[] }[], extra: Partial<DocumentDoc> = {}): DocumentDoc {
  const chapterIds = [...new Set(pages.map((p) => p.chapter))];
  const chapters = chapterIds.map((c, position) => ({ id: duuid(300 + c), position, title: `Chapter ${c}` }));
  const positions = new Map<number, number>();
  const bookPages: BookPage[] = pages.map((p, i) => {
    const position = positions.get(p.chapter) ?? 0;
    positions.set(p.chapter, position + 1);
    return {
      id: duuid(400 + i),
      chapter_id: duuid(300 + p.chapter),
      position,
      title: p.title,
      html: p.html,
      images: (p.images ?? []).map((image) => ({ ...blob(500 + image.n, `p${image.n}.png`, 'image/png', 2_000), alt: image.alt })),
    };
  });
  const size = bookPages.reduce((sum, p) => sum + p.images.reduce((s, i) => s + i.size, 0), 0);
  return base(n, 'book', title, { book: { chapters, pages: bookPages }, size, ...extra });
}

export function galleryDoc(n: number, title: string, items: { n: number; kind: GalleryItem['kind']; caption: string | null }[], extra: Partial<DocumentDoc> = {}): DocumentDoc {
  const gallery: GalleryItem[] = items.map((item, position) => ({
    ...blob(600 + item.n, `g${item.n}.${item.kind === 'video' ? 'webm' : 'png'}`, item.kind === 'video' ? 'video/webm' : 'image/png', 3_000),
    kind: item.kind,
    position,
    caption: item.caption,
  }));
  return base(n, 'gallery', title, { gallery: { items: gallery }, size: gallery.length * 3_000, ...extra });
}

export function formDoc(n: number, title: string, fields: unknown[], extra: Partial<DocumentDoc> = {}): DocumentDoc {
  return base(n, 'form', title, {
    form: { form_id: duuid(700), form_version_id: duuid(701), version: 1, name: title, description: null, fields },
    ...extra,
  });
}

export function stateOf(doc: DocumentDoc, extra: Partial<DocumentStateDoc> = {}): DocumentStateDoc {
  return {
    id: `state:${doc.id}`,
    kind: 'state',
    updated_at: '2026-03-20T09:00:00.000Z',
    document_id: doc.id,
    opened_version: null,
    reading: null,
    keep: null,
    kept: null,
    outgoing: null,
    errors: null,
    ...sync,
    ...extra,
  };
}

/** A state whose manifest says every file of `doc` is stored whole. */
export function keptState(doc: DocumentDoc, extra: Partial<DocumentStateDoc> = {}): DocumentStateDoc {
  const files = [
    ...(doc.file ? [doc.file] : []),
    ...(doc.book?.pages.flatMap((p) => p.images) ?? []),
    ...(doc.gallery?.items ?? []),
  ];
  const blobs = files.map((f) => ({ id: f.id, mime: f.mime, size: f.size, chunks: 1, stored: f.size }));
  return stateOf(doc, { kept: { version: doc.version, blobs, complete: true, bytes: blobs.reduce((s, b) => s + b.stored, 0), at: '2026-03-20T09:00:00.000Z' }, ...extra });
}
