import { act, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '@/contract/messages';
import { setAccount } from '@/data/session-store';
import { makeAccount } from './support/account';
import { categories, comment, emojis, journalEntry, voiceEntry } from './support/entry-fixtures';
import { fakeFetch } from './support/fake-fetch';
import { fakeReplica } from './support/fake-replica';
import { renderApp } from './support/render-app';

// One shared thread page (src/entries/components/entry-thread-page.tsx) under both routes: what differs per kind
// (heading, back link) comes from the feature's thin wrapper.
vi.mock('@/entries/hooks/use-entries', async () => {
  const { entryHooks } = await import('./support/fake-replica');
  return entryHooks;
});
vi.mock('@/entries/hooks/use-comments', async () => {
  const { entryHooks } = await import('./support/fake-replica');
  return { useComments: entryHooks.useComments };
});
vi.mock('@/entries/hooks/use-entry-file', () => ({ useEntryFile: () => null }));
vi.mock('@/data/hooks/use-user-photo', () => ({ useUserPhoto: () => null }));

beforeEach(() => {
  if (typeof globalThis.CSS?.escape !== 'function') {
    Object.assign((globalThis.CSS ??= {} as typeof CSS), { escape: (value: string) => value.replace(/([^\w-])/g, '\\$1') });
  }
  fakeReplica.reset();
  fakeReplica.set({ voiceEntries: [voiceEntry()], journalEntries: [journalEntry()], categories: categories(), emojis: emojis(), comments: [] });
  fakeFetch();
  setAccount(makeAccount());
});

const footerLink = (name: string) => screen.getAllByRole('link', { name }).find((l) => !l.classList.contains('button'));

describe('shared entry thread page', () => {
  it('journal: heading "Comments", the thread, and a link back to journal entries', async () => {
    renderApp(`/entries/comments/${journalEntry().id}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Comments' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Comments' })).toBeTruthy();
    expect(footerLink('Back to journal entries')?.getAttribute('href')).toBe('/journal/entries');
  });

  it('voice: heading names the category, and the link goes back to my messages', async () => {
    renderApp(`/voice/comments/${voiceEntry().id}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Comments: Raise a concern' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Comments' })).toBeTruthy();
    expect(footerLink('Back to my messages')?.getAttribute('href')).toBe('/voice/entries');
  });

  it('while the entry loads, only "Loading…": the way back comes with the thread, not above it to be pushed off the screen', async () => {
    fakeReplica.set({ loading: true, journalEntries: [] });
    renderApp(`/entries/comments/${journalEntry().id}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Comments' })).toBeTruthy();
    expect(screen.getByText('Loading…')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Back to journal entries' })).toBeNull();

    act(() => fakeReplica.set({ loading: false, journalEntries: [journalEntry()] }));
    expect(await screen.findByRole('region', { name: 'Comments' })).toBeTruthy();
    expect(footerLink('Back to journal entries')?.getAttribute('href')).toBe('/journal/entries');
  });

  it('the reply form and the way back wait for the comments, which would push them down the screen as they came', async () => {
    fakeReplica.set({ commentsLoading: true, journalEntries: [journalEntry({ comments_count: 1 })] });
    renderApp(`/entries/comments/${journalEntry().id}`);
    expect(await screen.findByRole('region', { name: 'Comments' })).toBeTruthy();
    expect(screen.getByText('Loading…')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Reply' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Back to journal entries' })).toBeNull();

    act(() => fakeReplica.set({ commentsLoading: false, comments: [comment({ entry_id: journalEntry().id })] }));
    expect(await screen.findByRole('region', { name: 'Reply' })).toBeTruthy();
    expect(footerLink('Back to journal entries')?.getAttribute('href')).toBe('/journal/entries');
  });

  it('an entry with no comments on the server has none to wait for: the reply form shows while the thread is pulled', async () => {
    fakeReplica.set({ commentsLoading: true, journalEntries: [journalEntry({ comments_count: 0 })] });
    renderApp(`/entries/comments/${journalEntry().id}`);
    // With the thread, not after TOGETHER_MAX_MS.
    expect(await screen.findByRole('region', { name: 'Comments' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Reply' })).toBeTruthy();
    expect(footerLink('Back to journal entries')?.getAttribute('href')).toBe('/journal/entries');
  });

  it('the reply form waits for the emojis too: their row filling in pushed the file picker down', async () => {
    fakeReplica.set({ emojisLoading: true, emojis: [] });
    renderApp(`/entries/comments/${journalEntry().id}`);
    expect(await screen.findByRole('region', { name: 'Comments' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Reply' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Back to journal entries' })).toBeNull();

    act(() => fakeReplica.set({ emojisLoading: false, emojis: emojis() }));
    const reply = await screen.findByRole('region', { name: 'Reply' });
    expect(within(reply).getAllByRole('radio').length).toBe(emojis().length + 1);
    expect(footerLink('Back to journal entries')?.getAttribute('href')).toBe('/journal/entries');
  });

  it.each([
    ['/entries/comments/not-here', 'Back to journal entries', '/journal/entries'],
    ['/voice/comments/not-here', 'Back to my messages', '/voice/entries'],
  ])('%s: an entry not on the device shows the missing-data state with its own way back', async (path, label, href) => {
    renderApp(path);
    expect(await screen.findByText(messages.voiceMissingData)).toBeTruthy();
    expect(screen.getByText('We can’t show this entry.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Comments' })).toBeTruthy();
    const links = screen.getAllByRole('link', { name: label });
    expect(links).toHaveLength(2);
    for (const link of links) expect(link.getAttribute('href')).toBe(href);
    expect(within(document.body).queryByRole('region', { name: 'Comments' })).toBeNull();
  });
});
