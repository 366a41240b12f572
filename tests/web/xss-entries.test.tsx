import { act, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { entryMessages } from '@/contract/entries';
import type { StaffDoc } from '@/data/replica/types';
import { setAccount } from '@/data/session-store';
import { ALL_PAYLOADS, XSS_VECTORS } from '../support/xss-vectors';
import { makeAccount } from './support/account';
import { comment, emojis, journalEntry, ME, voiceEntry } from './support/entry-fixtures';
import { fakeFetch } from './support/fake-fetch';
import { fakeReplica } from './support/fake-replica';
import { renderApp } from './support/render-app';
import { checksMade, installMarker, shown, sweepScreen } from './support/xss-scan';

/**
 * Issue 12's XSS sweep, journal and voice: every vector of tests/support/xss-vectors.ts in every
 * field a young person or staff write there, on every screen that shows it (lists, threads, the
 * write and edit forms, the success page), through the real routes and providers with the fake
 * replica of the other screen tests. A list holds one item per vector; a single-value field (an
 * edit form's text, a heading) holds all of them at once, one per line.
 */
vi.mock('@/entries/hooks/use-entries', async () => {
  const { entryHooks } = await import('./support/fake-replica');
  return { ...entryHooks, useJournalReactions: () => ({ data: [], loading: false }) };
});
vi.mock('@/entries/hooks/use-comments', async () => {
  const { entryHooks } = await import('./support/fake-replica');
  return { useComments: entryHooks.useComments };
});
const hostile = vi.hoisted(() => ({ staff: [] as unknown[] }));
vi.mock('@/data/hooks/use-associated-users', () => ({ useAssociatedUsers: () => ({ data: hostile.staff, loading: false }) }));
vi.mock('@/data/hooks/use-resident-details', () => ({ useResidentDetails: () => ({ data: { key_worker: hostile.staff[0] ?? null }, loading: false }) }));
vi.mock('@/entries/hooks/use-entry-file', () => ({ useEntryFile: () => null }));
vi.mock('@/data/hooks/use-user-photo', () => ({ useUserPhoto: () => null }));
const actions = vi.hoisted(() => ({ save: vi.fn() }));
vi.mock('@/features/voice/actions/save-voice-entry', () => ({ saveVoiceEntry: actions.save }));
vi.mock('@/features/journal/actions/save-journal-entry', () => ({ saveJournalEntry: actions.save }));

const V = XSS_VECTORS;
const id = (prefix: string, n: number) => `${prefix}0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const files = (n: number) => V.map((v) => ({ id: id('f', n * 1000 + v.id), name: v.payload, mime: 'application/pdf', size: 10 }));

/** Staff as the young person sees them: one per vector, the vector as first name and as job title. */
const STAFF: StaffDoc[] = V.map((v) => ({
  id: id('a', v.id),
  first_name: v.payload,
  last_name: 'Staff',
  job_title: v.payload,
  has_photo: false,
  updated_at: '2026-01-01T00:00:00.000Z',
  sync_state: 'synced',
  sync_message: null,
  sync_outbox_id: null,
}));
/** Voice categories staff name and describe: one per vector. */
const CATEGORIES = V.map((v) => ({ id: id('c', v.id), name: v.payload, description: v.payload, updated_at: '2026-01-01T00:00:00.000Z' }));

let marker: ReturnType<typeof installMarker>;
beforeEach(() => {
  if (typeof globalThis.CSS?.escape !== 'function') {
    Object.assign((globalThis.CSS ??= {} as typeof CSS), { escape: (value: string) => value.replace(/([^\w-])/g, '\\$1') });
  }
  marker = installMarker();
  actions.save.mockReset().mockResolvedValue({ ok: true, id: 'new-entry', queuedOffline: false });
  hostile.staff = STAFF;
  fakeReplica.reset();
  fakeReplica.set({ categories: CATEGORIES, emojis: emojis() });
  fakeFetch();
  setAccount(makeAccount());
});
afterEach(() => marker.remove());
afterAll(() => console.info(`xss-entries: ${checksMade()} vector × field × screen checks`));

const clean = { ran: [], injected: [], notShownAsText: [] };
const main = () => document.querySelector('main')!;

describe('journal', () => {
  it('/journal/entries: every entry’s words (one entry per vector) are text', async () => {
    fakeReplica.set({ journalEntries: V.map((v) => journalEntry({ id: id('e', v.id), description: v.payload })) });
    renderApp('/journal/entries');
    await shown('ul.journal__list');
    expect(await sweepScreen(marker, main(), [{ field: 'journal entry excerpt', selector: '.journal-card__text', vectors: V, max: 200 }])).toEqual(clean);
  });

  it('/journal/entries: an edit conflict shows both versions’ words (one conflict per vector) as text', async () => {
    fakeReplica.set({
      journalEntries: V.map((v) => {
        const other = journalEntry({ id: id('e', v.id), description: v.payload, reaction: v.payload, updated_at: '2026-03-02T09:00:00.000000Z' });
        return journalEntry({ id: id('e', v.id), description: v.payload, sync_state: 'failed', sync_message: entryMessages.editConflict, sync_server: { ...other } });
      }),
    });
    renderApp('/journal/entries');
    await shown('.conflict-version');
    expect(
      await sweepScreen(marker, main(), [
        { field: 'conflict: my version', selector: '.conflict-version:first-child .thread__text', vectors: V },
        { field: 'conflict: the other version', selector: '.conflict-version:last-child .thread__text', vectors: V },
        { field: 'conflict: the other version’s feeling', selector: '.conflict-version:last-child .small-print', vectors: V },
      ]),
    ).toEqual(clean);
  });

  it('/journal: the staff to share with (name and job title, one member of staff per vector) are text', async () => {
    renderApp('/journal');
    await shown('.entry-form__sharing');
    expect(
      await sweepScreen(marker, main(), [
        { field: 'staff name', selector: '.entry-form__sharing .entry-form__option-name', vectors: V },
        { field: 'staff job title', selector: '.entry-form__sharing .entry-form__option-text', vectors: V },
      ]),
    ).toEqual(clean);
  });

  it('/journal/edit/{id}: the stored words fill the field as text; the files’ names and the sharing summary are text', async () => {
    const entry = journalEntry({ id: id('e', 1), description: ALL_PAYLOADS, shared_with: STAFF.map((s) => s.id), files: files(1) });
    fakeReplica.set({ journalEntries: [entry] });
    renderApp(`/journal/edit/${entry.id}`);
    const words = (await shown('main textarea')) as HTMLTextAreaElement;
    expect(words.value).toBe(ALL_PAYLOADS);
    expect(
      await sweepScreen(marker, main(), [
        { field: 'journal entry (edit field)', selector: 'textarea', vectors: V },
        { field: 'attachment name (edit)', selector: '.file-attach__name', vectors: V },
        { field: 'sharing summary', selector: `[id$="-summary"]`, vectors: V },
        { field: 'staff name (edit)', selector: '.entry-form__sharing .entry-form__option-name', vectors: V },
      ]),
    ).toEqual(clean);
  });

  it('/entries/comments/{id}: the entry, its files, staff and own comments, names, reactions and files are text; editing one’s own reply shows it as text', async () => {
    const entry = journalEntry({ id: id('e', 2), description: ALL_PAYLOADS, files: files(2) });
    const staffComments = V.map((v, i) =>
      comment({ id: id('d', v.id), entry_id: entry.id, entry_type: 'journal', comment: v.payload, reaction: v.payload, creator: { id: STAFF[i]!.id, first_name: v.payload, last_name: 'Staff', has_photo: false }, files: [{ id: id('b', v.id), name: v.payload, mime: 'text/plain', size: 10 }] }),
    );
    const mine = comment({ id: id('d', 999), entry_id: entry.id, entry_type: 'journal', comment: ALL_PAYLOADS, creator: { id: ME, first_name: 'Samuel', last_name: 'Jones', has_photo: false }, created_at: '2026-03-09T10:00:00.000Z' });
    fakeReplica.set({ journalEntries: [entry], comments: [...staffComments, mine] });
    const { user } = renderApp(`/entries/comments/${entry.id}`);
    await shown('.thread__list');
    expect(
      await sweepScreen(marker, main(), [
        { field: 'journal entry (thread)', selector: '.thread__entry .thread__text', vectors: V },
        { field: 'journal entry attachment name', selector: '.thread__entry .attachments', vectors: V },
        { field: 'staff comment', selector: '.thread__comment:not(.thread__comment--mine) .thread__text', vectors: V },
        { field: 'staff name on a comment', selector: '.thread__comment:not(.thread__comment--mine) .thread__name', vectors: V },
        { field: 'comment reaction', selector: '.thread__reaction', vectors: V },
        { field: 'comment attachment name', selector: '.thread__list .attachments', vectors: V },
        { field: 'own reply', selector: '.thread__comment--mine .thread__text', vectors: V },
      ]),
    ).toEqual(clean);

    await user.click(main().querySelector<HTMLButtonElement>('.thread__comment--mine .thread__edit')!);
    const field = (await shown('.thread__comment--mine textarea')) as HTMLTextAreaElement;
    expect(field.value).toBe(ALL_PAYLOADS);
    expect(await sweepScreen(marker, main(), [{ field: 'own reply (edit field)', selector: '.thread__comment--mine textarea', vectors: V }])).toEqual(clean);
  });
});

describe('voice', () => {
  it('/voice: the categories staff named and described (one per vector) are text, and so is the form of a chosen one', async () => {
    const { user } = renderApp('/voice');
    await shown('.voice-choice__name');
    expect(
      await sweepScreen(marker, main(), [
        { field: 'voice category name', selector: '.voice-choice__name', vectors: V },
        { field: 'voice category description', selector: '.voice-choice__description', vectors: V },
      ]),
    ).toEqual(clean);

    await user.click(main().querySelector<HTMLButtonElement>('.voice-choice')!);
    await shown('#voice-write-title');
    await shown('.entry-form__sharing');
    expect(
      await sweepScreen(marker, main(), [
        { field: 'chosen category name', selector: '#voice-write-title', vectors: [V[0]!] },
        { field: 'chosen category description', selector: '.lead', vectors: [V[0]!] },
        { field: 'category name in the form', selector: '.entry-form__option-name', vectors: V },
        { field: 'category description in the form', selector: '.entry-form__option-text', vectors: V },
        { field: 'staff name in the voice form', selector: '.entry-form__sharing .entry-form__option-name', vectors: V },
        { field: 'sharing summary (key worker)', selector: '[id$="-summary"]', vectors: [V[0]!] },
      ]),
    ).toEqual(clean);
  });

  it('/voice/entries: every message’s words and every category heading (one per vector) are text', async () => {
    fakeReplica.set({ voiceEntries: V.map((v) => voiceEntry({ id: id('e', v.id), description: v.payload, category_id: CATEGORIES[v.id - 1]!.id })) });
    renderApp('/voice/entries');
    await shown('.voice-item__excerpt');
    // A page at a time: every vector is on screen once "Load more" has brought the rest.
    for (let more = screen.queryByRole('button', { name: 'Load more' }); more; more = screen.queryByRole('button', { name: 'Load more' })) {
      const before = document.querySelectorAll('.voice-item__excerpt').length;
      act(() => more!.click());
      await waitFor(() => expect(document.querySelectorAll('.voice-item__excerpt').length).toBeGreaterThan(before));
    }
    expect(document.querySelectorAll('.voice-item__excerpt')).toHaveLength(V.length);
    expect(
      await sweepScreen(marker, main(), [
        { field: 'voice message excerpt', selector: '.voice-item__excerpt', vectors: V, max: 140 },
        { field: 'category heading', selector: 'h2.section-title', vectors: V },
      ]),
    ).toEqual(clean);
  });

  it('/voice/edit/{id}: the stored words fill the field as text; categories, staff and files are text', async () => {
    const entry = voiceEntry({ id: id('e', 3), description: ALL_PAYLOADS, category_id: CATEGORIES[0]!.id, shared_with: STAFF.map((s) => s.id), files: files(3) });
    fakeReplica.set({ voiceEntries: [entry] });
    renderApp(`/voice/edit/${entry.id}`);
    const words = (await shown('main textarea')) as HTMLTextAreaElement;
    expect(words.value).toBe(ALL_PAYLOADS);
    expect(
      await sweepScreen(marker, main(), [
        { field: 'voice message (edit field)', selector: 'textarea', vectors: V },
        { field: 'category name (edit)', selector: '.entry-form__option-name', vectors: V },
        { field: 'attachment name (voice edit)', selector: '.file-attach__name', vectors: V },
        { field: 'sharing summary (voice edit)', selector: '[id$="-summary"]', vectors: V },
      ]),
    ).toEqual(clean);
  });

  it('/voice/comments/{id}: the heading names the category as text, and the thread is text', async () => {
    const entry = voiceEntry({ id: id('e', 4), description: ALL_PAYLOADS, category_id: CATEGORIES[1]!.id });
    const categories = [{ ...CATEGORIES[1]!, name: ALL_PAYLOADS }];
    const staffComments = V.map((v, i) => comment({ id: id('d', v.id), entry_id: entry.id, comment: v.payload, creator: { id: STAFF[i]!.id, first_name: v.payload, last_name: 'Staff', has_photo: false } }));
    fakeReplica.set({ voiceEntries: [entry], categories, comments: staffComments });
    renderApp(`/voice/comments/${entry.id}`);
    await shown('.thread__list');
    expect(
      await sweepScreen(marker, main(), [
        { field: 'thread heading (category name)', selector: 'h1', vectors: V },
        { field: 'voice message (thread)', selector: '.thread__entry .thread__text', vectors: V },
        { field: 'staff comment (voice)', selector: '.thread__list .thread__text', vectors: V },
        { field: 'staff name (voice comment)', selector: '.thread__list .thread__name', vectors: V },
      ]),
    ).toEqual(clean);
  });

  it('/voice/success: the category sent is named as text', async () => {
    const { router } = renderApp('/voice');
    await shown('.voice-choice__name');
    await act(() => router.navigate('/voice/success', { state: { categoryId: CATEGORIES[0]!.id, categoryName: ALL_PAYLOADS, queuedOffline: false, sharedWithStaff: true } }));
    await shown('#voice-next-title');
    expect(await sweepScreen(marker, main(), [{ field: 'category sent', selector: '#voice-next-title', vectors: V }])).toEqual(clean);
  });
});
