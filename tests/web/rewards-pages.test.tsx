import { act, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { rewardMessages } from '@/contract/rewards';
import type { Live, PointsSummary } from '@/data/hooks';
import type { RewardDoc, RewardExchangeDoc } from '@/data/replica/types';
import { setAccount } from '@/data/session-store';
import { makeAccount } from './support/account';
import { fakeFetch } from './support/fake-fetch';
import { renderApp } from './support/render-app';
import { waitUntil } from '../support/wait';

/** What the replica "holds" (the data layer has its own tests, tests/data/rewards-sync.test.ts). */
const fake = vi.hoisted(() => ({
  rewards: [] as unknown[],
  history: [] as unknown[],
  loading: false,
  points: null as unknown,
  exchange: vi.fn(async (_id: string) => ({ ok: true, id: '00000000-0000-4000-8000-000000000900', queuedOffline: false }) as unknown),
  retry: vi.fn(async (_id: string) => ({ ok: true, id: '', queuedOffline: false }) as unknown),
  remove: vi.fn(async (_id: string) => true),
}));

vi.mock('@/features/rewards/hooks/use-rewards', () => ({
  useRewards: (): Live<RewardDoc[]> => ({ data: fake.rewards as RewardDoc[], loading: fake.loading }),
  useReward: (id: string): Live<RewardDoc | null> => ({ data: (fake.rewards as RewardDoc[]).find((r) => r.id === id) ?? null, loading: fake.loading }),
}));
vi.mock('@/features/rewards/hooks/use-reward-history', () => ({
  useRewardHistory: (): Live<RewardExchangeDoc[]> => ({ data: fake.history as RewardExchangeDoc[], loading: fake.loading }),
  useExchange: (id: string | null): Live<RewardExchangeDoc | null> => ({ data: (fake.history as RewardExchangeDoc[]).find((e) => e.id === id) ?? null, loading: false }),
}));
vi.mock('@/data/hooks/use-points', () => ({ usePoints: (): Live<PointsSummary | null> => ({ data: fake.points as PointsSummary | null, loading: false }) }));
vi.mock('@/entries/hooks/use-entry-file', () => ({ useEntryFile: () => null, useEntryFileView: () => null }));
vi.mock('@/data/hooks/use-user-photo', () => ({ useUserPhoto: () => null }));
vi.mock('@/features/rewards/actions/exchange-reward', () => ({ exchangeReward: fake.exchange }));
vi.mock('@/features/rewards/actions/retry-exchange', () => ({ retryExchange: fake.retry }));
vi.mock('@/features/rewards/actions/remove-exchange', () => ({ removeExchange: fake.remove }));

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const sync = { sync_state: 'synced', sync_message: null, sync_outbox_id: null } as const;
const ALI = { id: uuid(77), first_name: 'Ali', last_name: 'Hassan', has_photo: false };

function reward(n: number, name: string, points: number, extra: Partial<RewardDoc> = {}): RewardDoc {
  return {
    id: uuid(n),
    updated_at: '2026-03-01T09:00:00.000000Z',
    created_at: '2026-03-01T09:00:00.000000Z',
    home_id: uuid(3),
    name,
    description: `All about ${name}`,
    points,
    image: { id: uuid(100 + n), name: `${n}.webp`, mime: 'image/webp', size: 2000 },
    active: true,
    position: n,
    ...extra,
  };
}

function exchange(n: number, name: string, points: number, status: RewardExchangeDoc['status'], extra: Partial<RewardExchangeDoc> = {}): RewardExchangeDoc {
  const created = `2026-03-${String(10 + n).padStart(2, '0')}T10:00:00.000000Z`;
  return {
    id: uuid(500 + n),
    kind: 'exchange',
    sort_key: created,
    local_only: false,
    updated_at: created,
    created_at: created,
    resident_id: uuid(2),
    reward_id: uuid(n),
    reward: { id: uuid(n), name, image: null },
    points,
    points_adjustment: status === 'denied' ? 0 : -points,
    refunded_points: status === 'denied' ? points : 0,
    status,
    note: null,
    decided_by: status === 'pending' ? null : ALI,
    decided_at: status === 'pending' ? null : created,
    ...sync,
    ...extra,
  };
}

beforeEach(() => {
  fake.rewards = [reward(1, 'Later bedtime', 30), reward(2, 'A new book', 40), reward(3, 'Pizza night', 60), reward(4, 'Cinema trip', 100, { image: null })];
  fake.history = [];
  fake.loading = false;
  fake.points = { balance: 50, pending: 0, spending: 0 };
  fake.exchange.mockClear();
  fake.retry.mockClear();
  fake.remove.mockClear();
  fakeFetch();
  setAccount(makeAccount({ flags: { rewards_enabled: 1 } }));
});

const card = (name: string) => screen.getByRole('article', { name });
const balanceLine = () => document.querySelector('.rewards__balance p')!;

describe('/rewards', () => {
  it('lists every reward with its cost and, in words, whether the balance covers it; only affordable ones offer the swap', async () => {
    renderApp('/rewards');
    const list = await screen.findByRole('list', { name: 'Rewards' });
    expect(within(list).getAllByRole('article').map((a) => within(a).getByRole('heading').textContent)).toEqual([
      'Later bedtime',
      'A new book',
      'Pizza night',
      'Cinema trip',
    ]);
    expect(balanceLine().textContent).toBe('You have 50 points');

    const bedtime = card('Later bedtime');
    expect(bedtime.textContent).toContain('Costs 30 points');
    expect(bedtime.textContent).toContain('You have enough points');
    expect(within(bedtime).getByRole('link', { name: 'Swap points for Later bedtime' }).getAttribute('href')).toBe(`/rewards/${uuid(1)}/confirmation`);

    const pizza = card('Pizza night');
    expect(pizza.textContent).toContain('Costs 60 points');
    expect(pizza.textContent).toContain('You need 10 more points');
    expect(pizza.textContent).not.toContain('You have enough points');
    expect(within(pizza).queryByRole('link')).toBeNull();
    expect(card('Cinema trip').textContent).toContain('You need 50 more points');

    expect(screen.getByRole('link', { name: 'Your reward history' }).getAttribute('href')).toBe('/rewards/history');
    await waitUntil(() => expect(document.title).toBe('Hearth - Rewards'));
  });

  it('says what is on its way and what is set aside for a swap waiting to be sent', async () => {
    fake.points = { balance: 20, pending: 20, spending: 30 };
    renderApp('/rewards');
    await screen.findByRole('list', { name: 'Rewards' });
    expect(balanceLine().textContent).toBe('You have 20 points · 20 points on their way');
    expect(screen.getByText('30 points are set aside for a swap that is waiting to be sent.')).toBeTruthy();
    expect(card('A new book').textContent).toContain('You need 20 more points');
  });

  it('one point set aside is said in the singular', async () => {
    fake.points = { balance: 20, pending: 0, spending: 1 };
    renderApp('/rewards');
    expect(await screen.findByText('1 point is set aside for a swap that is waiting to be sent.')).toBeTruthy();
  });

  it('an empty catalogue says so', async () => {
    fake.rewards = [];
    renderApp('/rewards');
    expect(await screen.findByRole('heading', { name: 'No rewards to choose from yet.' })).toBeTruthy();
  });
});

describe('/rewards/{id}/confirmation', () => {
  it('asks before spending, with the balance after; confirming queues the swap and opens the congratulations', async () => {
    const { user, router } = renderApp(`/rewards/${uuid(2)}/confirmation`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Swap 40 points for A new book?' })).toBeTruthy();
    expect(screen.getByText(/After this swap/).textContent).toBe('You have 50 points. After this swap you will have 10 points.');
    expect(screen.getByText(/staff will look at it/i)).toBeTruthy();
    await waitUntil(() => expect(document.title).toBe('Hearth - Confirm reward'));
    await user.click(screen.getByRole('button', { name: 'Yes, swap my points' }));
    expect(fake.exchange).toHaveBeenCalledWith(uuid(2));
    await waitUntil(() => expect(router.state.location.pathname).toBe(`/rewards/${uuid(2)}/congratulations`));
    expect(router.state.location.search).toBe(`?exchange=${uuid(900)}`);
  });

  it('"Yes, swap my points" keeps the focus while it works (aria-disabled, not disabled) and on a refusal', async () => {
    let answer: (value: unknown) => void = () => undefined;
    fake.exchange.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    const { user } = renderApp(`/rewards/${uuid(2)}/confirmation`);
    const yes = await screen.findByRole('button', { name: 'Yes, swap my points' });
    await user.click(yes);
    const sending = await screen.findByRole('button', { name: 'Swapping…' });
    expect(sending).toBe(yes);
    expect(sending.getAttribute('aria-disabled')).toBe('true');
    expect((sending as HTMLButtonElement).disabled).toBe(false);
    await user.click(sending);
    expect(fake.exchange).toHaveBeenCalledTimes(1);
    await act(async () => answer({ ok: false, message: rewardMessages.redeemFailed, errors: {} }));
    expect((await screen.findByRole('alert')).textContent).toBe(rewardMessages.redeemFailed);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Yes, swap my points' }));
  });

  it('Not now goes back to the rewards without spending', async () => {
    const { user, router } = renderApp(`/rewards/${uuid(1)}/confirmation`);
    await user.click(await screen.findByRole('link', { name: 'Not now' }));
    await waitUntil(() => expect(router.state.location.pathname).toBe('/rewards'));
    expect(fake.exchange).not.toHaveBeenCalled();
  });

  it('a refusal on the device shows SPEC §8 text and why, and stays on the page', async () => {
    fake.exchange.mockResolvedValueOnce({ ok: false, message: rewardMessages.redeemFailed, errors: { points: [rewardMessages.notEnoughPoints] } });
    const { user, router } = renderApp(`/rewards/${uuid(2)}/confirmation`);
    await user.click(await screen.findByRole('button', { name: 'Yes, swap my points' }));
    expect((await screen.findByRole('alert')).textContent).toBe(`${rewardMessages.redeemFailed} ${rewardMessages.notEnoughPoints}.`);
    expect(router.state.location.pathname).toBe(`/rewards/${uuid(2)}/confirmation`);
    expect(screen.getByRole('button', { name: 'Yes, swap my points' })).toBeTruthy();
  });

  it('an unaffordable reward offers no confirm button and says how many more points it needs', async () => {
    renderApp(`/rewards/${uuid(3)}/confirmation`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Pizza night' })).toBeTruthy();
    expect(screen.getByText(/so you need/).textContent).toContain('Pizza night costs 60 points. You have 50 points, so you need 10 more points');
    expect(screen.queryByRole('button', { name: /swap/i })).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to rewards' })).toBeTruthy();
  });

  it('a reward that is not in the catalogue (withdrawn, paused, unknown) cannot be confirmed', async () => {
    renderApp(`/rewards/${uuid(42)}/confirmation`);
    expect(await screen.findByRole('heading', { name: 'We can’t find this reward.' })).toBeTruthy();
    expect(screen.getByText(/paused or removed by staff/)).toBeTruthy();
    expect(within(screen.getByRole('main')).queryByRole('button')).toBeNull();
  });
});

describe('/rewards/{id}/congratulations', () => {
  it('celebrates calmly: what was swapped, that staff will confirm it, the balance; no way back to spending more', async () => {
    fake.history = [exchange(2, 'A new book', 40, 'pending')];
    fake.points = { balance: 10, pending: 0, spending: 0 };
    renderApp(`/rewards/${uuid(2)}/congratulations?exchange=${uuid(502)}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Well done!' })).toBeTruthy();
    const main = screen.getByRole('main');
    expect(main.textContent).toContain('You swapped 40 points for A new book.');
    expect(main.textContent).toContain('A member of staff will look at it and confirm it with you.');
    expect(main.textContent).toContain('You now have 10 points.');
    expect(within(main).getByRole('link', { name: 'See your reward history' }).getAttribute('href')).toBe('/rewards/history');
    expect(within(main).queryByRole('link', { name: /reward$|rewards$|swap|spend|more/i })).toBeNull();
    expect(within(main).queryAllByRole('link').map((a) => a.getAttribute('href'))).not.toContain('/rewards');
    await waitUntil(() => expect(document.title).toBe('Hearth - Congratulations'));
  });

  it('offline: says the swap will be sent when back online', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    fake.history = [exchange(2, 'A new book', 40, 'pending', { sync_state: 'pending', local_only: true })];
    renderApp(`/rewards/${uuid(2)}/congratulations?exchange=${uuid(502)}`);
    expect(await screen.findByText('You are offline. Your swap is saved on this device and will be sent when you are back online.')).toBeTruthy();
    vi.restoreAllMocks();
  });

  it('a denied swap says the points were given back (one point: "was")', async () => {
    fake.history = [exchange(2, 'A sticker', 1, 'denied')];
    renderApp(`/rewards/${uuid(2)}/congratulations?exchange=${uuid(502)}`);
    expect(await screen.findByText('Staff said no this time, so your 1 point was given back.')).toBeTruthy();
  });

  it('a swap the server refused says so with SPEC §8 text', async () => {
    fake.history = [exchange(2, 'A new book', 40, 'pending', { sync_state: 'failed', sync_message: rewardMessages.redeemFailed, local_only: true })];
    renderApp(`/rewards/${uuid(2)}/congratulations?exchange=${uuid(502)}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Your swap was not sent' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain(rewardMessages.redeemFailed);
  });
});

describe('/rewards/history', () => {
  it('shows every status in words with its points adjustment, and staff notes', async () => {
    fake.history = [
      exchange(5, 'Cinema trip', 100, 'pending', { sync_state: 'failed', sync_message: rewardMessages.redeemFailed, local_only: true }),
      exchange(4, 'Gaming time', 80, 'pending', { sync_state: 'pending', local_only: true }),
      exchange(3, 'Later bedtime', 30, 'pending'),
      exchange(2, 'Pizza night', 60, 'denied', { note: 'Not this week' }),
      exchange(1, 'A new book', 40, 'approved'),
    ];
    renderApp('/rewards/history');
    const items = await screen.findAllByRole('article');
    expect(items.map((a) => within(a).getByRole('heading').textContent)).toEqual(['Cinema trip', 'Gaming time', 'Later bedtime', 'Pizza night', 'A new book']);
    const text = (name: string) => card(name).textContent ?? '';
    expect(text('A new book')).toContain('Approved');
    expect(text('A new book')).toContain('Points: −40 points');
    expect(text('Later bedtime')).toContain('Waiting for staff');
    expect(text('Later bedtime')).toContain('Points: −30 points');
    expect(text('Pizza night')).toContain('Denied');
    expect(text('Pizza night')).toContain('Points given back: +60 points');
    expect(text('Pizza night')).toContain('Staff said: “Not this week”');
    expect(text('Gaming time')).toContain('Waiting to send');
    expect(text('Gaming time')).toContain('Points: −80 points');
    expect(within(card('Gaming time')).queryByRole('button')).toBeNull();
    expect(text('Cinema trip')).toContain('Not sent');
    expect(text('Cinema trip')).toContain(rewardMessages.redeemFailed);
    expect(text('Cinema trip')).toContain('No points taken');
    await waitUntil(() => expect(document.title).toBe('Hearth - Reward history'));
  });

  it('a refused swap offers Try again and Remove', async () => {
    fake.history = [exchange(5, 'Cinema trip', 100, 'pending', { sync_state: 'failed', sync_message: rewardMessages.redeemFailed, local_only: true }), exchange(1, 'A new book', 40, 'approved')];
    const { user } = renderApp('/rewards/history');
    await user.click(await screen.findByRole('button', { name: 'Try again to swap for Cinema trip' }));
    expect(fake.retry).toHaveBeenCalledWith(uuid(505));
    await user.click(screen.getByRole('button', { name: 'Remove the swap for Cinema trip' }));
    expect(fake.remove).toHaveBeenCalledWith(uuid(505));
    await waitUntil(() => expect(document.activeElement?.textContent).toBe('Your swaps'));
  });

  it('Try again: the button keeps the focus while it works (aria-disabled, not disabled), then the swap itself has it', async () => {
    fake.history = [exchange(5, 'Cinema trip', 100, 'pending', { sync_state: 'failed', sync_message: rewardMessages.redeemFailed, local_only: true })];
    let answer: (value: unknown) => void = () => undefined;
    fake.retry.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    const { user } = renderApp('/rewards/history');
    const again = await screen.findByRole('button', { name: 'Try again to swap for Cinema trip' });
    await user.click(again);
    await waitUntil(() => expect(again.getAttribute('aria-disabled')).toBe('true'));
    expect((again as HTMLButtonElement).disabled).toBe(false);
    expect(document.activeElement).toBe(again);
    await user.click(again);
    expect(fake.retry).toHaveBeenCalledTimes(1);
    await act(async () => answer({ ok: true, id: uuid(505), queuedOffline: false }));
    // Sent again, Try again and Remove go (the swap is waiting): the focus is on the swap's name.
    await waitUntil(() => expect(document.activeElement).toBe(within(card('Cinema trip')).getByRole('heading', { level: 3 })));
  });

  it('removing the last swap (the list goes with it) leaves the focus on the page heading', async () => {
    fake.history = [exchange(5, 'Cinema trip', 100, 'pending', { sync_state: 'failed', sync_message: rewardMessages.redeemFailed, local_only: true })];
    const { user } = renderApp('/rewards/history');
    await user.click(await screen.findByRole('button', { name: 'Remove the swap for Cinema trip' }));
    expect(fake.remove).toHaveBeenCalledWith(uuid(505));
    await waitUntil(() => expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Reward history' })));
  });

  it('Try again refused on the device says why in a toast', async () => {
    fake.history = [exchange(5, 'Cinema trip', 100, 'pending', { sync_state: 'failed', sync_message: rewardMessages.redeemFailed, local_only: true })];
    fake.retry.mockResolvedValueOnce({ ok: false, message: rewardMessages.redeemFailed, errors: { points: [rewardMessages.notEnoughPoints] } });
    const { user } = renderApp('/rewards/history');
    await user.click(await screen.findByRole('button', { name: 'Try again to swap for Cinema trip' }));
    await screen.findByText(`${rewardMessages.redeemFailed} ${rewardMessages.notEnoughPoints}.`);
  });

  it('empty: says what will be listed', async () => {
    renderApp('/rewards/history');
    expect(await screen.findByRole('heading', { name: 'No rewards swapped yet.' })).toBeTruthy();
  });

  it('works offline (the replica holds it)', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    fake.history = [exchange(1, 'A new book', 40, 'approved')];
    renderApp('/rewards/history');
    expect(await screen.findByRole('heading', { level: 1, name: 'Reward history' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'You need to be online for this page' })).toBeNull();
    vi.restoreAllMocks();
  });
});

describe('rewards_enabled off', () => {
  it.each(['/rewards', '/rewards/history', `/rewards/${uuid(1)}/confirmation`, `/rewards/${uuid(1)}/congratulations`])('%s is not shown', async (path) => {
    setAccount(makeAccount({ flags: { rewards_enabled: 0 } }));
    renderApp(path);
    expect(await screen.findByRole('heading', { level: 1, name: 'This part of Hearth is not switched on for you' })).toBeTruthy();
    expect(screen.queryByRole('article')).toBeNull();
    expect(fake.exchange).not.toHaveBeenCalled();
  });

  it('the dashboard hides the counter and the quick link, the nav hides the item', async () => {
    setAccount(makeAccount({ flags: { rewards_enabled: 0 } }));
    renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Hi Sam' });
    expect(screen.queryByText(/You have \d+ points/)).toBeNull();
    expect(screen.queryAllByRole('link').filter((a) => a.getAttribute('href')?.startsWith('/rewards'))).toEqual([]);
  });

  it('on: the dashboard counter, the quick link and the nav item link to /rewards; the counter says points set aside', async () => {
    fake.points = { balance: 20, pending: 0, spending: 30 };
    renderApp('/dashboard');
    const counter = await screen.findByRole('link', { name: /You have 20 points · 30 set aside for a swap/ });
    expect(counter.getAttribute('href')).toBe('/rewards');
    expect(screen.getAllByRole('link').filter((a) => a.getAttribute('href') === '/rewards').length).toBeGreaterThanOrEqual(3);
  });
});
