import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { EntryKind } from '@/contract/entry-kind';
import type { FeedbackCounts, Live } from '@/data/hooks';
import type * as RosterHooks from '@/data/hooks/use-todays-roster';
import type { FeedbackDoc, ResidentDoc, RosterDoc } from '@/data/replica';
import { setAccount } from '@/data/session-store';
import { makeAccount } from './support/account';
import { fakeFetch } from './support/fake-fetch';
import { renderApp } from './support/render-app';

/** What the replica "holds": the data layer has its own tests, these feed documents to the screen. */
const replica = vi.hoisted(() => ({
  resident: { data: null, loading: false } as Live<ResidentDoc | null>,
  feedback: { data: [], loading: false } as Live<FeedbackDoc[]>,
  counts: { data: { journal: 0, voice: 0 }, loading: false } as Live<FeedbackCounts>,
  roster: { data: [], loading: false } as Live<RosterDoc[]>,
}));

vi.mock('@/data/hooks/use-resident-details', () => ({ useResidentDetails: () => replica.resident }));
vi.mock('@/data/hooks/use-feedback', () => ({ useFeedback: () => replica.feedback, useFeedbackCounts: () => replica.counts }));
vi.mock('@/data/hooks/use-todays-roster', async (importOriginal) => ({
  ...(await importOriginal<typeof RosterHooks>()),
  useTodaysRoster: () => replica.roster,
}));
vi.mock('@/data/hooks/use-user-photo', () => ({ useUserPhoto: () => null }));

const sync = { sync_state: 'synced', sync_message: null, sync_outbox_id: null } as const;
const ali = { id: '00000000-0000-4000-8000-00000000a111', first_name: 'Ali', last_name: 'Hassan', has_photo: false };
const beth = { id: '00000000-0000-4000-8000-00000000b222', first_name: 'Beth', last_name: 'Okafor', has_photo: true };
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000 - 60_000).toISOString();

function resident(overrides: Partial<ResidentDoc> = {}): ResidentDoc {
  return {
    id: '0c7d1e2f-8a9b-4c3d-9e1f-2a3b4c5d6e7f',
    kind: 'details',
    updated_at: daysAgo(1),
    user_id: '6f1c2b9e-3a41-4c8e-9d2f-1b7a5e3c9d10',
    home_id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
    home: { id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', name: 'Oak House' },
    first_name: 'Samuel',
    last_name: 'Jones',
    preferred_name: 'Sam',
    date_of_birth: null,
    reward_points: 120,
    key_worker: ali,
    app_settings: { journal_colour: 'sky', journal_paper: 'lined', theme: 'fun' },
    journal_enabled: 1,
    voice_enabled: 1,
    rewards_enabled: 1,
    ...sync,
    ...overrides,
  };
}

function feedback(n: number, type: EntryKind, creator: typeof ali, comment: string, ago: number): FeedbackDoc {
  const id = (k: number) => `00000000-0000-4000-8000-${String(n * 10 + k).padStart(12, '0')}`;
  return {
    id: id(1),
    updated_at: daysAgo(ago),
    type,
    resident_id: '0c7d1e2f-8a9b-4c3d-9e1f-2a3b4c5d6e7f',
    entry_id: id(2),
    comment_id: id(3),
    count: n === 1 ? 2 : 1,
    awaiting_resident_response: true,
    locked_at: null,
    reaction: null,
    entry: { id: id(2), excerpt: `Entry ${n}`, created_at: daysAgo(ago + 1) },
    category: type === 'voice' ? { id: id(4), name: 'Raise a concern' } : null,
    latest_comment: { id: id(3), comment, created_at: daysAgo(ago), creator },
    ...sync,
  };
}

function shift(n: number, user: typeof ali, starts_at: string, ends_at: string): RosterDoc {
  return {
    id: `00000000-0000-4000-8000-${String(900 + n).padStart(12, '0')}`,
    updated_at: daysAgo(0),
    home_id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
    user_id: user.id,
    shift_date: '2024-01-01',
    starts_at,
    ends_at,
    user,
    ...sync,
  };
}

beforeEach(() => {
  replica.resident = { data: resident(), loading: false };
  replica.feedback = {
    data: [
      feedback(1, 'voice', beth, 'Thanks for telling us, we will fix the lock today.', 0.5),
      feedback(2, 'journal', ali, 'Brilliant goal! Proud of you.', 2),
      feedback(3, 'journal', beth, 'Good luck with the test.', 5),
    ],
    loading: false,
  };
  replica.counts = { data: { journal: 2, voice: 1 }, loading: false };
  replica.roster = { data: [shift(1, beth, '07:00', '15:00'), shift(2, ali, '14:30', '22:30')], loading: false };
  fakeFetch();
});

describe('dashboard', () => {
  it('greets by preferred name and shows the reward points as a link to /rewards', async () => {
    setAccount(makeAccount({ flags: { rewards_enabled: 1 } }));
    renderApp('/dashboard');
    expect(await screen.findByRole('heading', { level: 1, name: 'Hi Sam' })).toBeTruthy();
    const points = screen.getByRole('link', { name: /You have 120 points/ });
    expect(points.getAttribute('href')).toBe('/rewards');
  });

  it('hides the points when rewards are switched off', async () => {
    setAccount(makeAccount({ flags: { rewards_enabled: 0 } }));
    renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Hi Sam' });
    expect(screen.queryByText(/You have \d+ points?/)).toBeNull();
  });

  it('lists replies in the order given, with who, what, when, counts per type and links to the threads', async () => {
    setAccount(makeAccount());
    renderApp('/dashboard');
    const replies = await screen.findByRole('region', { name: 'New replies' });
    const list = await within(replies).findByRole('list', { name: 'New replies' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items.map((li) => li.querySelector('.reply__who')?.textContent)).toEqual(['Beth Okafor', 'Ali Hassan', 'Beth Okafor']);

    expect(items[0]!.textContent).toContain('Thanks for telling us, we will fix the lock today.');
    expect(items[0]!.textContent).toContain('your voice: Raise a concern');
    expect(within(items[0]!).getByText('2 new comments')).toBeTruthy();
    expect(within(items[1]!).getByText('2 days ago').getAttribute('datetime')).toBe(replica.feedback.data[1]!.latest_comment.created_at);
    expect(items[1]!.textContent).toContain('Brilliant goal! Proud of you.');

    const links = items.map((li) => within(li).getByRole('link'));
    expect(links[0]!.getAttribute('href')).toBe(`/voice/comments/${replica.feedback.data[0]!.entry_id}`);
    expect(links[1]!.getAttribute('href')).toBe(`/entries/comments/${replica.feedback.data[1]!.entry_id}`);
    expect(links[1]!.textContent).toBe('Read and reply to Ali Hassan');

    const badges = within(replies).getByRole('list', { name: 'Replies waiting' });
    expect(within(badges).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Journal 2', 'Voice 1']);
  });

  it('shows "No new replies" when nothing awaits an answer', async () => {
    replica.feedback = { data: [], loading: false };
    replica.counts = { data: { journal: 0, voice: 0 }, loading: false };
    setAccount(makeAccount());
    renderApp('/dashboard');
    expect(await within(await screen.findByRole('region', { name: 'New replies' })).findByText('No new replies')).toBeTruthy();
  });

  it("lists who is working today with names and shift hours, and marks the key worker", async () => {
    setAccount(makeAccount());
    renderApp('/dashboard');
    const list = await screen.findByRole('list', { name: "Who's working today" });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual(['BOBeth Okafor07:00–15:00', 'AHAli HassanYour key worker14:30–22:30']);
    expect(items[0]!.querySelector('time')?.getAttribute('datetime')).toBe('07:00');
  });

  it('says so when nobody is on the rota today', async () => {
    replica.roster = { data: [], loading: false };
    setAccount(makeAccount());
    renderApp('/dashboard');
    expect(await screen.findByText('No staff on the rota for today yet.')).toBeTruthy();
    expect(screen.queryByRole('list', { name: "Who's working today" })).toBeNull();
  });

  it('shows the home and key worker', async () => {
    setAccount(makeAccount());
    renderApp('/dashboard');
    const details = await screen.findByRole('region', { name: 'About you' });
    expect(within(details).getByText('Oak House')).toBeTruthy();
    expect(within(details).getByText(/Ali\s+Hassan/)).toBeTruthy();
  });

  it('shows "Loading…" only while loading with nothing to show; data wins over a pending first pull', async () => {
    replica.roster = { data: [], loading: true };
    replica.feedback = { ...replica.feedback, loading: true };
    setAccount(makeAccount());
    renderApp('/dashboard');
    const roster = await screen.findByRole('region', { name: "Who's working today" });
    expect(within(roster).getByText('Loading…')).toBeTruthy();
    expect(within(roster).queryByText('No staff on the rota for today yet.')).toBeNull();
    const replies = screen.getByRole('region', { name: 'New replies' });
    expect(within(replies).queryByText('Loading…')).toBeNull();
    expect(within(replies).getAllByRole('link', { name: /^Read and reply/ })).toHaveLength(3);
  });

  it('shows the newest five replies and the way to all of them on /feedback', async () => {
    replica.feedback = {
      data: Array.from({ length: 7 }, (_, i) => feedback(i + 1, i % 2 ? 'voice' : 'journal', i % 2 ? beth : ali, `Reply ${i + 1}`, i + 1)),
      loading: false,
    };
    replica.counts = { data: { journal: 4, voice: 3 }, loading: false };
    setAccount(makeAccount());
    const { user } = renderApp('/dashboard');
    const replies = await screen.findByRole('region', { name: 'New replies' });
    const list = within(replies).getByRole('list', { name: 'New replies' });
    expect(within(list).getAllByRole('listitem').map((li) => li.querySelector('.reply__comment')?.textContent)).toEqual(
      ['“Reply 1”', '“Reply 2”', '“Reply 3”', '“Reply 4”', '“Reply 5”'],
    );
    await user.click(within(replies).getByRole('link', { name: 'See all 7 new replies' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Feedback' })).toBeTruthy();
  });

  it('after a notification whose item is gone, says why the dashboard opened', async () => {
    setAccount(makeAccount());
    renderApp({ pathname: '/dashboard', state: { gone: true } });
    expect(await screen.findByText('What that notification was about is no longer in Hearth, so here is your dashboard.')).toBeTruthy();
  });
});
