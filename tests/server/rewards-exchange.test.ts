import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chosenMessages as chosen } from '../../src/contract/messages';
import { pushMessageSchema } from '../../src/contract/push';
import { rewardExchangeResponseSchema, rewardMessages, rewardResponseSchema, type Reward, type RewardExchange } from '../../src/contract/rewards';
import { pointsPageSchema } from '../../src/contract/tasks';
import type { PushSender, PushTarget } from '../../server/lib/push-sender';
import type { Client } from './support/client';
import { demoIds, signedIn, signedInRiley } from './support/session';
import { startTestServer, type TestServer } from './support/server';

/**
 * Exchanges under load (issue 10): the balance never goes below zero whatever arrives at once,
 * replays exchange once, staff decisions happen once, and the ledger always equals the balance.
 * Runs on PGlite, and on PostgreSQL when DATABASE_URL is set (real concurrent transactions).
 */
let server: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;
let phone: Client;
let tablet: Client;
let ali: Client;
let beth: Client;
let sam: Client;
let riley: Client;

const pushed: { target: PushTarget; payload: string }[] = [];
const fakeSender: PushSender = async (target, payload) => {
  pushed.push({ target, payload });
  return { statusCode: 201 };
};

beforeAll(async () => {
  server = await startTestServer();
  server.app.pushSender = fakeSender;
  ids = await demoIds(server);
  // Two sessions of the same young person: two devices.
  [phone, tablet, ali, beth, sam] = await Promise.all([
    signedIn(server, 'jamie'), signedIn(server, 'jamie'), signedIn(server, 'carer.ali'), signedIn(server, 'carer.beth'), signedIn(server, 'sam'),
  ]);
  riley = await signedInRiley(server);
});
afterAll(async () => {
  await server?.close();
});
beforeEach(() => {
  pushed.length = 0;
});

const jamieId = () => ids.resident['demo/jamie']!;
type Answer<T> = { data: T; errors?: Record<string, string[]>; message?: string };

async function ledger() {
  const res = await phone.get(`/api/v1/projects/residents/${jamieId()}/points?per_page=500`);
  const page = pointsPageSchema.parse(res.body);
  expect(page.meta.has_more).toBe(false);
  return { balance: page.balance, sum: page.data.reduce((s, p) => s + p.delta, 0), entries: page.data };
}
/** The balance three ways: the ledger endpoint's, the ledger's sum, the resident row's. */
async function expectConsistent(): Promise<number> {
  const { balance, sum } = await ledger();
  const row = await server.db.selectFrom('residents').select('reward_points').where('id', '=', jamieId()).executeTakeFirstOrThrow();
  const dbSum = await server.db.selectFrom('points_ledger').select((eb) => eb.fn.sum<string>('delta').as('s')).where('resident_id', '=', jamieId()).executeTakeFirstOrThrow();
  expect(balance).toBeGreaterThanOrEqual(0);
  expect(sum).toBe(balance);
  expect(row.reward_points).toBe(balance);
  expect(Number(dbSum.s)).toBe(balance);
  return balance;
}

async function newReward(points: number): Promise<Reward> {
  const res = await ali.post(`/api/v1/homes/${ids.home['Willow House']}/rewards`, { name: `Reward ${randomUUID().slice(0, 8)}`, points });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return rewardResponseSchema.parse(res.body).data;
}

/** Points earned the way a young person earns them: staff complete an objective, Jamie reviews it (+20). */
async function ensureBalance(min: number): Promise<number> {
  let { balance } = await ledger();
  if (balance >= min) return balance;
  const forms = (await ali.get<{ data: { id: string; name: string }[] }>('/api/v1/forms')).body.data;
  const health = forms.find((f) => f.name === 'Health and wellbeing')!;
  while (balance < min) {
    const task = await ali.post<{ data: { id: string } }>(`/api/v1/projects/residents/${jamieId()}/tasks`, { form_id: health.id, title: 'Walk', task_date: '2026-11-20' });
    expect(task.status).toBe(201);
    const done = await ali.post(`/api/v1/tasks/logs/${task.body.data.id}?_method=PUT`, { answers: { activity: 'Walk' }, status: 'completed' });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const review = await phone.post('/api/v1/tasks/logs/comments', { task_log_id: task.body.data.id, comment: 'Good', is_review: true });
    expect(review.status, JSON.stringify(review.body)).toBe(201);
    balance = (await ledger()).balance;
  }
  return balance;
}

const exchange = (client: Client, rewardId: string, body: unknown = {}, headers: Record<string, string> = {}) =>
  client.post<Answer<RewardExchange>>(`/api/v1/projects/residents/${jamieId()}/rewards/${rewardId}/exchange`, body, { headers });

describe('the balance never goes below zero', () => {
  it('10 exchanges sent at the same moment from two devices: only as many succeed as the balance allows, the rest 422', async () => {
    await ensureBalance(100);
    const start = await expectConsistent();
    const cost = Math.floor(start / 3);
    const affordable = Math.floor(start / cost);
    expect(affordable).toBeGreaterThan(0);
    expect(affordable).toBeLessThan(10);
    const reward = await newReward(cost);

    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => {
        const id = randomUUID();
        // Each as the outbox sends it: its own client id, which is also its Idempotency-Key.
        return exchange(i % 2 === 0 ? phone : tablet, reward.id, { id }, { 'Idempotency-Key': id });
      }),
    );
    const created = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status === 422);
    expect(answers.map((a) => a.status).sort(), JSON.stringify(answers.map((a) => a.body))).toEqual([...Array(affordable).fill(201), ...Array(10 - affordable).fill(422)]);
    for (const a of refused) {
      expect(a.body.message).toBe(rewardMessages.redeemFailed);
      expect(a.body.errors).toEqual({ points: [rewardMessages.notEnoughPoints] });
    }
    expect(new Set(created.map((a) => a.body.data.id)).size).toBe(affordable);
    const end = await expectConsistent();
    expect(end).toBe(start - affordable * cost);
    const rows = await server.db.selectFrom('reward_exchanges').select('id').where('reward_id', '=', reward.id).execute();
    expect(rows).toHaveLength(affordable);
  });

  it('at zero nothing more goes; a refund makes room again', async () => {
    const start = await expectConsistent();
    const all = await newReward(start);
    const spent = await exchange(phone, all.id);
    expect(spent.status).toBe(201);
    expect(await expectConsistent()).toBe(0);
    const one = await newReward(1);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => exchange(i % 2 ? phone : tablet, one.id)));
    expect(answers.every((a) => a.status === 422)).toBe(true);
    expect((await ali.post(`/api/v1/reward-exchanges/${spent.body.data.id}/deny`, { note: 'Not this week' })).status).toBe(200);
    expect(await expectConsistent()).toBe(start);
  });
});

describe('an exchange sent again is one exchange', () => {
  it('a replay with the same Idempotency-Key exchanges once and answers the stored 201', async () => {
    await ensureBalance(10);
    const start = await expectConsistent();
    const reward = await newReward(1);
    const key = randomUUID();
    const first = await exchange(phone, reward.id, {}, { 'Idempotency-Key': key });
    expect(first.status).toBe(201);
    const replay = await exchange(phone, reward.id, {}, { 'Idempotency-Key': key });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(replay.body.data.id).toBe(first.body.data.id);
    // Concurrent copies under one key: the same single exchange (or 409 while the first runs, which the client retries).
    const copies = await Promise.all(Array.from({ length: 8 }, () => exchange(tablet, reward.id, {}, { 'Idempotency-Key': `${key}-b` })));
    for (const c of copies) expect([201, 409]).toContain(c.status);
    expect(new Set(copies.filter((c) => c.status === 201).map((c) => c.body.data.id)).size).toBe(1);
    const sameKeyOtherReward = await exchange(phone, (await newReward(1)).id, {}, { 'Idempotency-Key': key });
    expect(sameKeyOtherReward.status).toBe(422);
    expect(await expectConsistent()).toBe(start - 2);
  });

  it('a re-sent client id answers the same exchange, also when the copies arrive at once under different keys', async () => {
    await ensureBalance(10);
    const start = await expectConsistent();
    const reward = await newReward(2);
    const id = randomUUID();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => exchange(i % 2 ? phone : tablet, reward.id, { id }, { 'Idempotency-Key': randomUUID() })));
    for (const a of answers) {
      expect(a.status, JSON.stringify(a.body)).toBe(201);
      expect(rewardExchangeResponseSchema.parse(a.body).data.id).toBe(id);
    }
    const later = await exchange(phone, reward.id, { id: id.toUpperCase() });
    expect(later.status).toBe(201);
    expect(later.body.data.id).toBe(id);
    expect(await server.db.selectFrom('reward_exchanges').select('id').where('reward_id', '=', reward.id).execute()).toEqual([{ id }]);
    expect((await ledger()).entries.filter((p) => p.source_id === id)).toHaveLength(1);
    expect(await expectConsistent()).toBe(start - 2);
    // Somebody else's id is never theirs.
    const stolen = await sam.post<Answer<unknown>>(`/api/v1/projects/residents/${ids.resident['demo/sam']}/rewards/${randomUUID()}/exchange`, { id });
    expect(stolen.status).toBe(422);
    expect(stolen.body.errors).toEqual({ id: ['This id is already in use'] });
  });

  it('a client id used again for another reward is 422 on id and exchanges nothing; the first request sent again still answers 201', async () => {
    await ensureBalance(10);
    const [first, other] = [await newReward(2), await newReward(3)];
    const id = randomUUID();
    const made = await exchange(phone, first.id, { id });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const start = (await ledger()).balance;
    const reused = await exchange(tablet, other.id, { id });
    expect(reused.status, JSON.stringify(reused.body)).toBe(422);
    expect(reused.body).toEqual({ success: false, message: chosen.validationFailed, errors: { id: ['This id is already in use'] } });
    const replay = await exchange(phone, first.id, { id });
    expect(replay.status).toBe(201);
    expect(replay.body.data).toEqual(made.body.data);
    expect((await ledger()).balance).toBe(start);
    const mine = (await phone.get<{ data: RewardExchange[] }>(`/api/v1/projects/residents/${jamieId()}/rewards/history?per_page=500`)).body.data;
    expect(mine.filter((e) => e.id === id).map((e) => e.reward_id)).toEqual([first.id]);
    expect(mine.some((e) => e.reward_id === other.id)).toBe(false);
  });

  it("another young person's id (same home or not) answers the same 422 whatever the reward: nothing of that exchange", async () => {
    await ensureBalance(10);
    const reward = await newReward(1);
    const id = randomUUID();
    expect((await exchange(phone, reward.id, { id })).status).toBe(201);
    const path = (who: string, rewardId: string) => `/api/v1/projects/residents/${ids.resident[`demo/${who}`]}/rewards/${rewardId}/exchange`;
    const answers = await Promise.all([
      riley.post<Answer<unknown>>(path('riley', reward.id), { id }),
      riley.post<Answer<unknown>>(path('riley', (await newReward(1)).id), { id }),
      sam.post<Answer<unknown>>(path('sam', reward.id), { id }),
      sam.post<Answer<unknown>>(path('sam', randomUUID()), { id }),
    ]);
    for (const a of answers) {
      expect(a.status).toBe(422);
      expect(a.body).toEqual({ success: false, message: chosen.validationFailed, errors: { id: ['This id is already in use'] } });
    }
  });
});

describe('staff decisions happen once', () => {
  it('deny sent 10 times at once by two carers gives the points back exactly once', async () => {
    await ensureBalance(10);
    const start = await expectConsistent();
    const reward = await newReward(4);
    const made = (await exchange(phone, reward.id)).body.data;
    expect(await expectConsistent()).toBe(start - 4);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? ali : beth).post<Answer<RewardExchange>>(`/api/v1/reward-exchanges/${made.id}/deny`, {})));
    for (const a of answers) {
      expect(a.status, JSON.stringify(a.body)).toBe(200);
      expect(a.body.data.status).toBe('denied');
    }
    expect((await ledger()).entries.filter((p) => p.source_id === made.id && p.reason === 'reward_refund').map((p) => p.delta)).toEqual([4]);
    expect(await expectConsistent()).toBe(start);
  });

  it('approve and deny racing: one decision wins, the other is told; the points follow the winner', async () => {
    for (let round = 0; round < 3; round++) {
      await ensureBalance(10);
      const start = await expectConsistent();
      const reward = await newReward(3);
      const made = (await exchange(tablet, reward.id)).body.data;
      const [approve, deny] = await Promise.all([
        ali.post<Answer<RewardExchange>>(`/api/v1/reward-exchanges/${made.id}/approve`, {}),
        beth.post<Answer<RewardExchange>>(`/api/v1/reward-exchanges/${made.id}/deny`, {}),
      ]);
      const statuses = [approve.status, deny.status].sort();
      expect(statuses).toEqual([200, 422]);
      const row = await server.db.selectFrom('reward_exchanges').select('status').where('id', '=', made.id).executeTakeFirstOrThrow();
      expect(await expectConsistent()).toBe(row.status === 'denied' ? start : start - 3);
      expect((approve.status === 200 ? approve : deny).body.data.status).toBe(row.status);
    }
  });

  it('a decision pushes the young person a content-free message that opens the history', async () => {
    await ensureBalance(10);
    await phone.post('/api/v1/notifications/push/subscribe', {
      user_id: ids.user['demo/jamie'],
      subscription: { endpoint: 'https://fcm.googleapis.com/fcm/send/jamie-rewards-1', expirationTime: null, keys: { p256dh: 'BPubKey', auth: 'authKey' } },
    });
    const reward = await newReward(1);
    const made = (await exchange(phone, reward.id)).body.data;
    await server.app.push.settled();
    expect(pushed).toEqual([]);
    expect((await ali.post(`/api/v1/reward-exchanges/${made.id}/approve`, { note: 'Have fun at the fair' })).status).toBe(200);
    await server.app.push.settled();
    expect(pushed).toHaveLength(1);
    const message = pushMessageSchema.parse(JSON.parse(pushed[0]!.payload));
    expect(message).toEqual({ type: 'changed', collections: ['reward_history'], url: '/rewards/history', title: 'Hearth', body: 'Something new in Hearth' });
    expect(pushed[0]!.payload).not.toContain('fair');
    expect(pushed[0]!.payload).not.toContain(reward.name);
    // Deciding again changes nothing and pushes nothing.
    pushed.length = 0;
    expect((await ali.post(`/api/v1/reward-exchanges/${made.id}/approve`, {})).status).toBe(200);
    await server.app.push.settled();
    expect(pushed).toEqual([]);
    const denied = (await exchange(phone, reward.id)).body.data;
    expect((await ali.post(`/api/v1/reward-exchanges/${denied.id}/deny`, {})).status).toBe(200);
    await server.app.push.settled();
    expect(pushMessageSchema.parse(JSON.parse(pushed[0]!.payload)).collections).toEqual(['reward_history', 'points', 'resident']);
  });
});
