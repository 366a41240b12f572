import { act, fireEvent, screen, within } from '@testing-library/react';
import axe from 'axe-core';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DocumentFileView } from '@/data/documents/use-document-file';
import type { Live } from '@/data/hooks/use-live';
import type { DocumentFileRef, DocumentWithState } from '@/data/replica/documents';
import type { DocumentDoc, DocumentStateDoc } from '@/data/replica/types';
import { setAccount } from '@/data/session-store';
import { PAYLOADS } from '../../e2e/support/xss-payloads';
import { waitUntil } from '../support/wait';
import { makeAccount } from './support/account';
import { bookDoc, duuid, fileDoc, galleryDoc, keptState, stateOf } from './support/document-fixtures';
import { fakeFetch } from './support/fake-fetch';
import { renderApp } from './support/render-app';

/** What the replica "holds" and what the device can show (the data layer has its own tests, tests/data/documents-sync.test.ts). */
const fake = vi.hoisted(() => ({
  items: [] as { doc: unknown; state: unknown }[],
  loading: false,
  /** By file id: what useDocumentFile gives; default ready from the device. */
  views: new Map<string, unknown>(),
  keep: vi.fn(async (_id: string, _keep: boolean) => true),
  freeAll: vi.fn(async () => true),
  opened: vi.fn(async (_doc: unknown) => undefined),
  page: vi.fn(async (_id: string, _page: string) => undefined),
  /** The fake pdf.js: pages' text, and what was asked of it. */
  pdfPages: ['First page words', 'Second page words', 'Third page words'],
  rendered: [] as { page: number; scale: number }[],
}));

vi.mock('@/features/documents/hooks/use-documents', async () => {
  const { useSyncExternalStore } = await import('react');
  const listeners = new Set<() => void>();
  (globalThis as { __docs?: () => void }).__docs = () => listeners.forEach((l) => l());
  const subscribe = (l: () => void) => {
    listeners.add(l);
    return () => listeners.delete(l);
  };
  return {
    useDocuments: (): Live<DocumentWithState[]> => {
      const items = useSyncExternalStore(subscribe, () => fake.items) as DocumentWithState[];
      return { data: items, loading: fake.loading };
    },
    useDocument: (id: string): Live<DocumentWithState | null> => {
      const items = useSyncExternalStore(subscribe, () => fake.items) as DocumentWithState[];
      return { data: items.find((item) => item.doc.id === id) ?? null, loading: fake.loading };
    },
  };
});
vi.mock('@/data/documents/use-document-file', () => ({
  useDocumentFile: (_documentId: string, file: DocumentFileRef | null): DocumentFileView => {
    if (!file) return { status: 'missing' };
    const view = fake.views.get(file.id) as DocumentFileView | undefined;
    return view ?? { status: 'ready', url: `blob:fake/${file.id}`, blob: new Blob(['bytes'], { type: file.mime }), source: 'kept' };
  },
}));
vi.mock('@/features/documents/actions/keep-offline', () => ({ keepOffline: fake.keep, freeAllDocuments: fake.freeAll }));
vi.mock('@/features/documents/actions/remember', () => ({ rememberOpened: fake.opened, rememberPage: fake.page }));
vi.mock('@/data/hooks/use-form-names', () => ({ useFormNames: () => [] }));
vi.mock('@/features/documents/pdf/load-pdf-engine', () => ({
  loadPdfEngine: async () => fakeEngine,
}));
const fakeEngine = vi.hoisted(() => ({
  isRenderCancelled: () => false,
  openPdf: async () => ({
    pageCount: fake.pdfPages.length,
    pageSize: async () => ({ width: 600, height: 800 }),
    render: async (page: number, target: { textLayer: HTMLElement; scale: number }) => {
      fake.rendered.push({ page, scale: target.scale });
      target.textLayer.replaceChildren(Object.assign(document.createElement('span'), { textContent: fake.pdfPages[page - 1] ?? '' }));
      return { width: 600 * target.scale, height: 800 * target.scale };
    },
    destroy: async () => undefined,
  }),
}));

function setItems(items: { doc: DocumentDoc; state: DocumentStateDoc | null }[]) {
  fake.items = items;
  (globalThis as { __docs?: () => void }).__docs?.();
}

async function axeViolations(container: HTMLElement) {
  // jsdom has no layout or computed colours, so contrast cannot be judged here; e2e checks it in Chromium.
  const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

// jsdom has no PointerEvent: a MouseEvent with the pointer's fields stands in for swipes.
if (typeof window.PointerEvent === 'undefined') {
  class PointerEventShim extends MouseEvent {
    readonly pointerId: number;
    readonly pointerType: string;
    readonly isPrimary: boolean;
    constructor(type: string, init: PointerEventInit = {}) {
      super(type, init);
      this.pointerId = init.pointerId ?? 1;
      this.pointerType = init.pointerType ?? 'mouse';
      this.isPrimary = init.isPrimary ?? true;
    }
  }
  window.PointerEvent = PointerEventShim as unknown as typeof PointerEvent;
}

let online = true;
beforeEach(() => {
  online = true;
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
  fake.items = [];
  fake.loading = false;
  fake.views = new Map();
  fake.rendered = [];
  for (const fn of [fake.keep, fake.freeAll, fake.opened, fake.page]) fn.mockClear();
  fakeFetch();
  setAccount(makeAccount());
});

// The demo's shapes.
const rules = fileDoc(1, 'House rules', 'application/pdf', 12_400, { category: 'House information', description: 'The rules we agreed at the house meeting.' });
const waves = fileDoc(2, 'Waves at Whitby', 'video/webm', 5_800, { category: 'Trips', description: 'The sea from the pier.' });
const book = bookDoc(
  3,
  'Welcome to Willow House',
  [
    { title: 'Hello!', chapter: 1, html: '<h2>Welcome</h2><p>Willow House is a home for <strong>four</strong> young people.</p>', images: [{ n: 1, alt: 'A red-brick house' }] },
    { title: 'Your room', chapter: 1, html: '<p>Your room is <em>yours</em>.</p>' },
    { title: 'Meals', chapter: 2, html: '<p>We eat together at 5:30.</p><p><a href="https://www.childline.org.uk/">Childline</a></p>' },
  ],
  { category: 'House information', version: 2 },
);
const trip = galleryDoc(
  4,
  'Trip to the seaside',
  [
    { n: 1, kind: 'image', caption: 'The beach at Whitby' },
    { n: 2, kind: 'image', caption: 'A sandcastle with a flag' },
    { n: 3, kind: 'video', caption: 'The waves coming in' },
  ],
  { category: 'Trips' },
);
const note = fileDoc(5, 'Wi-Fi note', 'text/plain', 120, { category: 'House information', description: 'The games-room Wi-Fi.' });
const photo = fileDoc(6, 'Our garden', 'image/png', 40_000, { category: 'Trips' });
const song = fileDoc(7, 'House song', 'audio/mpeg', 900_000, { category: 'Trips' });
const big = fileDoc(8, 'Long film', 'video/mp4', 18_000_000, { category: 'Trips' });

describe('/documents', () => {
  beforeEach(() => {
    setItems([
      { doc: rules, state: keptState(rules, { opened_version: 1 }) },
      { doc: waves, state: keptState(waves) },
      { doc: book, state: keptState(book, { opened_version: 1 }) },
      { doc: trip, state: stateOf(trip, { kept: { version: 1, blobs: [{ id: trip.gallery!.items[0]!.id, mime: 'image/png', size: 3_000, chunks: 1, stored: 3_000 }], complete: false, bytes: 3_000, at: '' } }) },
      { doc: big, state: null },
    ]);
  });

  it('lists by category with what each is, its size, New or Updated in words, and whether it is on this device; the space kept documents use', async () => {
    const { container } = renderApp('/documents');
    await waitUntil(() => expect(document.title).toBe('Hearth - Documents'));
    const categories = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(categories).toEqual(['House information', 'Trips', 'Space on this device']);
    const house = screen.getByRole('region', { name: 'House information' });
    expect(within(house).getAllByRole('article').map((a) => within(a).getByRole('link').textContent)).toEqual(['Welcome to Willow House', 'House rules']);

    const rulesItem = screen.getByRole('article', { name: 'House rules' });
    expect(rulesItem.textContent).toContain('PDF');
    expect(rulesItem.textContent).toContain('12.4 KB');
    expect(rulesItem.textContent).toContain('✓ Saved on this device (12.4 KB)');
    expect(within(rulesItem).queryByText('New')).toBeNull(); // opened at its version
    expect(within(screen.getByRole('article', { name: /Welcome to Willow House/ })).getByText('Updated')).toBeTruthy();
    expect(within(screen.getByRole('article', { name: /Waves at Whitby/ })).getByText('New')).toBeTruthy();
    expect(screen.getByRole('article', { name: /Trip to the seaside/ }).textContent).toContain('Saving on this device… 33%');
    const film = screen.getByRole('article', { name: /Long film/ });
    expect(film.textContent).toContain('18 MB');
    expect(film.textContent).toContain('Not saved on this device');
    expect(within(film).getByRole('switch', { name: 'Keep offline: Long film' })).toHaveProperty('checked', false);
    expect(within(rulesItem).getByRole('switch', { name: 'Keep offline: House rules' })).toHaveProperty('checked', true);

    const space = screen.getByRole('region', { name: 'Space on this device' });
    expect(space.textContent).toContain(`Documents saved on this device use 23.2 KB (4 documents).`);
    expect(await axeViolations(container)).toEqual([]);
  });

  it('searches titles and descriptions on the device; says when nothing matches', async () => {
    const { user } = renderApp('/documents');
    const search = await screen.findByRole('searchbox', { name: 'Search documents' });
    await user.type(search, 'PIER');
    expect(screen.getAllByRole('article').map((a) => within(a).getByRole('link').textContent)).toEqual(['Waves at Whitby']);
    expect(document.querySelector('.documents__count')?.textContent).toBe('1 document matches “PIER”.');
    await user.clear(search);
    await user.type(search, 'rules house');
    expect(screen.getAllByRole('article').map((a) => within(a).getByRole('link').textContent)).toEqual(['House rules']);
    await user.clear(search);
    await user.type(search, 'xylophone');
    expect(screen.queryAllByRole('article')).toEqual([]);
    expect(screen.getByText('No documents match “xylophone”.')).toBeTruthy();
  });

  it('Keep offline switches with the keyboard; Free all asks first, then frees', async () => {
    const { user } = renderApp('/documents');
    const keepFilm = await screen.findByRole('switch', { name: 'Keep offline: Long film' });
    keepFilm.focus();
    await user.keyboard(' ');
    expect(fake.keep).toHaveBeenCalledWith(big.id, true);
    // On at once, busy until the replica has it (this fake replica never does); never springing back.
    expect(keepFilm).toHaveProperty('checked', true);
    expect(keepFilm.getAttribute('aria-busy')).toBe('true');
    const keepRules = screen.getByRole('switch', { name: 'Keep offline: House rules' });
    keepRules.focus();
    await user.keyboard(' ');
    expect(fake.keep).toHaveBeenCalledWith(rules.id, false);

    await user.click(screen.getByRole('button', { name: 'Free all' }));
    const dialog = screen.getByRole('dialog', { name: 'Free 23.2 KB?' });
    expect(dialog.textContent).toContain('Keep offline is turned off for each');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fake.freeAll).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Free all' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Free all' }));
    expect(fake.freeAll).toHaveBeenCalledTimes(1);
  });

  it('a Keep offline choice the device could not store springs back', async () => {
    fake.keep.mockResolvedValueOnce(false);
    const { user } = renderApp('/documents');
    const keepFilm = await screen.findByRole('switch', { name: 'Keep offline: Long film' });
    await user.click(keepFilm);
    await waitUntil(() => expect(keepFilm).toHaveProperty('checked', false));
    expect(keepFilm.getAttribute('aria-busy')).toBeNull();
  });

  it('works offline: the list is there (no "You need to be online")', async () => {
    online = false;
    renderApp('/documents');
    expect(await screen.findByRole('article', { name: 'House rules' })).toBeTruthy();
    expect(screen.queryByText('You need to be online for this page')).toBeNull();
  });

  it('an empty list says so', async () => {
    setItems([]);
    renderApp('/documents');
    expect(await screen.findByRole('heading', { name: 'No documents yet.' })).toBeTruthy();
  });
});

describe('file viewers', () => {
  it('PDF: pages and zoom with the keyboard alone, the page text readable; opening it marks it seen', async () => {
    setItems([{ doc: rules, state: keptState(rules) }]);
    const { user, container } = renderApp(`/documents/${rules.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'House rules' })).toBeTruthy();
    await waitUntil(() => expect(document.title).toBe('Hearth - Document'));
    await waitUntil(() => expect(screen.getByText('Page 1 of 3')).toBeTruthy());
    const frame = screen.getByRole('region', { name: /House rules, page 1 of 3/ });
    await waitUntil(() => expect(within(frame).getByText('First page words')).toBeTruthy());
    expect(fake.opened).toHaveBeenCalledWith({ id: rules.id, version: 1 });

    // Tab to Next page and press Enter.
    const next = screen.getByRole('button', { name: 'Next page' });
    while (document.activeElement !== next) await user.tab();
    await user.keyboard('{Enter}');
    await waitUntil(() => expect(within(frame).getByText('Second page words')).toBeTruthy());
    expect(screen.getByText('Page 2 of 3')).toBeTruthy();
    // On the page itself: Page Down, End, Home, + and -.
    frame.focus();
    await user.keyboard('{PageDown}');
    await waitUntil(() => expect(within(frame).getByText('Third page words')).toBeTruthy());
    await user.keyboard('{Home}');
    await waitUntil(() => expect(screen.getByText('Page 1 of 3')).toBeTruthy());
    await user.keyboard('+');
    expect(screen.getByText('125%')).toBeTruthy();
    await user.keyboard('-{-}');
    expect(screen.getByText('75%')).toBeTruthy();
    await waitUntil(() => expect(fake.rendered.at(-1)?.scale).toBeLessThan(fake.rendered.find((r) => r.page === 1)!.scale));
    expect(await axeViolations(container)).toEqual([]);
  });

  it('a document that is not kept, offline, says so plainly', async () => {
    fake.views.set(big.file!.id, { status: 'offline' });
    online = false;
    setItems([{ doc: big, state: null }]);
    renderApp(`/documents/${big.id}`);
    expect(
      await screen.findByText("This document isn't saved on this device. Connect to the internet to open it, or turn on Keep offline next time."),
    ).toBeTruthy();
  });

  it('a picture zooms with buttons and keys', async () => {
    setItems([{ doc: photo, state: keptState(photo) }]);
    const { user, container } = renderApp(`/documents/${photo.id}`);
    const img = await screen.findByRole('img', { name: 'Our garden' });
    expect(img.getAttribute('src')).toBe(`blob:fake/${photo.file!.id}`);
    await user.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(img.style.width).toBe('150%');
    const frame = screen.getByRole('group', { name: /Our garden, picture/ });
    frame.focus();
    await user.keyboard('+');
    expect(img.style.width).toBe('200%');
    await user.keyboard('0');
    expect(img.style.width).toBe('100%');
    expect(await axeViolations(container)).toEqual([]);
  });

  it('video and audio play with native controls; text shows as text, never as markup', async () => {
    fake.views.set(waves.file!.id, { status: 'ready', url: '/api/v1/documents/x/blob', blob: null, source: 'stream' });
    setItems([
      { doc: waves, state: null },
      { doc: song, state: null },
      { doc: note, state: keptState(note) },
    ]);
    const video = renderApp(`/documents/${waves.id}`);
    const player = await waitUntil(() => {
      const found = video.container.querySelector('video');
      expect(found).not.toBeNull();
      return found!;
    });
    expect(player.hasAttribute('controls')).toBe(true);
    expect(player.getAttribute('src')).toBe('/api/v1/documents/x/blob');
    expect(player.getAttribute('aria-label')).toBe('Waves at Whitby');
    expect(await axeViolations(video.container)).toEqual([]);
    video.unmount();

    const audio = renderApp(`/documents/${song.id}`);
    await waitUntil(() => expect(audio.container.querySelector('audio[controls]')).not.toBeNull());
    expect(await axeViolations(audio.container)).toEqual([]);
    audio.unmount();

    fake.views.set(note.file!.id, { status: 'ready', url: 'blob:x', blob: new Blob(['Network: <b onmouseover="x()">Guest</b>\nSecond line']), source: 'kept' });
    const text = renderApp(`/documents/${note.id}`);
    const pre = await screen.findByLabelText('Text of Wi-Fi note');
    expect(pre.textContent).toBe('Network: <b onmouseover="x()">Guest</b>\nSecond line');
    expect(pre.querySelector('b')).toBeNull();
    expect(await axeViolations(text.container)).toEqual([]);
  });
});

describe('books', () => {
  it('the contents lists chapters and pages and continues where the young person stopped', async () => {
    setItems([{ doc: book, state: keptState(book, { reading: { page_id: book.book!.pages[2]!.id, at: '' } }) }]);
    const { container, user, router } = renderApp(`/documents/${book.id}`);
    const contents = await screen.findByRole('navigation', { name: 'Contents' });
    expect(within(contents).getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Chapter 1', 'Chapter 2']);
    expect(within(contents).getAllByRole('link').map((a) => a.textContent)).toEqual(['Hello!', 'Your room', 'Meals']);
    expect(within(contents).getByRole('link', { name: 'Meals' }).getAttribute('aria-current')).toBe('location');
    expect(await axeViolations(container)).toEqual([]);
    await user.click(screen.getByRole('link', { name: 'Continue reading: Meals' }));
    await waitUntil(() => expect(router.state.location.pathname).toBe(`/documents/${book.id}/page/${book.book!.pages[2]!.id}`));
  });

  it('a page: chapter, title, words and pictures with their descriptions; arrows and swipes turn it; it is remembered', async () => {
    setItems([{ doc: book, state: keptState(book) }]);
    const [hello, room] = book.book!.pages;
    const { container, user, router } = renderApp(`/documents/${book.id}/page/${hello!.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Hello!' })).toBeTruthy();
    await waitUntil(() => expect(document.title).toBe('Hearth - Book page'));
    expect(screen.getByText('Chapter 1')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Welcome' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'A red-brick house' }).getAttribute('src')).toBe(`blob:fake/${hello!.images[0]!.id}`);
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
    await waitUntil(() => expect(fake.page).toHaveBeenCalledWith(book.id, hello!.id));
    expect(await axeViolations(container)).toEqual([]);

    await user.keyboard('{ArrowRight}');
    await waitUntil(() => expect(router.state.location.pathname).toBe(`/documents/${book.id}/page/${room!.id}`));
    expect(await screen.findByRole('heading', { level: 1, name: 'Your room' })).toBeTruthy();
    await waitUntil(() => expect(fake.page).toHaveBeenCalledWith(book.id, room!.id));
    await user.keyboard('{ArrowLeft}');
    await waitUntil(() => expect(router.state.location.pathname).toBe(`/documents/${book.id}/page/${hello!.id}`));

    // A swipe to the left is "next".
    const article = await screen.findByRole('article', { name: 'Hello!' });
    fireEvent.pointerDown(article, { pointerId: 1, pointerType: 'touch', isPrimary: true, clientX: 300, clientY: 200 });
    fireEvent.pointerUp(article, { pointerId: 1, pointerType: 'touch', isPrimary: true, clientX: 120, clientY: 210 });
    await waitUntil(() => expect(router.state.location.pathname).toBe(`/documents/${book.id}/page/${room!.id}`));
    // A link to another site opens in a new tab without telling it where from.
    await user.click(screen.getByRole('link', { name: /Next/ }));
    const link = await screen.findByRole('link', { name: 'Childline' });
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(screen.getByRole('link', { name: 'Back to the contents' })).toBeTruthy();
  });

  it.each(Object.entries(PAYLOADS))('page HTML with the %s XSS payload renders inert', async (_name, payload) => {
    const hostile = bookDoc(20, 'Hostile book', [{ title: 'Trap', chapter: 1, html: `<p>Before</p>${payload}<style>body{display:none}</style><p style="color:red" onclick="window.__xss=9">After</p>` }]);
    setItems([{ doc: hostile, state: keptState(hostile) }]);
    delete (window as { __xss?: unknown }).__xss;
    const alerts = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const { container } = renderApp(`/documents/${hostile.id}/page/${hostile.book!.pages[0]!.id}`);
    await screen.findByRole('heading', { level: 1, name: 'Trap' });
    const text = container.querySelector('.book-page__text')!;
    expect(text.textContent).toContain('Before');
    expect(text.textContent).toContain('After');
    expect([...container.querySelectorAll('script, style, iframe, object, embed, [data-xss]')].map((e) => e.outerHTML.slice(0, 80))).toEqual([]);
    expect([...text.querySelectorAll('img, svg, math, video')].map((e) => e.outerHTML.slice(0, 80))).toEqual([]);
    for (const element of container.querySelectorAll('*')) {
      for (const name of element.getAttributeNames()) expect(name.startsWith('on'), `<${element.localName} ${name}>`).toBe(false);
    }
    expect(text.querySelectorAll('[style]')).toHaveLength(0);
    expect([...text.querySelectorAll('a')].every((a) => !(a.getAttribute('href') ?? '').toLowerCase().startsWith('javascript:'))).toBe(true);
    expect((window as { __xss?: unknown }).__xss).toBeUndefined();
    expect(alerts).not.toHaveBeenCalled();
  });
});

describe('galleries', () => {
  it('a grid with captions; the full-screen viewer with captions, arrows, Escape, and the focus back where it was', async () => {
    setItems([{ doc: trip, state: keptState(trip) }]);
    const { user, container } = renderApp(`/documents/${trip.id}`);
    const grid = await screen.findByRole('list', { name: 'Pictures and videos' });
    const buttons = within(grid).getAllByRole('button');
    expect(buttons.map((b) => b.textContent)).toEqual(['Picture 1 of 3: The beach at Whitby', 'Picture 2 of 3: A sandcastle with a flag', '▶Video 3 of 3: The waves coming in (video)']);
    expect(await axeViolations(container)).toEqual([]);

    buttons[0]!.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Picture 1 of 3' });
    expect(within(dialog).getByRole('img', { name: 'The beach at Whitby' })).toBeTruthy();
    expect(within(dialog).getByText('The beach at Whitby', { selector: 'figcaption' })).toBeTruthy();
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Close' }));
    expect(await axeViolations(container)).toEqual([]);

    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('dialog', { name: 'Picture 2 of 3' })).toBeTruthy();
    await user.keyboard('{ArrowRight}');
    const third = screen.getByRole('dialog', { name: 'Video 3 of 3' });
    expect(third.querySelector('video[controls]')).not.toBeNull();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('dialog', { name: 'Picture 2 of 3' })).toBeTruthy();
    // A swipe to the left shows the next one.
    const figure = screen.getByRole('dialog').querySelector('figure')!;
    act(() => {
      fireEvent.pointerDown(figure, { pointerId: 2, pointerType: 'touch', isPrimary: true, clientX: 300, clientY: 200 });
      fireEvent.pointerUp(figure, { pointerId: 2, pointerType: 'touch', isPrimary: true, clientX: 100, clientY: 200 });
    });
    expect(screen.getByRole('dialog', { name: 'Video 3 of 3' })).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(buttons[2]);
  });

  it('offline and not kept: the grid says so, the captions stay', async () => {
    online = false;
    for (const item of trip.gallery!.items) fake.views.set(item.id, { status: 'offline' });
    setItems([{ doc: trip, state: stateOf(trip, { keep: false }) }]);
    renderApp(`/documents/${trip.id}`);
    expect(await screen.findByText("This document isn't saved on this device. Connect to the internet to open it, or turn on Keep offline next time.")).toBeTruthy();
    expect(screen.getByText('The beach at Whitby')).toBeTruthy();
  });
});

describe('unknown documents', () => {
  it('a document that is not here (withdrawn) says so, with the way back', async () => {
    setItems([]);
    renderApp(`/documents/${duuid(99)}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'We can’t find this document.' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'All documents' }).getAttribute('href')).toBe('/documents');
  });
});
