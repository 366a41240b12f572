import { act, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { EntryKind } from '@/contract/entry-kind';
import type { FeedbackCounts, Live } from '@/data/hooks';
import type { FeedbackDoc } from '@/data/replica';
import { setAccount } from '@/data/session-store';
import { makeAccount } from './support/account';
import { fakeFetch } from './support/fake-fetch';
import { renderApp } from './support/render-app';

/**
 * /feedback (issue 10) through the real routes and providers. The replica's queries have their own
 * tests (tests/data/replica-queries.test.ts); here a live fake stands in for them: setting new items
 * re-renders every reader, as the replica's reactive query does when staff comment or a reply lands.
 */
const replica = vi.hoisted(() => {
  const listeners = new Set<() => void>();
  const state = { feedback: { data: [] as unknown[], loading: false }, counts: { data: { journal: 0, voice: 0 }, loading: false } };
  return {
    state,
    listeners,
    set(feedback: { data: unknown[]; loading: boolean }) {
      const counts = { journal: 0, voice: 0 } as Record<string, number>;
      for (const item of feedback.data as { type: string }[]) counts[item.type] = (counts[item.type] ?? 0) + 1;
      state.feedback = feedback;
      state.counts = { data: counts as { journal: number; voice: number }, loading: false };
      listeners.forEach((l) => l());
    },
  };
});

vi.mock('@/data/hooks/use-feedback', async () => {
  const { useSyncExternalStore } = await import('react');
  const subscribe = (listener: () => void) => {
    replica.listeners.add(listener);
    return () => replica.listeners.delete(listener);
  };
  return {
    useFeedback: () => useSyncExternalStore(subscribe, () => replica.state.feedback) as Live<FeedbackDoc[]>,
    useFeedbackCounts: () => useSyncExternalStore(subscribe, () => replica.state.counts) as Live<FeedbackCounts>,
  };
});
vi.mock('@/data/hooks/use-user-photo', () => ({ useUserPhoto: () => null }));

const sync = { sync_state: 'synced', sync_message: null, sync_outbox_id: null } as const;
const ali = { id: '00000000-0000-4000-8000-00000000a111', first_name: 'Ali', last_name: 'Hassan', has_photo: false };
const beth = { id: '00000000-0000-4000-8000-00000000b222', first_name: 'Beth', last_name: 'Okafor', has_photo: false };
const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();

function item(n: number, type: EntryKind, creator: typeof ali, comment: string, ago: number): FeedbackDoc {
  const id = (k: number) => `00000000-0000-4000-8000-${String(n * 10 + k).padStart(12, '0')}`;
  return {
    id: id(1),
    updated_at: hoursAgo(ago),
    type,
    resident_id: '0c7d1e2f-8a9b-4c3d-9e1f-2a3b4c5d6e7f',
    entry_id: id(2),
    comment_id: id(3),
    count: 1,
    awaiting_resident_response: true,
    locked_at: null,
    reaction: null,
    entry: { id: id(2), excerpt: `Entry ${n}`, created_at: hoursAgo(ago + 1) },
    category: type === 'voice' ? { id: id(4), name: 'Message staff' } : null,
    latest_comment: { id: id(3), comment, created_at: hoursAgo(ago), creator },
    ...sync,
  };
}

/** Newest comment first, as the replica's query sorts them (SPEC §4). */
const three = () => [
  item(1, 'voice', beth, 'We will sort the lock today.', 1),
  item(2, 'journal', ali, 'Brilliant goal!', 3),
  item(3, 'journal', beth, 'Good luck with the test.', 30),
];

const group = (name: string) => screen.getByRole('region', { name: new RegExp(`^${name}`) });
const comments = (region: HTMLElement) => within(region).queryAllByRole('listitem').map((li) => li.querySelector('.reply__comment')?.textContent);

beforeEach(() => {
  replica.set({ data: three(), loading: false });
  fakeFetch();
});

describe('the feedback page', () => {
  it('lists every reply waiting, grouped under a heading per type with its count, newest first, each opening its thread', async () => {
    setAccount(makeAccount());
    renderApp('/feedback');
    expect(await screen.findByRole('heading', { level: 1, name: 'Feedback' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Journal 2 waiting' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Voice 1 waiting' })).toBeTruthy();

    const journal = group('Journal');
    expect(comments(journal)).toEqual(['“Brilliant goal!”', '“Good luck with the test.”']);
    const journalLinks = within(journal).getAllByRole('link');
    expect(journalLinks.map((a) => a.getAttribute('href'))).toEqual([`/entries/comments/${three()[1]!.entry_id}`, `/entries/comments/${three()[2]!.entry_id}`]);
    expect(journalLinks[0]!.textContent).toBe('Read and reply to Ali Hassan');

    const voice = group('Voice');
    expect(comments(voice)).toEqual(['“We will sort the lock today.”']);
    expect(within(voice).getByRole('link').getAttribute('href')).toBe(`/voice/comments/${three()[0]!.entry_id}`);
    expect(voice.textContent).toContain('your voice: Message staff');
    expect(document.title).toBe('Hearth - Feedback');
  });

  it('has the same counts as the dashboard badges and the menu', async () => {
    setAccount(makeAccount());
    const { router, user } = renderApp('/dashboard');
    const badges = within(await screen.findByRole('region', { name: 'New replies' })).getByRole('list', { name: 'Replies waiting' });
    expect(within(badges).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Journal 2', 'Voice 1']);
    await user.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('button', { name: 'Menu' }));
    const feedbackLink = within(screen.getByRole('navigation', { name: 'More' })).getByRole('link', { name: /^Feedback/ });
    expect(feedbackLink.textContent).toBe('Feedback3 new replies');

    await act(() => router.navigate('/feedback'));
    expect(await screen.findByRole('heading', { level: 2, name: 'Journal 2 waiting' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Voice 1 waiting' })).toBeTruthy();
    expect(within(group('Journal')).getAllByRole('listitem')).toHaveLength(2);
    expect(within(group('Voice')).getAllByRole('listitem')).toHaveLength(1);
  });

  it('updates live: a staff reply appears at the top of its group, an answered one leaves', async () => {
    setAccount(makeAccount());
    renderApp('/feedback');
    await screen.findByRole('heading', { level: 2, name: 'Journal 2 waiting' });

    act(() => replica.set({ data: [item(4, 'journal', ali, 'Just read this, well done.', 0.1), ...three()], loading: false }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Journal 3 waiting' })).toBeTruthy();
    expect(comments(group('Journal'))[0]).toBe('“Just read this, well done.”');

    // Jamie replied to the voice message: the server no longer awaits an answer there.
    act(() => replica.set({ data: [item(4, 'journal', ali, 'Just read this, well done.', 0.1), ...three().filter((i) => i.type === 'journal')], loading: false }));
    expect(await screen.findByText('No new replies on your Voice messages.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Voice 0 waiting' })).toBeTruthy();
    expect(within(group('Voice')).queryAllByRole('listitem')).toEqual([]);
  });

  it('says so when nothing awaits an answer', async () => {
    replica.set({ data: [], loading: false });
    setAccount(makeAccount());
    renderApp('/feedback');
    expect(await screen.findByRole('heading', { level: 2, name: 'No new replies.' })).toBeTruthy();
    expect(screen.getByText('When staff reply to your journal or to Voice, you will see it here.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to dashboard' }).getAttribute('href')).toBe('/dashboard');
  });

  it('shows "Loading…" only while the replica has nothing yet', async () => {
    replica.set({ data: [], loading: true });
    setAccount(makeAccount());
    renderApp('/feedback');
    expect(await screen.findByText('Loading…')).toBeTruthy();
    expect(screen.queryByText('No new replies.')).toBeNull();
    act(() => replica.set({ data: three(), loading: true }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Journal 2 waiting' })).toBeTruthy();
    expect(screen.queryByText('Loading…')).toBeNull();
  });

  it("closes the menu when one of its links is followed, and going back does not open it again", async () => {
    setAccount(makeAccount());
    const { router, user } = renderApp('/dashboard');
    const menuButton = () => within(screen.getByRole('navigation', { name: 'Main' })).getByRole('button', { name: 'Menu' });
    await screen.findByRole('region', { name: 'New replies' });
    await user.click(menuButton());
    expect(menuButton().getAttribute('aria-expanded')).toBe('true');
    await user.click(within(screen.getByRole('navigation', { name: 'More' })).getByRole('link', { name: /^Feedback/ }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Journal 2 waiting' })).toBeTruthy();
    expect(menuButton().getAttribute('aria-expanded')).toBe('false');
    await act(() => router.navigate(-1));
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(menuButton().getAttribute('aria-expanded')).toBe('false');
  });

  it('leaves out a type whose feature is switched off, in the groups and the counts', async () => {
    setAccount(makeAccount({ flags: { voice_enabled: 0 } }));
    const { user } = renderApp('/feedback');
    expect(await screen.findByRole('heading', { level: 2, name: 'Journal 2 waiting' })).toBeTruthy();
    expect(screen.queryByRole('heading', { level: 2, name: /^Voice/ })).toBeNull();
    expect(screen.queryByText('“We will sort the lock today.”')).toBeNull();
    await user.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('button', { name: 'Menu' }));
    expect(within(screen.getByRole('navigation', { name: 'More' })).getByRole('link', { name: /^Feedback/ }).textContent).toBe('Feedback2 new replies');
  });

  it('works offline from the replica (the offline guard lets it through)', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    setAccount(makeAccount());
    renderApp('/feedback');
    expect(await screen.findByRole('heading', { level: 2, name: 'Journal 2 waiting' })).toBeTruthy();
    expect(screen.queryByRole('heading', { level: 1, name: 'You need to be online for this page' })).toBeNull();
  });
});
