/**
 * Rewards on the device against the real server in-process (PGlite, demo seed): the catalogue
 * (`lookups` kind reward) and the history (`points` kind exchange) replicate; swaps go through the
 * real outbox and settle; staff (through the staff endpoints, never the database) approve, deny and
 * withdraw. Every reward a test swaps is its own, priced from the balance it found, so the points
 * are counted relative to the start.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Subscription } from 'rxjs';
import { rewardMessages, type Reward, type RewardExchange } from '@/contract/rewards';
import type { Account } from '@/contract/users';
import { flushOutboxNowOnline, resetOutboxConfig, waitForOutboxToDrain } from '@/data/outbox/outbox';
import { allRecords } from '@/data/outbox/store';
import { closeReplica, getReplication, openReplicaForAccount, type ReplicaOptions } from '@/data/replica/lifecycle';
import type { OpenReplica } from '@/data/replica/replica-store';
import { rewards$ } from '@/data/replica/rewards';
import { pointsSources$, pointsSummary, type PointsSummary } from '@/data/replica/task-overlays';
import type { RewardDoc, RewardExchangeDoc } from '@/data/replica/types';
import { fileCacheKey } from '@/entries/data/file-keys';
import { exchangeReward } from '@/features/rewards/actions/exchange-reward';
import { removeExchange } from '@/features/rewards/actions/remove-exchange';
import { retryExchange } from '@/features/rewards/actions/retry-exchange';
import type { Client } from '../server/support/client';
import { signedIn } from '../server/support/session';
import { FakeClassifier, pngImage, postForm, type FormValue } from '../server/support/uploads';
import { WAIT_MS } from '../support/timeouts';
import { dumpIndexedDb, fakeIdb, listDatabases, randomKey, uniqueName } from './fixtures';
import { outboxToServer } from './support/outbox-to-server';
import { eventually, startSyncServer, type SyncTestServer } from './support/sync-server';

let sync: SyncTestServer;
let account: Account;
let ali: Client;
let jamie: Client;
let open: OpenReplica;
let online = true;
let outbox: ReturnType<typeof outboxToServer>;
/** The Idempotency-Key of every exchange request the server saw, in order. */
let exchangeKeys: string[] = [];
const TAG = `rw-${Date.now().toString(36)}`;
const replica: ReplicaOptions = { ...fakeIdb, multiInstance: false, key: randomKey(), replicate: true, replication: { liveTriggers: false, retryTime: 200 } };

beforeAll(async () => {
  sync = await startSyncServer({ imageClassifier: new FakeClassifier() });
  [ali, jamie] = await Promise.all([signedIn(sync.server, 'carer.ali'), signedIn(sync.server, 'jamie')]);
  account = await sync.signIn('jamie');
  const inner = globalThis.fetch;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (url.pathname.endsWith('/exchange')) exchangeKeys.push(new Headers(init?.headers).get('Idempotency-Key') ?? '');
    return inner(input, init);
  }) as typeof fetch;
});
afterAll(async () => {
  await sync?.close();
});
beforeEach(async () => {
  online = true;
  exchangeKeys = [];
  outbox = outboxToServer(sync, () => online);
  open = await openReplicaForAccount(account, uniqueName('site'), replica);
  await getReplication()!.awaitInitial();
});
afterEach(async () => {
  resetOutboxConfig();
  vi.unstubAllGlobals();
  await closeReplica();
});

const residentId = () => account.user.resident!.id;
const homeId = () => account.user.resident!.home_id;

// Staff, through the staff endpoints (docs/api.md).
async function newReward(name: string, points: number, picture = false): Promise<Reward> {
  const fields: [string, FormValue][] = [
    ['name', name],
    ['points', String(points)],
    ['description', 'Made for a data test.'],
  ];
  if (picture) fields.push(['image', { name: 'reward.png', type: 'image/png', data: pngImage(24, 24, [200, 120, 40]) }]);
  const res = await postForm<{ data: Reward }>(sync.server.base, ali, `/api/v1/homes/${homeId()}/rewards`, fields);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}
const decide = async (exchangeId: string, decision: 'approve' | 'deny', note?: string) => {
  const res = await ali.post(`/api/v1/reward-exchanges/${exchangeId}/${decision}`, note ? { note } : {});
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
const serverBalance = async (): Promise<number> => (await jamie.get<{ balance: number }>(`/api/v1/projects/residents/${residentId()}/points?per_page=1`)).body.balance;
const serverExchanges = (rewardId: string) =>
  sync.server.db.selectFrom('reward_exchanges').select(['id', 'status', 'points']).where('reward_id', '=', rewardId).execute();
const ledgerOf = (exchangeId: string) =>
  sync.server.db.selectFrom('points_ledger').select(['delta', 'reason']).where('source_id', '=', exchangeId).orderBy('created_at').execute();

const exchangeDoc = async (id: string) => (await open.db.points.findOne(id).exec())?.toJSON() as unknown as RewardExchangeDoc | undefined;
const catalogue = async (): Promise<RewardDoc[]> =>
  new Promise((resolve) => {
    const sub = rewards$(open.db).subscribe((list) => {
      resolve(list);
      queueMicrotask(() => sub.unsubscribe());
    });
  });

async function pull(topics: Parameters<NonNullable<ReturnType<typeof getReplication>>['reSync']>[0]): Promise<void> {
  getReplication()!.reSync(topics);
  await getReplication()!.awaitInSync();
}

/** Every summary the counter could have shown while the test ran. */
function watchPoints(): { seen: PointsSummary[]; stop: () => void } {
  const seen: PointsSummary[] = [];
  const fallback = account.user.resident!.reward_points;
  const subscription: Subscription = pointsSources$(open.db).subscribe(({ ledger, overlays, exchanges }) => {
    const summary = pointsSummary(ledger, overlays, fallback, exchanges);
    if (summary) seen.push(summary);
  });
  return { seen, stop: () => subscription.unsubscribe() };
}

describe('rewards on the device with the real server', () => {
  it('the catalogue replicates into lookups (encrypted name and data) in catalogue order, with pictures cached for offline; the history into points', async () => {
    const listed = (await jamie.get<{ data: Reward[] }>('/api/v1/projects/residents/rewards?per_page=500')).body.data;
    const rewards = await catalogue();
    expect(rewards.map((r) => r.id)).toEqual(listed.map((r) => r.id));
    expect(rewards.length).toBeGreaterThanOrEqual(6);
    const book = rewards.find((r) => r.name === 'A new book')!;
    expect(book).toMatchObject({ points: 40, active: true });
    expect(book.image?.mime).toBe('image/webp');
    // Encrypted at rest: IndexedDB holds no reward name, description, cost or reason in clear.
    const raw = (await Promise.all((await listDatabases()).filter((n) => n.includes(open.name)).map((n) => dumpIndexedDb(n)))).map((d) => d.text).join('\n');
    expect(raw).toContain(book.id);
    for (const clear of ['A new book', 'Choose any book', 'book.webp', 'reward_exchange', 'opening_balance', '"points":40']) expect(raw).not.toContain(clear);
    // Every picture is cached under the key the screens read.
    await eventually(async () => {
      const cached = await open.db.files.findByIds(rewards.filter((r) => r.image).map((r) => fileCacheKey('reward', r.image!.id))).exec();
      return [...cached.values()].filter((doc) => doc.get('data')).length === rewards.filter((r) => r.image).length;
    }, WAIT_MS, 'the pictures cached');

    const history = (await jamie.get<{ data: RewardExchange[] }>(`/api/v1/projects/residents/${residentId()}/rewards/history?per_page=500`)).body.data;
    const exchanges = (await open.db.points.find({ selector: { kind: 'exchange' } }).exec()).map((d) => d.toJSON() as unknown as RewardExchangeDoc);
    expect(exchanges.map((e) => e.id).sort()).toEqual(history.map((e) => e.id).sort());
    expect(new Set(exchanges.map((e) => e.status))).toEqual(new Set(['approved', 'pending', 'denied']));
    const denied = exchanges.find((e) => e.status === 'denied')!;
    expect(denied).toMatchObject({ points_adjustment: 0, refunded_points: denied.points });
    // The ledger still replicates beside it, and the balance is the server's.
    const { ledger, overlays, exchanges: all } = await new Promise<{ ledger: never[]; overlays: never[]; exchanges: never[] }>((resolve) => {
      const sub = pointsSources$(open.db).subscribe((v) => {
        resolve(v as never);
        queueMicrotask(() => sub.unsubscribe());
      });
    });
    expect(pointsSummary(ledger, overlays, null, all)).toEqual({ balance: await serverBalance(), pending: 0, spending: 0 });
  });

  it('a swap made offline: its cost is set aside at once, it is delivered once (the client id, one key), and balance is right at every moment until the ledger is pulled', async () => {
    const start = await serverBalance();
    const cost = Math.max(1, Math.min(5, start));
    const reward = await newReward(`${TAG} offline swap`, cost);
    await pull(['rewards']);
    const watch = watchPoints();
    await eventually(() => watch.seen.at(-1)?.balance === start, WAIT_MS, 'the first summary');

    online = false;
    const result = await exchangeReward(reward.id);
    expect(result).toMatchObject({ ok: true, queuedOffline: true });
    const id = result.ok ? result.id : '';
    expect(await exchangeDoc(id)).toMatchObject({ kind: 'exchange', status: 'pending', points: cost, points_adjustment: -cost, local_only: true, sync_state: 'pending' });
    await eventually(() => watch.seen.at(-1)?.spending === cost, WAIT_MS, 'the cost set aside');
    const queuedAt = watch.seen.length - 1;
    expect(watch.seen[queuedAt]).toEqual({ balance: start - cost, pending: 0, spending: cost });
    expect(await serverExchanges(reward.id)).toEqual([]);
    // An offline attempt reached no server.
    flushOutboxNowOnline();
    await waitForOutboxToDrain(300);
    expect(await serverExchanges(reward.id)).toEqual([]);

    // Every state the history item passes through while it is delivered and settled.
    const states: string[] = [];
    const watching = open.db.points.findOne(id).$.subscribe((doc) => states.push(`${doc?.get('sync_state')} local_only=${doc?.get('local_only')}`));
    online = true;
    flushOutboxNowOnline();
    expect((await waitForOutboxToDrain(WAIT_MS)).drained).toBe(true);
    await eventually(async () => (await exchangeDoc(id))?.sync_state === 'synced', WAIT_MS, 'the delivered swap');
    watching.unsubscribe();
    // Settled in one write: never "synced" while still marked as not on the server.
    expect(states).toContain('synced local_only=false');
    expect(states).not.toContain('synced local_only=true');
    expect(await exchangeDoc(id)).toMatchObject({ local_only: false, status: 'pending', points: cost, reward: { id: reward.id, name: reward.name } });
    // Delivered once, under the device's id, every attempt with the same key.
    expect((await serverExchanges(reward.id)).map((e) => [e.id, e.status])).toEqual([[id, 'pending']]);
    expect(new Set(exchangeKeys).size).toBe(1);
    expect((await ledgerOf(id)).map((e) => [e.reason, e.delta])).toEqual([['reward_exchange', -cost]]);

    await pull(['points', 'reward_history']);
    await eventually(() => watch.seen.at(-1)?.spending === 0 && watch.seen.at(-1)?.balance === start - cost, WAIT_MS, 'the ledger entry pulled');
    watch.stop();
    // From the moment it was queued, the cost was taken off exactly once.
    for (const summary of watch.seen.slice(queuedAt)) expect(summary.balance).toBe(start - cost);
    expect(await serverBalance()).toBe(start - cost);
    expect((await open.db.points.find({ selector: { kind: 'exchange' } }).exec()).filter((d) => d.primary === id)).toHaveLength(1);

    // Staff approve: the history follows, the points stay spent.
    await decide(id, 'approve', 'Enjoy it');
    await pull(['reward_history', 'points']);
    await eventually(async () => (await exchangeDoc(id))?.status === 'approved', WAIT_MS, 'the approval');
    expect(await exchangeDoc(id)).toMatchObject({ note: 'Enjoy it', points_adjustment: -cost, refunded_points: 0 });
    expect(await serverBalance()).toBe(start - cost);
  });

  it('staff deny a swap: the points come back as soon as the history says so, before the ledger brings the refund, and never twice', async () => {
    const start = await serverBalance();
    const cost = Math.max(1, Math.min(3, start));
    const reward = await newReward(`${TAG} denied swap`, cost);
    await pull(['rewards']);
    const result = await exchangeReward(reward.id);
    const id = result.ok ? result.id : '';
    expect((await waitForOutboxToDrain(WAIT_MS)).drained).toBe(true);
    await pull(['points', 'reward_history']);
    const watch = watchPoints();
    await eventually(() => watch.seen.at(-1)?.balance === start - cost, WAIT_MS, 'the swap in the ledger');

    await decide(id, 'deny', 'Not this week');
    // Only the history first: the refund it names counts before the ledger has it.
    await pull(['reward_history']);
    await eventually(async () => (await exchangeDoc(id))?.status === 'denied', WAIT_MS, 'the denial');
    expect(await exchangeDoc(id)).toMatchObject({ points_adjustment: 0, refunded_points: cost, note: 'Not this week' });
    await eventually(() => watch.seen.at(-1)?.balance === start, WAIT_MS, 'the points back');
    await pull(['points']);
    await eventually(async () => (await open.db.points.find({ selector: { kind: 'ledger' } }).exec()).some((d) => d.get('source_id') === id && d.get('reason') === 'reward_refund'), WAIT_MS, 'the refund pulled');
    watch.stop();
    const after = watch.seen.slice(watch.seen.findIndex((s) => s.balance === start));
    for (const summary of after) expect(summary).toEqual({ balance: start, pending: 0, spending: 0 });
    expect(await serverBalance()).toBe(start);
  });

  it('a swap the server refuses (not enough points by then) is failed with SPEC §8 text, the points come back in the view, and Try again sends it with a new key', async () => {
    const start = await serverBalance();
    expect(start).toBeGreaterThan(1);
    const reward = await newReward(`${TAG} refused swap`, start);
    await pull(['rewards']);
    const watch = watchPoints();

    // Queued offline while affordable on this device...
    online = false;
    const result = await exchangeReward(reward.id);
    expect(result).toMatchObject({ ok: true, queuedOffline: true });
    const id = result.ok ? result.id : '';
    await eventually(() => watch.seen.at(-1)?.balance === 0, WAIT_MS, 'the whole balance set aside');
    // ...while the price went up on the server.
    const raised = await postForm(sync.server.base, ali, `/api/v1/rewards/${reward.id}?_method=PUT`, [['points', String(start + 1)]]);
    expect(raised.status).toBe(200);

    online = true;
    flushOutboxNowOnline();
    await eventually(async () => (await exchangeDoc(id))?.sync_state === 'failed', WAIT_MS, 'the refusal');
    expect(await exchangeDoc(id)).toMatchObject({ sync_message: rewardMessages.redeemFailed, local_only: true, points: start });
    await eventually(() => watch.seen.at(-1)?.balance === start && watch.seen.at(-1)?.spending === 0, WAIT_MS, 'the points back in the view');
    expect(await serverExchanges(reward.id)).toEqual([]);
    expect(await serverBalance()).toBe(start);
    // The next pulls leave it failed, on the device.
    await pull(['reward_history', 'points', 'rewards']);
    expect(await exchangeDoc(id)).toMatchObject({ sync_state: 'failed' });

    // Try again at the new price: the device refuses it itself, nothing is queued.
    const tooDear = await retryExchange(id);
    expect(tooDear).toMatchObject({ ok: false, message: rewardMessages.redeemFailed, errors: { points: [rewardMessages.notEnoughPoints] } });
    expect(exchangeKeys).toHaveLength(1);

    // The price comes back down: Try again goes through, under a new key, the same id.
    const lowered = await postForm(sync.server.base, ali, `/api/v1/rewards/${reward.id}?_method=PUT`, [['points', String(start)]]);
    expect(lowered.status).toBe(200);
    await pull(['rewards']);
    expect(await retryExchange(id)).toMatchObject({ ok: true, id });
    expect((await waitForOutboxToDrain(WAIT_MS)).drained).toBe(true);
    await eventually(async () => (await exchangeDoc(id))?.sync_state === 'synced', WAIT_MS, 'the second try delivered');
    expect(exchangeKeys).toHaveLength(2);
    expect(exchangeKeys[0]).not.toBe(exchangeKeys[1]);
    expect((await serverExchanges(reward.id)).map((e) => e.id)).toEqual([id]);
    expect(await serverBalance()).toBe(0);
    // The refused request left the outbox: nothing failed is left to warn about at sign-out.
    expect((await allRecords(outbox)).filter((r) => r.state === 'failed')).toEqual([]);
    await pull(['points', 'reward_history']);
    await eventually(() => watch.seen.at(-1)?.balance === 0 && watch.seen.at(-1)?.spending === 0, WAIT_MS, 'the ledger pulled');
    watch.stop();

    // Give the points back for the next tests.
    await decide(id, 'deny');
    expect(await serverBalance()).toBe(start);
  });

  it('the device refuses a swap the balance shown cannot afford, and a reward not in the catalogue; nothing is queued', async () => {
    const start = await serverBalance();
    const dear = await newReward(`${TAG} too dear`, start + 1);
    await pull(['rewards']);
    expect(await exchangeReward(dear.id)).toEqual({ ok: false, message: rewardMessages.redeemFailed, errors: { points: [rewardMessages.notEnoughPoints] } });
    expect(await exchangeReward('00000000-0000-4000-8000-00000000dead')).toEqual({
      ok: false,
      message: rewardMessages.redeemFailed,
      errors: { reward_id: [rewardMessages.unavailable] },
    });
    expect(await allRecords(outbox)).toEqual([]);
    expect(exchangeKeys).toEqual([]);
  });

  it('Remove takes a refused swap off the device and out of the outbox', async () => {
    const start = await serverBalance();
    const reward = await newReward(`${TAG} removed swap`, Math.max(1, start));
    await pull(['rewards']);
    online = false;
    const result = await exchangeReward(reward.id);
    const id = result.ok ? result.id : '';
    expect(await removeExchange(id)).toBe(false); // waiting, not refused: it stays
    // Withdrawn by staff before it arrives: refused by the server.
    expect((await ali.request('DELETE', `/api/v1/rewards/${reward.id}`)).status).toBe(200);
    online = true;
    flushOutboxNowOnline();
    await eventually(async () => (await exchangeDoc(id))?.sync_state === 'failed', WAIT_MS, 'the refusal');
    expect(await exchangeDoc(id)).toMatchObject({ sync_message: rewardMessages.redeemFailed });
    expect(await removeExchange(id)).toBe(true);
    expect(await exchangeDoc(id)).toBeUndefined();
    expect(await allRecords(outbox)).toEqual([]);
    expect(await serverBalance()).toBe(start);
  });

  it('a reward staff withdraw or pause leaves the catalogue; switched on again it comes back', async () => {
    const withdrawn = await newReward(`${TAG} withdrawn`, 10, true);
    const paused = await newReward(`${TAG} paused`, 10);
    await pull(['rewards']);
    const names = async () => (await catalogue()).map((r) => r.name);
    expect(await names()).toEqual(expect.arrayContaining([withdrawn.name, paused.name]));

    expect((await ali.request('DELETE', `/api/v1/rewards/${withdrawn.id}`)).status).toBe(200);
    expect((await postForm(sync.server.base, ali, `/api/v1/rewards/${paused.id}?_method=PUT`, [['active', '0']])).status).toBe(200);
    await pull(['rewards']);
    await eventually(async () => !(await names()).some((n) => n === withdrawn.name || n === paused.name), WAIT_MS, 'both gone');
    expect(await open.db.lookups.findOne(withdrawn.id).exec()).toBeNull();

    expect((await postForm(sync.server.base, ali, `/api/v1/rewards/${paused.id}?_method=PUT`, [['active', '1']])).status).toBe(200);
    await pull(['rewards']);
    await eventually(async () => (await names()).includes(paused.name), WAIT_MS, 'the paused reward back');
    expect(await names()).not.toContain(withdrawn.name);
  });

  it('the controller re-pulls the catalogue on `rewards` and the history on `reward_history` only', async () => {
    const count = (suffix: RegExp) => sync.requests.filter((r) => r.method === 'GET' && suffix.test(r.url.pathname)).length;
    const catalogueGets = () => count(/\/projects\/residents\/rewards$/);
    const historyGets = () => count(/\/rewards\/history$/);
    const [c0, h0] = [catalogueGets(), historyGets()];
    await pull(['reward_history']);
    await eventually(() => historyGets() > h0, WAIT_MS, 'the history pulled');
    expect(catalogueGets()).toBe(c0);
    const h1 = historyGets();
    await pull(['rewards']);
    await eventually(() => catalogueGets() > c0, WAIT_MS, 'the catalogue pulled');
    expect(historyGets()).toBe(h1);
    // Both ask with the checkpoint list mode, the catalogue with the image relation and whose it is.
    const last = sync.requests.filter((r) => /\/projects\/residents\/rewards$/.test(r.url.pathname)).at(-1)!.url;
    expect(last.searchParams.get('with_trashed')).toBe('1');
    expect(last.searchParams.get('resident_id')).toBe(residentId());
    expect([...last.searchParams.entries()].some(([k, v]) => k.startsWith('relations[') && v === 'image')).toBe(true);
  });
});
