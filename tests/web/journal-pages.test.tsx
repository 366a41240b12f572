import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '@/app/app-providers';
import { entryMessages } from '@/contract/entries';
import type { Live } from '@/data/hooks';
import type { EntriesPage } from '@/entries/hooks/journal-entries-query';
import type { JournalEntriesQuery } from '@/entries/hooks/use-entries';
import type * as EntriesHooks from '@/entries/hooks/use-entries';
import type { JournalDoc, ResidentDoc, StaffDoc } from '@/data/replica/types';
import { EditJournalEntryPage } from '@/features/journal/components/edit-journal-entry-page';
import { JournalEntriesPage, SEARCH_DELAY_MS } from '@/features/journal/components/journal-entries-page';
import { JournalPage } from '@/features/journal/components/journal-page';
import { emulateModalDialogs } from './support/modal-dialog';
import { waitUntil } from '../support/wait';

/** The replica as plain values the tests set; the data layer has its own tests. */
const fake = vi.hoisted(() => ({
  entries: [] as unknown[],
  hasMore: false,
  loading: false,
  queries: [] as JournalEntriesQuery[],
  reactions: [] as string[],
  reactionsAsked: [] as boolean[],
  one: null as unknown,
  staff: [] as unknown[],
  save: vi.fn(),
  retry: vi.fn(async () => ({ ok: true })),
  discard: vi.fn(async () => ({ ok: true })),
  keepMine: vi.fn(async () => ({ ok: true })),
  keepOther: vi.fn(async () => ({ ok: true })),
  keepBoth: vi.fn(async () => ({ ok: true, id: 'new' })),
}));

vi.mock('@/entries/hooks/use-entries', async (importOriginal) => ({
  ...(await importOriginal<typeof EntriesHooks>()),
  useJournalEntries: (query: JournalEntriesQuery): Live<EntriesPage<JournalDoc>> => {
    fake.queries.push(query);
    return { data: { items: fake.entries as JournalDoc[], hasMore: fake.hasMore }, loading: fake.loading };
  },
  useJournalEntry: (): Live<JournalDoc | null> => ({ data: fake.one as JournalDoc | null, loading: false }),
  useJournalReactions: (enabled = true): Live<string[]> => {
    fake.reactionsAsked.push(enabled);
    return { data: enabled ? fake.reactions : [], loading: false };
  },
  useEmojis: () => ({
    data: [
      { id: 'e1', emoji: '😀', name: 'Happy', position: 0, updated_at: '2026-01-01T00:00:00.000Z' },
      { id: 'e2', emoji: '😢', name: 'Sad', position: 1, updated_at: '2026-01-01T00:00:00.000Z' },
      { id: 'e3', emoji: '😡', name: 'Angry', position: 2, updated_at: '2026-01-01T00:00:00.000Z' },
    ],
    loading: false,
  }),
}));
vi.mock('@/data/hooks/use-associated-users', () => ({ useAssociatedUsers: (): Live<StaffDoc[]> => ({ data: fake.staff as StaffDoc[], loading: false }) }));
vi.mock('@/data/hooks/use-resident-details', () => ({ useResidentDetails: (): Live<ResidentDoc | null> => ({ data: null, loading: false }) }));
vi.mock('@/entries/hooks/use-entry-file', () => ({ useEntryFile: () => null }));
vi.mock('@/features/journal/actions/save-journal-entry', () => ({ saveJournalEntry: fake.save }));
vi.mock('@/entries/data/failed-entry', () => ({ retryFailedEntry: fake.retry, discardFailedEntry: fake.discard }));
vi.mock('@/entries/data/edit-conflict', () => ({ keepMine: fake.keepMine, keepOther: fake.keepOther, keepBoth: fake.keepBoth }));

const ALI: StaffDoc = {
  id: 'a1111111-1111-4111-8111-111111111111',
  first_name: 'Ali',
  last_name: 'Hassan',
  job_title: 'Key worker',
  has_photo: false,
  updated_at: '2026-01-01T00:00:00.000Z',
  sync_state: 'synced',
  sync_message: null,
  sync_outbox_id: null,
};

function entry(overrides: Partial<JournalDoc> = {}): JournalDoc {
  return {
    id: 'f0000000-0000-4000-8000-000000000001',
    updated_at: '2026-03-01T10:00:00.000Z',
    resident_id: '0c7d1e2f-8a9b-4c3d-9e1f-2a3b4c5d6e7f',
    creator: { id: '6f1c2b9e-3a41-4c8e-9d2f-1b7a5e3c9d10', first_name: 'Samuel', last_name: 'Jones', has_photo: false },
    description: 'Had a good day at school.',
    reaction: null,
    canvas: null,
    files: [],
    shared_with: [],
    shared_with_management: false,
    comments_count: 0,
    locked_at: null,
    created_at: '2026-03-01T10:00:00.000Z',
    entry_date: '2026-03-01',
    entry_time: '10:00',
    sort_key: '2026-03-01T10:00',
    local_only: false,
    sync_state: 'synced',
    sync_message: null,
    sync_outbox_id: null,
    ...overrides,
  };
}

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/journal', element: <JournalPage /> },
      { path: '/journal/entries', element: <JournalEntriesPage /> },
      { path: '/journal/edit/:id', element: <EditJournalEntryPage /> },
      { path: '/journal/customise', element: <p>Customise page</p> },
      { path: '/entries/comments/:id', element: <p>Comments page</p> },
    ],
    { initialEntries: [path] },
  );
  const user = userEvent.setup();
  render(<AppProviders router={router} />);
  return { user, router };
}

beforeEach(() => {
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
  fake.entries = [];
  fake.hasMore = false;
  fake.loading = false;
  fake.queries = [];
  fake.reactions = [];
  fake.reactionsAsked = [];
  fake.one = null;
  fake.staff = [ALI];
  fake.save.mockReset();
});

describe('/journal/entries', () => {
  it('asks for the feelings used (a read of every entry) only once the first page is shown', () => {
    fake.loading = true;
    renderAt('/journal/entries');
    expect(fake.reactionsAsked.length).toBeGreaterThan(0);
    expect(fake.reactionsAsked.every((asked) => !asked)).toBe(true);
  });

  it('asks for the feelings used once the list is there', () => {
    fake.entries = [entry()];
    renderAt('/journal/entries');
    expect(fake.reactionsAsked[fake.reactionsAsked.length - 1]).toBe(true);
  });

  it('shows a description as text, never as HTML', () => {
    fake.entries = [entry({ description: '<img src=x onerror=alert(1)>' })];
    renderAt('/journal/entries');
    const list = screen.getByRole('list', { name: 'Journal entries' });
    expect(within(list).getByText('<img src=x onerror=alert(1)>')).toBeTruthy();
    expect(list.querySelector('img')).toBeNull();
  });

  it('shows when, reaction, sharing, comments and the sending state of each entry', async () => {
    fake.entries = [
      entry({ id: 'f1', description: 'Shared one', reaction: '😀', shared_with: [ALI.id], shared_with_management: true, comments_count: 2 }),
      entry({ id: 'f2', description: 'Waiting one', sync_state: 'pending', local_only: true }),
      entry({ id: 'f3', description: 'Refused one', sync_state: 'failed', sync_message: 'Image added is inappropriate' }),
    ];
    renderAt('/journal/entries');
    const [shared, waiting, refused] = screen.getAllByRole('article');
    expect(within(shared!).getByRole('heading').textContent).toMatch(/^Sunday,? 1 March 2026 at 10:00$/);
    expect(within(shared!).getByRole('img', { name: 'Feeling: Happy' })).toBeTruthy();
    expect(within(shared!).getByText(/Shared with 2/)).toBeTruthy();
    expect(within(shared!).getByRole('link', { name: '2 comments' }).getAttribute('href')).toBe('/entries/comments/f1');
    expect(within(waiting!).getByText('Waiting to send')).toBeTruthy();
    expect(within(waiting!).getByText('Private')).toBeTruthy();
    expect(within(refused!).getByRole('alert').textContent).toBe('Image added is inappropriate');
    expect(within(refused!).getByRole('link', { name: /Edit/ }).getAttribute('href')).toBe('/journal/edit/f3');
    await waitFor(() => expect(localStorage.getItem('journalIndexVisited')).toBe('true'));
  });

  it('a refused entry is never stuck: Try again, and Discard after a confirmation that offers the words to copy', async () => {
    fake.entries = [entry({ id: 'f3', description: 'Words I want to keep', sync_state: 'failed', sync_message: entryMessages.locked })];
    const { user } = renderAt('/journal/entries');
    const card = screen.getByRole('article');
    expect(within(card).getByRole('alert').textContent).toBe(entryMessages.locked);

    await user.click(within(card).getByRole('button', { name: 'Try again to send this entry' }));
    expect(fake.retry).toHaveBeenCalledWith('journal', 'f3');

    await user.click(within(card).getByRole('button', { name: 'Discard this entry' }));
    const dialog = await screen.findByRole('dialog', { name: 'Discard this entry?' });
    expect((within(dialog).getByRole('textbox', { name: 'Your words' }) as HTMLTextAreaElement).value).toBe('Words I want to keep');
    await user.click(within(dialog).getByRole('button', { name: 'Copy my words' }));
    // user-event's clipboard stands in for the browser's.
    expect(await navigator.clipboard.readText()).toBe('Words I want to keep');
    await user.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fake.discard).not.toHaveBeenCalled();

    await user.click(within(card).getByRole('button', { name: 'Discard this entry' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Discard' }));
    expect(fake.discard).toHaveBeenCalledWith('journal', 'f3');
  });

  it('an edit conflict shows both versions and asks which to keep: mine, the other one (after a confirmation that offers my words) or both', async () => {
    const other = entry({ id: 'f4', description: 'Words from my phone', reaction: '😢', updated_at: '2026-03-02T09:00:00.000000Z' });
    fake.entries = [
      entry({ id: 'f4', description: 'Words from my tablet', canvas: { id: 'c0000000-0000-4000-8000-000000000001', name: 'canvas.png', mime: 'image/png', size: 10 }, sync_state: 'failed', sync_message: entryMessages.editConflict, sync_server: { ...other } }),
    ];
    const { user } = renderAt('/journal/entries');
    const card = screen.getByRole('article');
    expect(within(card).getByRole('alert').textContent).toBe(`${entryMessages.editConflict} Which one do you want to keep?`);
    const mine = within(card).getByRole('region', { name: 'Yours, on this phone or tablet' });
    const theirs = within(card).getByRole('region', { name: 'The other one' });
    expect(within(mine).getByText('Words from my tablet')).toBeTruthy();
    expect(within(mine).getByText('A drawing')).toBeTruthy();
    expect(within(theirs).getByText('Words from my phone')).toBeTruthy();
    expect(within(theirs).getByText('Feeling: 😢')).toBeTruthy();
    // The refused change's own Try again and Discard are these three here; the Edit link stays.
    expect(within(card).queryByRole('button', { name: /Try again/ })).toBeNull();
    expect(within(card).getByRole('link', { name: /^Edit/ })).toBeTruthy();

    await user.click(within(card).getByRole('button', { name: 'Keep mine' }));
    expect(fake.keepMine).toHaveBeenCalledWith('journal', 'f4');
    await user.click(within(card).getByRole('button', { name: 'Keep both' }));
    expect(fake.keepBoth).toHaveBeenCalledWith('journal', 'f4');

    await user.click(within(card).getByRole('button', { name: 'Keep the other one' }));
    const dialog = await screen.findByRole('dialog', { name: 'Keep the other one?' });
    expect((within(dialog).getByRole('textbox', { name: 'Your words' }) as HTMLTextAreaElement).value).toBe('Words from my tablet');
    await user.click(within(dialog).getByRole('button', { name: 'Copy my words' }));
    expect(await navigator.clipboard.readText()).toBe('Words from my tablet');
    await user.click(within(dialog).getByRole('button', { name: 'Go back' }));
    expect(fake.keepOther).not.toHaveBeenCalled();
    await user.click(within(card).getByRole('button', { name: 'Keep the other one' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Keep the other one' }));
    expect(fake.keepOther).toHaveBeenCalledWith('journal', 'f4');
  });

  it('searches as the person types (after a pause) and loads more', async () => {
    fake.entries = [entry()];
    fake.hasMore = true;
    const { user } = renderAt('/journal/entries');
    await user.type(screen.getByRole('searchbox', { name: 'Search your entries' }), 'football');
    expect(fake.queries.at(-1)).toEqual({ search: '', limit: 20, filters: {} });
    await waitUntil(() => expect(fake.queries.at(-1)).toEqual({ search: 'football', limit: 20, filters: {} }));
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitUntil(() => expect(fake.queries.at(-1)).toEqual({ search: 'football', limit: 40, filters: {} }));
  });

  it('a page loaded right after opening the list stays loaded once the search pause has passed', async () => {
    fake.entries = [entry()];
    fake.hasMore = true;
    const { user } = renderAt('/journal/entries');
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitUntil(() => expect(fake.queries.at(-1)).toMatchObject({ limit: 40 }));
    // The search pause is the page's own constant, not a guess about the machine.
    await act(() => new Promise((resolve) => setTimeout(resolve, SEARCH_DELAY_MS * 2)));
    expect(fake.queries.at(-1)).toEqual({ search: '', limit: 40, filters: {} });
  });

  it('"Load more" right after the list opens is kept (the search pause has nothing to reset)', async () => {
    fake.entries = [entry()];
    fake.hasMore = true;
    const { user } = renderAt('/journal/entries');
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(fake.queries.at(-1)).toMatchObject({ limit: 40 });
    // Past the search's pause: before, it set the first page again.
    await new Promise((resolve) => setTimeout(resolve, SEARCH_DELAY_MS + 200));
    expect(fake.queries.at(-1)).toMatchObject({ limit: 40 });
  });

  it('keeps the feelings to choose from while the list loads again after a filter change (arrow keys on the Feeling select)', async () => {
    fake.entries = [entry()];
    fake.reactions = ['😢', '😀'];
    renderAt('/journal/entries');
    const filters = screen.getByRole('group', { name: 'Filter your entries' });
    const options = () => within(within(filters).getByRole('combobox', { name: 'Feeling' })).getAllByRole('option').map((o) => o.textContent);
    await waitUntil(() => expect(options()).toEqual(['Any feeling', '😀 Happy', '😢 Sad']));
    // The changed filters' query has not answered yet.
    fake.loading = true;
    fireEvent.change(within(filters).getByRole('combobox', { name: 'Feeling' }), { target: { value: '😀' } });
    expect(options()).toEqual(['Any feeling', '😀 Happy', '😢 Sad']);
    expect(fake.reactionsAsked[fake.reactionsAsked.length - 1]).toBe(true);
  });

  it('filters by date range, feeling and who can see it, on top of the search; each change starts from the first page', async () => {
    fake.entries = [entry()];
    fake.hasMore = true;
    fake.reactions = ['😢', '😀'];
    const { user } = renderAt('/journal/entries');
    const search = screen.getByRole('search', { name: 'Search and filter your entries' });
    const filters = within(search).getByRole('group', { name: 'Filter your entries' });
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    // The list's next page and each filter change reach the query in a render that may come later on a busy machine.
    await waitUntil(() => expect(fake.queries.at(-1)).toMatchObject({ limit: 40 }));

    fireEvent.change(within(filters).getByLabelText('From'), { target: { value: '2026-03-01' } });
    await waitUntil(() => expect(fake.queries.at(-1)).toEqual({ search: '', limit: 20, filters: { from: '2026-03-01' } }));
    fireEvent.change(within(filters).getByLabelText('To'), { target: { value: '2026-03-31' } });
    await waitUntil(() => expect((within(filters).getByLabelText('To') as HTMLInputElement).min).toBe('2026-03-01'));
    expect((within(filters).getByLabelText('From') as HTMLInputElement).max).toBe('2026-03-31');

    // Only the feelings the person has used, named from the emoji list, in its order.
    const feeling = within(filters).getByRole('combobox', { name: 'Feeling' });
    expect(within(feeling).getAllByRole('option').map((o) => o.textContent)).toEqual(['Any feeling', '😀 Happy', '😢 Sad']);
    await user.selectOptions(feeling, '😢 Sad');
    await user.selectOptions(within(filters).getByRole('combobox', { name: 'Who can see it' }), 'Only me');
    await user.type(within(search).getByRole('searchbox', { name: 'Search your entries' }), 'rain');
    await waitUntil(() => expect(fake.queries.at(-1)?.search).toBe('rain'));
    expect(fake.queries.at(-1)).toEqual({ search: 'rain', limit: 20, filters: { from: '2026-03-01', to: '2026-03-31', reaction: '😢', sharing: 'private' } });
  });

  it('“Clear filters” clears the filters and the search, and is offered only when there is something to clear', async () => {
    fake.entries = [entry()];
    fake.reactions = ['😀'];
    const { user } = renderAt('/journal/entries');
    expect(screen.queryByRole('button', { name: 'Clear filters' })).toBeNull();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Who can see it' }), 'Shared with someone');
    await user.type(screen.getByRole('searchbox', { name: 'Search your entries' }), 'park');
    await waitUntil(() => expect(fake.queries.at(-1)).toEqual({ search: 'park', limit: 20, filters: { sharing: 'shared' } }));

    const clear = screen.getByRole('button', { name: 'Clear filters' });
    clear.focus();
    await user.keyboard('{Enter}');
    await waitUntil(() => expect(fake.queries.at(-1)).toEqual({ search: '', limit: 20, filters: {} }));
    expect((screen.getByRole('searchbox', { name: 'Search your entries' }) as HTMLInputElement).value).toBe('');
    expect((screen.getByRole('combobox', { name: 'Who can see it' }) as HTMLSelectElement).value).toBe('');
    expect(screen.queryByRole('button', { name: 'Clear filters' })).toBeNull();
    // The button is gone: keyboard focus lands on the search, not on the page.
    expect(document.activeElement).toBe(screen.getByRole('searchbox', { name: 'Search your entries' }));
  });

  it('offers no feeling filter before any feeling was used', () => {
    fake.entries = [entry()];
    renderAt('/journal/entries');
    expect(screen.queryByRole('combobox', { name: 'Feeling' })).toBeNull();
    expect(screen.getByRole('combobox', { name: 'Who can see it' })).toBeTruthy();
  });

  it('says plainly when nothing matches the filters', async () => {
    const { user } = renderAt('/journal/entries');
    expect(screen.getByRole('heading', { name: 'No entries yet.' })).toBeTruthy();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Who can see it' }), 'Only me');
    await waitUntil(() => expect(screen.getByRole('status').textContent).toBe('No entries match these filters.'));
    expect(screen.queryByRole('heading', { name: 'No entries yet.' })).toBeNull();
    await user.type(screen.getByRole('searchbox', { name: 'Search your entries' }), 'kite');
    await waitUntil(() => expect(screen.getByRole('status').textContent).toBe('No entries match “kite” with these filters.'));
  });

  it('a closed conversation shows “Closed” and offers no edit', () => {
    fake.entries = [entry({ id: 'f1', description: 'Open one' }), entry({ id: 'f2', description: 'Closed one', locked_at: '2026-03-02T10:00:00.000000Z', comments_count: 1 })];
    renderAt('/journal/entries');
    const [openCard, closedCard] = screen.getAllByRole('article');
    expect(within(openCard!).queryByText('Closed')).toBeNull();
    expect(within(openCard!).getByRole('link', { name: /Edit/ })).toBeTruthy();
    expect(within(closedCard!).getByText('Closed')).toBeTruthy();
    expect(within(closedCard!).queryByRole('link', { name: /Edit/ })).toBeNull();
    expect(within(closedCard!).getByRole('link', { name: '1 comment' }).getAttribute('href')).toBe('/entries/comments/f2');
  });

  it('has a kind empty state', () => {
    renderAt('/journal/entries');
    expect(screen.getByRole('heading', { name: 'No entries yet.' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Write your first entry' }).getAttribute('href')).toBe('/journal');
  });
});

describe('the focus after actions on a refused or conflicting entry (WCAG 2.4.3)', () => {
  beforeEach(() => [fake.retry, fake.discard, fake.keepMine, fake.keepOther, fake.keepBoth].forEach((action) => action.mockClear()));
  const heldOpen = () => {
    let answer: (value: unknown) => void = () => undefined;
    return { promise: new Promise((resolve) => (answer = resolve)), answer: (value: unknown) => answer(value) };
  };
  const refused = (overrides: Partial<JournalDoc> = {}) => entry({ id: 'f3', description: 'Words I want to keep', sync_state: 'failed', sync_message: entryMessages.locked, ...overrides });
  const conflicting = () => {
    const other = entry({ id: 'f4', description: 'Words from my phone', updated_at: '2026-03-02T09:00:00.000000Z' });
    return entry({ id: 'f4', description: 'Words from my tablet', sync_state: 'failed', sync_message: entryMessages.editConflict, sync_server: { ...other } });
  };
  // The data modules are mocked here: refusals with words of their own.
  const [SEND_AGAIN_BY_EDITING, NOTHING_TO_GO_BACK_TO, FILES_NOT_HERE] = ['Refused again.', 'Nothing to go back to.', 'Files not here.'];
  const escape = (dialog: HTMLElement) => fireEvent(dialog, new Event('cancel', { cancelable: true }));

  it('Try again keeps the focus while it works (aria-disabled, a second press does nothing), then the card has it; refused, it stays', async () => {
    fake.entries = [refused()];
    const held = heldOpen();
    fake.retry.mockImplementationOnce(() => held.promise as Promise<{ ok: true }>);
    const { user } = renderAt('/journal/entries');
    const card = screen.getByRole('article');
    const again = within(card).getByRole('button', { name: 'Try again to send this entry' }) as HTMLButtonElement;
    await user.click(again);
    await waitUntil(() => expect(again.getAttribute('aria-disabled')).toBe('true'));
    expect(again.disabled).toBe(false);
    expect(document.activeElement).toBe(again);
    await user.click(again);
    await user.click(within(card).getByRole('button', { name: 'Discard this entry' }));
    expect(fake.retry).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
    await act(async () => held.answer({ ok: true }));
    // Sent again, it waits: the refusal's actions go with it, the entry's card keeps the focus.
    await waitUntil(() => expect(document.activeElement).toBe(card));
    expect(again.getAttribute('aria-disabled')).toBeNull();

    fake.retry.mockResolvedValueOnce({ ok: false, message: SEND_AGAIN_BY_EDITING } as never);
    await user.click(again);
    expect(await screen.findByText(SEND_AGAIN_BY_EDITING)).toBeTruthy();
    expect(document.activeElement).toBe(again);
  });

  it('Discard: Keep it and Escape go back to Discard, so does a failed discard; discarded, the page heading or the card', async () => {
    emulateModalDialogs();
    fake.entries = [refused()];
    const { user } = renderAt('/journal/entries');
    const card = screen.getByRole('article');
    const discard = within(card).getByRole('button', { name: 'Discard this entry' });

    await user.click(discard);
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Keep it' }));
    await waitUntil(() => expect(document.activeElement).toBe(discard));
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(discard);
    escape(await screen.findByRole('dialog'));
    await waitUntil(() => expect(document.activeElement).toBe(discard));
    expect(screen.queryByRole('dialog')).toBeNull();

    // While it works, both of the dialog's buttons keep the focus (aria-disabled) and do nothing.
    const held = heldOpen();
    fake.discard.mockImplementationOnce(() => held.promise as Promise<{ ok: true }>);
    await user.click(discard);
    const dialog = await screen.findByRole('dialog');
    const confirm = within(dialog).getByRole('button', { name: 'Discard' }) as HTMLButtonElement;
    await user.click(confirm);
    await waitUntil(() => expect(confirm.getAttribute('aria-disabled')).toBe('true'));
    expect(confirm.disabled).toBe(false);
    expect(document.activeElement).toBe(confirm);
    await user.click(confirm);
    expect(fake.discard).toHaveBeenCalledTimes(1);
    await act(async () => held.answer({ ok: false, message: NOTHING_TO_GO_BACK_TO }));
    expect(await screen.findByText(NOTHING_TO_GO_BACK_TO)).toBeTruthy();
    await waitUntil(() => expect(document.activeElement).toBe(discard));
    expect(screen.queryByRole('dialog')).toBeNull();

    // Never sent, it leaves the list: the page's heading has the focus.
    await user.click(discard);
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Discard' }));
    expect(await screen.findByText('The entry was discarded')).toBeTruthy();
    await waitUntil(() => expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Journal entries' })));
  });

  it('a discarded edit goes back to the server’s copy: its card has the focus', async () => {
    emulateModalDialogs();
    fake.entries = [refused({ sync_server: { ...entry({ id: 'f3', description: 'As the server has it' }), sync_base: true } })];
    const { user } = renderAt('/journal/entries');
    const card = screen.getByRole('article');
    await user.click(within(card).getByRole('button', { name: 'Discard this entry' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Discard' }));
    await waitUntil(() => expect(document.activeElement).toBe(card));
  });

  it('an edit conflict: Keep mine and Keep both go to the card, refused they keep the focus; Keep the other one asks, and comes back to its button', async () => {
    emulateModalDialogs();
    fake.entries = [conflicting()];
    const { user } = renderAt('/journal/entries');
    const card = screen.getByRole('article');
    const mine = within(card).getByRole('button', { name: 'Keep mine' }) as HTMLButtonElement;
    const both = within(card).getByRole('button', { name: 'Keep both' }) as HTMLButtonElement;
    const theirs = within(card).getByRole('button', { name: 'Keep the other one' }) as HTMLButtonElement;

    const held = heldOpen();
    fake.keepMine.mockImplementationOnce(() => held.promise as Promise<{ ok: true }>);
    await user.click(mine);
    await waitUntil(() => expect([mine, both, theirs].map((button) => button.getAttribute('aria-disabled'))).toEqual(['true', 'true', 'true']));
    expect([mine.disabled, both.disabled, theirs.disabled]).toEqual([false, false, false]);
    expect(document.activeElement).toBe(mine);
    await user.click(both);
    await user.click(theirs);
    expect(fake.keepBoth).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).toBeNull();
    await act(async () => held.answer({ ok: true }));
    await waitUntil(() => expect(document.activeElement).toBe(card));

    await user.click(both);
    await waitUntil(() => expect(document.activeElement).toBe(card));
    expect(await screen.findByText('Both kept: yours is now a new entry.')).toBeTruthy();
    fake.keepBoth.mockResolvedValueOnce({ ok: false, message: FILES_NOT_HERE } as never);
    await user.click(both);
    expect(await screen.findByText(FILES_NOT_HERE)).toBeTruthy();
    expect(document.activeElement).toBe(both);

    await user.click(theirs);
    await user.click(within(await screen.findByRole('dialog', { name: 'Keep the other one?' })).getByRole('button', { name: 'Go back' }));
    await waitUntil(() => expect(document.activeElement).toBe(theirs));
    await user.click(theirs);
    escape(await screen.findByRole('dialog'));
    await waitUntil(() => expect(document.activeElement).toBe(theirs));
    fake.keepOther.mockResolvedValueOnce({ ok: false, message: entryMessages.updateFailed } as never);
    await user.click(theirs);
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Keep the other one' }));
    expect(await screen.findByText(entryMessages.updateFailed)).toBeTruthy();
    await waitUntil(() => expect(document.activeElement).toBe(theirs));
    expect(screen.queryByRole('dialog')).toBeNull();
    // Kept, the card shows the other one: it has the focus.
    await user.click(theirs);
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Keep the other one' }));
    expect(await screen.findByText('We kept the other one.')).toBeTruthy();
    await waitUntil(() => expect(document.activeElement).toBe(card));
  });
});

describe('/journal', () => {
  it('writes an entry through the action and goes to the list', async () => {
    fake.save.mockResolvedValue({ ok: true, id: 'new', queuedOffline: false });
    const { user, router } = renderAt('/journal');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Write in your journal');
    await waitFor(() => expect(localStorage.getItem('journalIndexVisited')).toBe('true'));
    expect(screen.getByRole('link', { name: 'My entries' })).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'What’s on your mind?' }), 'A quiet day');
    await user.click(screen.getByRole('checkbox', { name: /Ali Hassan/ }));
    await user.click(screen.getByRole('button', { name: 'Save entry' }));
    expect(fake.save).toHaveBeenCalledWith(expect.objectContaining({ description: 'A quiet day', sharedWith: [ALI.id] }));
    expect(fake.save.mock.calls[0]).toHaveLength(1);
    await waitUntil(() => expect(router.state.location.pathname).toBe('/journal/entries'));
  });
});

describe('/journal/edit/{id}', () => {
  it('says so kindly when the entry is not on this device', () => {
    renderAt('/journal/edit/missing');
    expect(screen.getByRole('heading', { name: 'This journal entry is not on this device right now.' })).toBeTruthy();
  });

  it('a closed conversation shows why it cannot be changed instead of the form', () => {
    fake.one = entry({ id: 'f8', description: 'Closed words', locked_at: '2026-03-02T10:00:00.000000Z' });
    renderAt('/journal/edit/f8');
    expect(screen.getByText(entryMessages.locked)).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'What’s on your mind?' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save changes' })).toBeNull();
    expect(screen.getByRole('link', { name: 'See the conversation' }).getAttribute('href')).toBe('/entries/comments/f8');
  });

  it('is filled in and saves the entry by its id', async () => {
    fake.one = entry({ id: 'f9', description: 'Old words', shared_with: [ALI.id], reaction: '😀' });
    fake.save.mockResolvedValue({ ok: true, id: 'f9', queuedOffline: false });
    const { user } = renderAt('/journal/edit/f9');
    const words = screen.getByRole('textbox', { name: 'What’s on your mind?' }) as HTMLTextAreaElement;
    expect(words.value).toBe('Old words');
    expect(screen.getByText('You and Ali Hassan will see this entry.')).toBeTruthy();
    await user.type(words, ' and new ones');
    await act(() => user.click(screen.getByRole('button', { name: 'Save changes' })));
    expect(fake.save).toHaveBeenCalledWith(
      expect.objectContaining({ description: 'Old words and new ones', reaction: '😀', sharedWith: [ALI.id], entryDate: '2026-03-01', entryTime: '10:00' }),
      'f9',
    );
  });
});
