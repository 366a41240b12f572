import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Live, PointsSummary } from '@/data/hooks';
import type { RewardDoc, RewardExchangeDoc } from '@/data/replica/types';
import { setAccount } from '@/data/session-store';
import { ALL_PAYLOADS, XSS_VECTORS, type XssVector } from '../support/xss-vectors';
import { makeAccount } from './support/account';
import { fakeFetch } from './support/fake-fetch';
import { renderApp } from './support/render-app';
import { checksMade, installMarker, shown, sweepScreen } from './support/xss-scan';

/**
 * Issue 12's XSS sweep, rewards: what staff write (a reward's name and description, the note on a
 * decision) on the catalogue, the confirmation, the history and the congratulations. Every vector of
 * tests/support/xss-vectors.ts, through the real routes and providers and the fakes of
 * tests/web/rewards-pages.test.tsx.
 */
const fake = vi.hoisted(() => ({ rewards: [] as unknown[], history: [] as unknown[] }));
vi.mock('@/features/rewards/hooks/use-rewards', () => ({
  useRewards: (): Live<RewardDoc[]> => ({ data: fake.rewards as RewardDoc[], loading: false }),
  useReward: (id: string): Live<RewardDoc | null> => ({ data: (fake.rewards as RewardDoc[]).find((r) => r.id === id) ?? null, loading: false }),
}));
vi.mock('@/features/rewards/hooks/use-reward-history', () => ({
  useRewardHistory: (): Live<RewardExchangeDoc[]> => ({ data: fake.history as RewardExchangeDoc[], loading: false }),
  useExchange: (id: string | null): Live<RewardExchangeDoc | null> => ({ data: (fake.history as RewardExchangeDoc[]).find((e) => e.id === id) ?? null, loading: false }),
}));
vi.mock('@/data/hooks/use-points', () => ({ usePoints: (): Live<PointsSummary | null> => ({ data: { balance: 50, pending: 0, spending: 0 }, loading: false }) }));
vi.mock('@/entries/hooks/use-entry-file', () => ({ useEntryFile: () => null, useEntryFileView: () => null }));
vi.mock('@/data/hooks/use-user-photo', () => ({ useUserPhoto: () => null }));

const V = XSS_VECTORS;
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const sync = { sync_state: 'synced', sync_message: null, sync_outbox_id: null } as const;
const ALI = { id: uuid(77), first_name: ALL_PAYLOADS, last_name: 'Staff', has_photo: false };

function reward(n: number, name: string, points: number): RewardDoc {
  return { id: uuid(n), updated_at: '2026-03-01T09:00:00.000000Z', created_at: '2026-03-01T09:00:00.000000Z', home_id: uuid(3), name, description: name, points, image: null, active: true, position: n };
}

function exchange(vector: XssVector, status: RewardExchangeDoc['status'], extra: Partial<RewardExchangeDoc> = {}): RewardExchangeDoc {
  const created = '2026-03-10T10:00:00.000000Z';
  return {
    id: uuid(500 + vector.id),
    kind: 'exchange',
    sort_key: created,
    local_only: false,
    updated_at: created,
    created_at: created,
    resident_id: uuid(2),
    reward_id: uuid(vector.id),
    reward: { id: uuid(vector.id), name: vector.payload, image: null },
    points: 30,
    points_adjustment: status === 'denied' ? 0 : -30,
    refunded_points: status === 'denied' ? 30 : 0,
    status,
    note: vector.payload,
    decided_by: status === 'pending' ? null : ALI,
    decided_at: status === 'pending' ? null : created,
    ...sync,
    ...extra,
  };
}

let marker: ReturnType<typeof installMarker>;
beforeEach(() => {
  marker = installMarker();
  // Affordable ones (30 points) offer the swap, whose hidden text names the reward too.
  fake.rewards = [...V.map((v) => reward(v.id, v.payload, v.id % 2 ? 30 : 300)), reward(999, ALL_PAYLOADS, 30), reward(998, ALL_PAYLOADS, 300)];
  fake.history = V.map((v) => exchange(v, (['pending', 'approved', 'denied'] as const)[v.id % 3]!, v.id % 4 === 0 ? { sync_state: 'failed', sync_message: 'Refused', local_only: true } : {}));
  fakeFetch();
  setAccount(makeAccount({ flags: { rewards_enabled: 1 } }));
});
afterEach(() => marker.remove());
afterAll(() => console.info(`xss-rewards: ${checksMade()} vector × field × screen checks`));

const clean = { ran: [], injected: [], notShownAsText: [] };
const main = () => document.querySelector('main')!;

describe('rewards', () => {
  it('/rewards: every reward’s name and description (one reward per vector) are text', async () => {
    renderApp('/rewards');
    await shown('.reward-card__title');
    expect(
      await sweepScreen(marker, main(), [
        { field: 'reward name', selector: '.reward-card__title', vectors: V },
        { field: 'reward description', selector: '.reward-card__description', vectors: V },
        { field: 'reward name in the swap link', selector: '.reward-card__action', vectors: V.filter((v) => v.id % 2) },
      ]),
    ).toEqual(clean);
  });

  it.each([
    ['affordable', 999],
    ['not affordable', 998],
  ])('/rewards/{id}/confirmation (%s): the name and description are text', async (_what, n) => {
    renderApp(`/rewards/${uuid(n)}/confirmation`);
    await shown('.reward-confirm__description');
    expect(
      await sweepScreen(marker, main(), [
        { field: 'reward name (confirmation heading)', selector: 'h1', vectors: V },
        { field: 'reward description (confirmation)', selector: '.reward-confirm__description', vectors: V },
      ]),
    ).toEqual(clean);
  });

  it('/rewards/history: every swap’s reward name and staff’s note (one swap per vector) are text', async () => {
    renderApp('/rewards/history');
    await shown('.exchange__title');
    expect(
      await sweepScreen(marker, main(), [
        { field: 'reward name (history)', selector: '.exchange__title', vectors: V },
        { field: 'staff note', selector: '.exchange__note', vectors: V },
        { field: 'reward name in Try again and Remove', selector: '.exchange__actions', vectors: V.filter((v) => v.id % 4 === 0) },
      ]),
    ).toEqual(clean);
  });

  it('/rewards/{id}/congratulations: the reward is named as text', async () => {
    fake.history = [{ ...exchange(V[0]!, 'pending'), reward: { id: uuid(999), name: ALL_PAYLOADS, image: null } }];
    renderApp(`/rewards/${uuid(999)}/congratulations?exchange=${uuid(500 + V[0]!.id)}`);
    await shown('main strong');
    expect(await sweepScreen(marker, main(), [{ field: 'reward name (congratulations)', selector: 'strong', vectors: V }])).toEqual(clean);
  });
});
