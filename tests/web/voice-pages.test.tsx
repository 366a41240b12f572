import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { entryMessages } from '@/contract/entries';
import { messages } from '@/contract/messages';
import { setAccount } from '@/data/session-store';
import { makeAccount } from './support/account';
import { CATEGORY, STAFF, categories, emojis, voiceEntry } from './support/entry-fixtures';
import { fakeFetch } from './support/fake-fetch';
import { fakeReplica } from './support/fake-replica';
import { emulateModalDialogs } from './support/modal-dialog';
import { renderApp } from './support/render-app';
import { waitUntil } from '../support/wait';

vi.mock('@/entries/hooks/use-entries', async () => {
  const { entryHooks } = await import('./support/fake-replica');
  return entryHooks;
});
vi.mock('@/entries/hooks/use-comments', async () => {
  const { entryHooks } = await import('./support/fake-replica');
  return { useComments: entryHooks.useComments };
});
vi.mock('@/data/hooks/use-associated-users', async () => {
  const { STAFF } = await import('./support/entry-fixtures');
  return { useAssociatedUsers: () => ({ data: [STAFF], loading: false }) };
});
vi.mock('@/data/hooks/use-resident-details', async () => {
  const { STAFF } = await import('./support/entry-fixtures');
  return { useResidentDetails: () => ({ data: { key_worker: STAFF }, loading: false }) };
});
vi.mock('@/entries/hooks/use-entry-file', () => ({ useEntryFile: () => null }));
vi.mock('@/data/hooks/use-user-photo', () => ({ useUserPhoto: () => null }));

const actions = vi.hoisted(() => ({ save: vi.fn() }));
vi.mock('@/features/voice/actions/save-voice-entry', () => ({ saveVoiceEntry: actions.save }));
const refusedActions = vi.hoisted(() => ({ retry: vi.fn(), discard: vi.fn() }));
vi.mock('@/entries/data/failed-entry', () => ({ retryFailedEntry: refusedActions.retry, discardFailedEntry: refusedActions.discard }));

beforeEach(() => {
  if (typeof globalThis.CSS?.escape !== 'function') {
    Object.assign((globalThis.CSS ??= {} as typeof CSS), { escape: (value: string) => value.replace(/([^\w-])/g, '\\$1') });
  }
  actions.save.mockReset().mockResolvedValue({ ok: true, id: 'new-entry', queuedOffline: false });
  fakeReplica.reset();
  fakeReplica.set({ categories: categories(), emojis: emojis() });
  fakeFetch();
  setAccount(makeAccount());
});

describe('/voice', () => {
  it('remembers the visit and offers each category as a large choice with its description', async () => {
    renderApp('/voice');
    expect(await screen.findByRole('heading', { level: 1, name: 'Your voice' })).toBeTruthy();
    // Remembered after the first render (an effect).
    await waitFor(() => expect(localStorage.getItem('voiceIndexVisited')).toBe('true'));
    const concern = screen.getByRole('button', { name: /Raise a concern/ });
    expect(concern.textContent).toContain('Tell staff about something that worries you.');
    expect(screen.getAllByRole('button', { name: /Raise a concern|Make a complaint|Share good news/ })).toHaveLength(3);
  });

  it('shows "My messages" with the choices, not under their "Loading…" (it was pushed down when they came)', async () => {
    fakeReplica.set({ loading: true, categories: [] });
    renderApp('/voice');
    expect(await screen.findByRole('heading', { level: 1, name: 'Your voice' })).toBeTruthy();
    expect(screen.getByText('Loading…')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'My messages' })).toBeNull();
    act(() => fakeReplica.set({ loading: false, categories: categories() }));
    expect(await screen.findByRole('button', { name: /Raise a concern/ })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'My messages' }).getAttribute('href')).toBe('/voice/entries');
  });

  it('sends a concern in its category and shows what happens next', async () => {
    const { user, router } = renderApp('/voice');
    await user.click(await screen.findByRole('button', { name: /Raise a concern/ }));
    expect(screen.getByRole('heading', { level: 2, name: 'Raise a concern' })).toBeTruthy();
    expect(screen.getByText('Who can see this?')).toBeTruthy();
    await user.type(screen.getByLabelText('What would you like to say?'), 'Someone is being unkind to me.');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(actions.save).toHaveBeenCalledTimes(1);
    // Voice starts shared with the key worker and home management, and says so before sending.
    expect(screen.getByText('You, Ali Khan and home management will see this entry.')).toBeTruthy();
    expect(actions.save.mock.calls[0]![0]).toMatchObject({
      description: 'Someone is being unkind to me.',
      categoryId: CATEGORY.concern,
      sharedWith: [STAFF.id],
      sharedWithManagement: true,
    });
    expect(actions.save.mock.calls[0]![1]).toBeUndefined();
    expect(await screen.findByRole('heading', { level: 1, name: 'Thank you for speaking up' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/voice/success');
    expect(
      screen.getByText(
        'Staff will read this and talk to you about it. If you feel unsafe right now, tell an adult you trust or call Childline on 0800 1111.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'My messages' }).getAttribute('href')).toBe('/voice/entries');
    expect(screen.getByRole('link', { name: 'Back to dashboard' }).getAttribute('href')).toBe('/dashboard');
  });

  it('a message kept private is sent with no one, and the next step says no one else will read it', async () => {
    const { user } = renderApp('/voice');
    await user.click(await screen.findByRole('button', { name: /Raise a concern/ }));
    await user.click(screen.getByRole('checkbox', { name: /Ali Khan/ }));
    await user.click(screen.getByRole('checkbox', { name: /home management/i }));
    expect(screen.getByText('Only you will see this entry.')).toBeTruthy();
    await user.type(screen.getByLabelText('What would you like to say?'), 'Just for me.');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(actions.save.mock.calls[0]![0]).toMatchObject({ sharedWith: [], sharedWithManagement: false });
    expect(await screen.findByText(/You chose to keep this to yourself, so staff will not see it/)).toBeTruthy();
    expect(screen.queryByText(/Staff will read this/)).toBeNull();
  });
});

describe('/voice/success', () => {
  it('says the information is not here when opened without a sent entry', async () => {
    renderApp('/voice/success');
    expect(await screen.findByText(messages.voiceMissingData)).toBeTruthy();
    expect(screen.queryByText(/Childline/)).toBeNull();
  });

  it('words the next step per category', async () => {
    const { router } = renderApp('/voice');
    await screen.findByRole('heading', { level: 1, name: 'Your voice' });
    await act(() => router.navigate('/voice/success', { state: { categoryId: CATEGORY.news, categoryName: 'Share good news', queuedOffline: true } }));
    expect(await screen.findByText(/Thank you for sharing your good news!/)).toBeTruthy();
    expect(screen.getByText(/will send by itself when you are back online/)).toBeTruthy();
    expect(screen.queryByText(/Childline/)).toBeNull();
  });
});

describe('/voice/entries', () => {
  it('groups entries under a heading per category, newest first, with state, comments and edit links', async () => {
    fakeReplica.set({
      voiceEntries: [
        voiceEntry({ id: 'v-new', description: 'Newest concern', created_at: '2026-03-05T10:00:00.000Z', sort_key: '2026-03-05T10:00:00.000Z', comments_count: 2 }),
        voiceEntry({ id: 'v-news', description: 'I passed my test', category_id: CATEGORY.news, created_at: '2026-03-04T10:00:00.000Z', sort_key: '2026-03-04T10:00:00.000Z' }),
        voiceEntry({ id: 'v-old', description: 'Older concern', created_at: '2026-03-01T10:00:00.000Z', sort_key: '2026-03-01T10:00:00.000Z', sync_state: 'pending', comments_count: 1 }),
      ],
    });
    renderApp('/voice/entries');
    const headings = await screen.findAllByRole('heading', { level: 2 });
    expect(headings.map((h) => h.textContent)).toEqual(['Raise a concern', 'Share good news']);
    const concern = screen.getByRole('region', { name: 'Raise a concern' });
    const items = within(concern).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('.voice-item__excerpt')!.textContent)).toEqual(['Newest concern', 'Older concern']);
    expect(within(items[0]!).getByText('Sent')).toBeTruthy();
    expect(within(items[1]!).getByText('Waiting to send')).toBeTruthy();
    expect(within(items[0]!).getByRole('link', { name: '2 comments on this message' }).getAttribute('href')).toBe('/voice/comments/v-new');
    expect(within(items[1]!).getByRole('link', { name: '1 comment on this message' }).getAttribute('href')).toBe('/voice/comments/v-old');
    expect(within(items[0]!).getByRole('link', { name: 'Edit this message' }).getAttribute('href')).toBe('/voice/edit/v-new');
    expect(within(screen.getByRole('region', { name: 'Share good news' })).getByText('I passed my test')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Make a complaint' })).toBeNull();
  });

  it('shows the newest 20, then 20 more with "Load more", focus on the first it brought', async () => {
    const at = (i: number) => new Date(Date.UTC(2026, 2, 1) - i * 3_600_000).toISOString();
    fakeReplica.set({
      voiceEntries: Array.from({ length: 25 }, (_, i) =>
        voiceEntry({ id: `v-${i}`, description: `Message ${i}`, created_at: at(i), sort_key: at(i), category_id: i % 2 ? CATEGORY.news : CATEGORY.concern }),
      ),
    });
    renderApp('/voice/entries');
    const shown = () => [...document.querySelectorAll('.voice-item__excerpt')].map((p) => p.textContent);
    await waitFor(() => expect(shown()).toHaveLength(20));
    expect(shown()).not.toContain('Message 20');
    act(() => screen.getByRole('button', { name: 'Load more' }).click());
    await waitFor(() => expect(shown()).toHaveLength(25));
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    await waitFor(() => expect(document.activeElement?.querySelector('.voice-item__excerpt')?.textContent).toBe('Message 20'));
  });
});

describe('the focus after actions on a refused message (WCAG 2.4.3)', () => {
  const refused = () => voiceEntry({ id: 'v-refused', description: 'The heating is off', sync_state: 'failed', sync_message: entryMessages.updateFailed });

  it('Try again: the message’s card has the focus once its refusal (and the button) has gone', async () => {
    // As the device does: the entry waits to send before the answer comes back.
    refusedActions.retry.mockImplementationOnce(async () => {
      act(() => fakeReplica.set({ voiceEntries: [{ ...refused(), sync_state: 'pending', sync_message: null }] }));
      return { ok: true };
    });
    fakeReplica.set({ voiceEntries: [refused()] });
    const { user } = renderApp('/voice/entries');
    const item = (await screen.findByText('The heating is off')).closest('li')!;
    await user.click(within(item).getByRole('button', { name: 'Try again to send this message' }));
    await waitUntil(() => expect(document.activeElement).toBe(item));
    expect(within(item).getByText('Waiting to send')).toBeTruthy();
  });

  it('Discard: a message never sent leaves the list, the page heading has the focus', async () => {
    emulateModalDialogs();
    refusedActions.discard.mockImplementationOnce(async () => {
      act(() => fakeReplica.set({ voiceEntries: [] }));
      return { ok: true };
    });
    fakeReplica.set({ voiceEntries: [refused()] });
    const { user } = renderApp('/voice/entries');
    const item = (await screen.findByText('The heating is off')).closest('li')!;
    await user.click(within(item).getByRole('button', { name: 'Discard this message' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Discard this message?' })).getByRole('button', { name: 'Discard' }));
    expect(await screen.findByText('The message was discarded')).toBeTruthy();
    await waitUntil(() => expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'My messages' })));
  });
});

describe('closed conversations (locked_at)', () => {
  it('a closed message says “Closed” and offers no edit; its conversation stays one tap away', async () => {
    fakeReplica.set({
      voiceEntries: [
        voiceEntry({ id: 'v-open', description: 'Still open', created_at: '2026-03-05T10:00:00.000Z', sort_key: '2026-03-05T10:00:00.000Z' }),
        voiceEntry({ id: 'v-closed', description: 'Sorted now', locked_at: '2026-03-03T10:00:00.000000Z', comments_count: 2 }),
      ],
    });
    renderApp('/voice/entries');
    const [open, closed] = within(await screen.findByRole('region', { name: 'Raise a concern' })).getAllByRole('listitem');
    expect(within(open!).getByText('Sent')).toBeTruthy();
    expect(within(open!).getByRole('link', { name: 'Edit this message' })).toBeTruthy();
    expect(within(closed!).getByText('Closed')).toBeTruthy();
    expect(within(closed!).queryByText('Sent')).toBeNull();
    expect(within(closed!).queryByRole('link', { name: 'Edit this message' })).toBeNull();
    expect(within(closed!).getByRole('link', { name: '2 comments on this message' }).getAttribute('href')).toBe('/voice/comments/v-closed');
  });

  it('/voice/edit of a closed message shows why instead of the form', async () => {
    fakeReplica.set({ voiceEntries: [voiceEntry({ id: 'v-closed', description: 'Sorted now', locked_at: '2026-03-03T10:00:00.000000Z' })] });
    renderApp('/voice/edit/v-closed');
    expect(await screen.findByText(entryMessages.locked)).toBeTruthy();
    expect(screen.queryByDisplayValue('Sorted now')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save changes' })).toBeNull();
    expect(screen.getByRole('link', { name: 'See the conversation' }).getAttribute('href')).toBe('/voice/comments/v-closed');
  });

  it('a lock that arrives while the person is typing keeps the form and their words', async () => {
    fakeReplica.set({ voiceEntries: [voiceEntry({ id: 'v-1', description: 'First words' })] });
    const { user } = renderApp('/voice/edit/v-1');
    const box = (await screen.findByDisplayValue('First words')) as HTMLTextAreaElement;
    await user.type(box, ', and more');
    act(() => fakeReplica.set({ voiceEntries: [voiceEntry({ id: 'v-1', description: 'First words', locked_at: '2026-03-03T10:00:00.000000Z' })] }));
    expect(screen.queryByText(entryMessages.locked)).toBeNull();
    expect((screen.getByDisplayValue('First words, and more') as HTMLTextAreaElement).value).toBe('First words, and more');
  });
});

describe('/voice/edit/:id', () => {
  it('prefills the form and saves the change to that entry', async () => {
    fakeReplica.set({ voiceEntries: [voiceEntry({ id: 'v-1', description: 'First words' })] });
    const { user, router } = renderApp('/voice/edit/v-1');
    const box = (await screen.findByDisplayValue('First words')) as HTMLTextAreaElement;
    await user.type(box, ', more words');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(actions.save).toHaveBeenCalledTimes(1);
    expect(actions.save.mock.calls[0]![0]).toMatchObject({ description: 'First words, more words', categoryId: CATEGORY.concern });
    expect(actions.save.mock.calls[0]![1]).toBe('v-1');
    await waitUntil(() => expect(router.state.location.pathname).toBe('/voice/entries'));
  });

  it('shows the missing-data message for an entry that is not on the device', async () => {
    renderApp('/voice/edit/unknown');
    expect(await screen.findByText(messages.voiceMissingData)).toBeTruthy();
  });
});
