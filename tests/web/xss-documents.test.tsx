import { act } from '@testing-library/react';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DocumentFileView } from '@/data/documents/use-document-file';
import type { Live } from '@/data/hooks/use-live';
import type { DocumentFileRef, DocumentWithState } from '@/data/replica/documents';
import type { DocumentDoc, DocumentStateDoc } from '@/data/replica/types';
import { setAccount } from '@/data/session-store';
import { ALL_PAYLOADS, XSS_VECTORS } from '../support/xss-vectors';
import { makeAccount } from './support/account';
import { bookDoc, duuid, fileDoc, formDoc, galleryDoc, keptState, stateOf } from './support/document-fixtures';
import { fakeFetch } from './support/fake-fetch';
import { renderApp } from './support/render-app';
import { formFillChecks, formViewChecks, hostileForm } from './support/xss-forms';
import { checksMade, fireHandlers, installMarker, missingAsText, settle, shown, sweepScreen, xssFindings } from './support/xss-scan';

/**
 * Issue 12's XSS sweep, documents: what staff write (titles, descriptions, categories, chapter and
 * page titles, captions, a text file's words, a form's questions) and the book pages' rich HTML
 * (src/lib/sanitize-html.ts, then the pages' allowlist, rendered by book-page.tsx), and what the
 * young person writes in a form (its draft, its answers on their way, its answers sent). Every
 * vector of tests/support/xss-vectors.ts, through the real routes and providers and the fakes of
 * tests/web/documents-pages.test.tsx and documents-forms.test.tsx.
 */
const fake = vi.hoisted(() => ({
  items: [] as { doc: unknown; state: unknown }[],
  views: new Map<string, unknown>(),
  draft: null as unknown,
  formNames: [] as unknown[],
}));

vi.mock('@/features/documents/hooks/use-documents', async () => {
  const { useSyncExternalStore } = await import('react');
  const subscribe = () => () => undefined;
  return {
    useDocuments: (): Live<DocumentWithState[]> => ({ data: useSyncExternalStore(subscribe, () => fake.items) as DocumentWithState[], loading: false }),
    useDocument: (id: string): Live<DocumentWithState | null> => {
      const items = useSyncExternalStore(subscribe, () => fake.items) as DocumentWithState[];
      return { data: items.find((item) => item.doc.id === id) ?? null, loading: false };
    },
  };
});
vi.mock('@/data/documents/use-document-file', () => ({
  useDocumentFile: (_documentId: string, file: DocumentFileRef | null): DocumentFileView => {
    if (!file) return { status: 'missing' };
    return (fake.views.get(file.id) as DocumentFileView | undefined) ?? { status: 'ready', url: `blob:fake/${file.id}`, blob: new Blob(['bytes'], { type: file.mime }), source: 'kept' };
  },
}));
vi.mock('@/features/documents/actions/keep-offline', () => ({ keepOffline: async () => true, freeAllDocuments: async () => true }));
vi.mock('@/features/documents/actions/remember', () => ({ rememberOpened: async () => undefined, rememberPage: async () => undefined }));
vi.mock('@/data/hooks/use-form-names', () => ({ useFormNames: () => fake.formNames }));
vi.mock('@/data/hooks/use-draft', () => ({ useDraft: () => ({ value: fake.draft, loading: false, save: async () => true, clear: async () => undefined }) }));
vi.mock('@/features/documents/actions/submit-form', () => ({ documentDraftKey: (id: string) => `document:${id}`, submitDocumentForm: async () => ({ ok: true, id: 'x', queuedOffline: false }) }));
vi.mock('@/features/documents/actions/form-files', () => ({ storeFormFile: async () => null, readFormFile: async () => null }));

const V = XSS_VECTORS;
const form = hostileForm(V);
/** The form being filled in renders every control: the vectors packed, within the contract's 100 questions. */
const fillForm = hostileForm(V, 'packed');

let marker: ReturnType<typeof installMarker>;
beforeEach(() => {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
  marker = installMarker();
  fake.items = [];
  fake.views = new Map();
  fake.draft = null;
  fake.formNames = form.formNames;
  fakeFetch();
  setAccount(makeAccount());
});
afterEach(() => marker.remove());
afterAll(() => console.info(`xss-documents: ${checksMade()} vector × field × screen checks`));

const clean = { ran: [], injected: [], notShownAsText: [] };
const main = () => document.querySelector('main')!;
const show = (...docs: [DocumentDoc, DocumentStateDoc | null][]) => {
  fake.items = docs.map(([doc, state]) => ({ doc, state }));
};
const header = (what: string) => [
  { field: `${what} title`, selector: '.doc-header h1', vectors: V },
  { field: `${what} description`, selector: '.doc-header .lead', vectors: V },
];

describe('documents', () => {
  it('/documents: every title, description and category (one document per vector) is text', async () => {
    show(...V.map((v): [DocumentDoc, null] => [fileDoc(v.id, v.payload, 'text/plain', 100, { description: v.payload, category: v.payload }), null]));
    renderApp('/documents');
    await shown('.doc-item__title');
    expect(
      await sweepScreen(marker, main(), [
        { field: 'document title (list)', selector: '.doc-item__title', vectors: V },
        { field: 'document description (list)', selector: '.doc-item__description', vectors: V },
        { field: 'document category (list)', selector: '.documents__category > h2', vectors: V },
      ]),
    ).toEqual(clean);
  });

  it('a text file: its title, description and words are text', async () => {
    const note = fileDoc(200, ALL_PAYLOADS, 'text/plain', 1000, { description: ALL_PAYLOADS });
    fake.views.set(note.file!.id, { status: 'ready', url: 'blob:x', blob: new Blob([ALL_PAYLOADS], { type: 'text/plain' }), source: 'kept' });
    show([note, keptState(note)]);
    renderApp(`/documents/${note.id}`);
    await shown('pre.doc-text');
    expect(await sweepScreen(marker, main(), [...header('text file'), { field: 'text file words', selector: 'pre.doc-text', vectors: V }])).toEqual(clean);
  });

  it('a video: its description under the player is text', async () => {
    const film = fileDoc(201, ALL_PAYLOADS, 'video/webm', 1000, { description: ALL_PAYLOADS });
    fake.views.set(film.file!.id, { status: 'ready', url: '/api/v1/documents/x/blob', blob: null, source: 'stream' });
    show([film, keptState(film)]);
    renderApp(`/documents/${film.id}`);
    await shown('figcaption');
    expect(await sweepScreen(marker, main(), [...header('video'), { field: 'video description (caption)', selector: 'figcaption', vectors: V }])).toEqual(clean);
  });

  it('a gallery: every caption (one picture per vector) is text in the grid and in the viewer', async () => {
    const items = [...V.map((v) => ({ n: v.id, kind: 'image' as const, caption: v.payload })), { n: 999, kind: 'video' as const, caption: ALL_PAYLOADS }];
    const trip = galleryDoc(202, ALL_PAYLOADS, items, { description: ALL_PAYLOADS });
    show([trip, keptState(trip)]);
    const { user } = renderApp(`/documents/${trip.id}`);
    const grid = await shown('.gallery__grid');
    expect(await sweepScreen(marker, main(), [...header('gallery'), { field: 'caption (grid)', selector: '.gallery__caption', vectors: V }])).toEqual(clean);
    await user.click(grid.querySelectorAll('button')[items.length - 1]!);
    await shown('.gallery-viewer__caption');
    expect(await sweepScreen(marker, document.body, [{ field: 'caption (viewer)', selector: '.gallery-viewer__caption', vectors: V }])).toEqual(clean);
  });
});

describe('books', () => {
  const pages = V.map((v) => ({ title: v.payload, html: v.payload, chapter: v.id, images: [{ n: v.id, alt: v.payload }] }));
  const book = bookDoc(300, ALL_PAYLOADS, [...pages, { title: ALL_PAYLOADS, html: ALL_PAYLOADS, chapter: 999 }], { description: ALL_PAYLOADS });
  const bookPages = book.book!.pages;
  book.book = { chapters: book.book!.chapters.map((chapter, i) => ({ ...chapter, title: V[i]?.payload ?? ALL_PAYLOADS })), pages: bookPages };
  const allAtOnce = bookPages.at(-1)!;

  it('the contents: every chapter and page title (one each per vector) and "Continue reading" are text', async () => {
    show([book, keptState(book, { reading: { page_id: allAtOnce.id, at: '2026-03-20T09:00:00.000Z' } } as Partial<DocumentStateDoc>)]);
    renderApp(`/documents/${book.id}`);
    await shown('.book-contents__chapter-title');
    expect(
      await sweepScreen(marker, main(), [
        ...header('book'),
        { field: 'chapter title (contents)', selector: '.book-contents__chapter-title', vectors: V },
        { field: 'page title (contents)', selector: '.book-contents__pages a', vectors: V },
        { field: 'page title (Continue reading)', selector: '.actions a', vectors: V },
      ]),
    ).toEqual(clean);
  });

  it('every page (one per vector, then all at once): the sanitised HTML runs nothing; titles are text; text-only vectors stay text', async () => {
    show([book, keptState(book)]);
    const { router } = renderApp(`/documents/${book.id}/page/${bookPages[0]!.id}`);
    await shown('article.book-page__article');
    const problems: string[] = [];
    const ALLOWED = new Set(['p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'strong', 'b', 'em', 'i', 'u', 's', 'small', 'sub', 'sup', 'mark', 'ul', 'ol', 'li', 'blockquote', 'code', 'pre', 'span', 'div', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption', 'abbr', 'a']);
    for (const [index, page] of bookPages.entries()) {
      if (index > 0) await act(() => router.navigate(`/documents/${book.id}/page/${page.id}`));
      // (Not a role query: those read the whole page, and this runs a hundred times.)
      const article = document.querySelector('article.book-page__article')!;
      const vectors = index < V.length ? [V[index]!] : V;
      if (!article.querySelector('h1')?.textContent?.includes(vectors[0]!.payload.split('\n')[0]!.trim())) problems.push(`page ${index}: not shown yet`);
      fireHandlers(article);
      await settle(0);
      const text = article.querySelector('.book-page__text')!;
      for (const element of text.querySelectorAll('*')) {
        if (!ALLOWED.has(element.localName)) problems.push(`page ${index}: <${element.localName}> in the page's words`);
        for (const name of element.getAttributeNames()) if (!['href', 'title', 'start', 'colspan', 'rowspan', 'scope', 'target', 'rel'].includes(name)) problems.push(`page ${index}: <${element.localName} ${name}>`);
      }
      problems.push(...xssFindings(article).map((f) => `page ${index}: ${f}`));
      problems.push(...missingAsText([article.querySelector('h1')!], vectors).map((m) => `page ${index} title: ${m}`));
      problems.push(...missingAsText([article.querySelector('.book-page__chapter')!], index < V.length ? vectors : []).map((m) => `page ${index} chapter: ${m}`));
      // Alone on a page, a vector that is not markup stays as its text (character references decoded
      // once, as HTML means them). All at once, the raw-text elements the sanitiser drops take
      // what follows them along, so only the single pages are read for words.
      if (vectors.length === 1 && !vectors[0]!.live && !/<[a-z!/]/i.test(vectors[0]!.payload)) {
        const decoded = document.createElement('template');
        decoded.innerHTML = vectors[0]!.payload;
        problems.push(...missingAsText([text], [{ ...vectors[0]!, payload: decoded.content.textContent ?? '' }]).map((m) => `page ${index} words: ${m}`));
      }
    }
    expect(problems).toEqual([]);
    fireHandlers(document.body);
    await settle();
    expect(xssFindings(document.body)).toEqual([]);
    expect(marker.calls).toEqual([]);
  });
});

describe('form documents', () => {
  const doc = formDoc(400, ALL_PAYLOADS, form.fields, { description: ALL_PAYLOADS });

  it('filling in: every question, heading, help, option, column and related form’s name is text, and the draft’s answers fill the fields as text', async () => {
    const fillDoc = formDoc(401, ALL_PAYLOADS, fillForm.fields, { description: ALL_PAYLOADS });
    expect(fillForm.fields.length).toBeLessThanOrEqual(100);
    fake.draft = { answers: fillForm.answers, files: [] };
    show([fillDoc, stateOf(fillDoc)]);
    renderApp(`/documents/${fillDoc.id}`);
    await shown('button', 'Send my answers');
    expect(await sweepScreen(marker, main(), [...header('form document'), ...formFillChecks('form (filling in)', V)])).toEqual(clean);
  });

  it('answers on their way: shown read-only as text', async () => {
    show([doc, stateOf(doc, { sync_state: 'pending', outgoing: { id: duuid(952), answers: form.answers, files: [], queued_at: '' } })]);
    renderApp(`/documents/${doc.id}`);
    await shown('#doc-form-waiting');
    expect(await sweepScreen(marker, main(), formViewChecks('form (on its way)', V))).toEqual(clean);
  });

  it('answers sent: the read-only copy is text', async () => {
    const sent: DocumentDoc = {
      ...doc,
      submission: {
        id: duuid(960),
        document_id: doc.id,
        resident_id: duuid(2),
        form_version_id: duuid(701),
        answers: form.answers,
        files: [],
        submitted_at: '2026-03-21T10:00:00.000000Z',
        creator: { id: duuid(1), first_name: 'Jamie', last_name: 'Smith', has_photo: false },
      },
    };
    show([sent, null]);
    renderApp(`/documents/${sent.id}`);
    await shown('#doc-form-sent');
    expect(await sweepScreen(marker, main(), formViewChecks('form (sent)', V))).toEqual(clean);
  });
});
