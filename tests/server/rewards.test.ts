import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chosenMessages as chosen, messages } from '../../src/contract/messages';
import { paths } from '../../src/contract/paths';
import { residentDetailsResponseSchema } from '../../src/contract/residents';
import {
  rewardExchangePageSchema, rewardExchangeResponseSchema, rewardMessages, rewardPageSchema, rewardResponseSchema, type Reward, type RewardExchange,
} from '../../src/contract/rewards';
import { pointsPageSchema } from '../../src/contract/tasks';
import { seedDemo } from '../../server/seed/demo';
import { deriveKeys } from '../../server/lib/crypto';
import type { Client } from './support/client';
import { demoIds, openStream, signInDemoClients } from './support/session';
import { startTestServer, type TestServer } from './support/server';
import { FakeClassifier, getBytes, PDF, pngImage, postForm, type FormValue } from './support/uploads';

/**
 * Rewards over HTTP (issue 10): the catalogue, the history, exchanges and their refusals (SPEC §8),
 * the staff endpoints, the reward picture, who gets 404, checkpoints and tombstones.
 * Concurrency, replays and decisions under load: rewards-exchange.test.ts.
 */
let server: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;
let jamie: Client;
let riley: Client;
let sam: Client;
let ali: Client;
let chris: Client;
let jo: Client;
let alex: Client;
const classifier = new FakeClassifier();

beforeAll(async () => {
  server = await startTestServer({ imageClassifier: classifier });
  ids = await demoIds(server);
  ({ jamie, sam, riley, ali, chris, jo, alex } = await signInDemoClients(server, ['jo', 'alex']));
});
afterAll(async () => {
  await server?.close();
});

const jamieId = () => ids.resident['demo/jamie']!;
const samId = () => ids.resident['demo/sam']!;
const alexId = () => ids.resident['northfield/alex']!;
const willow = () => ids.home['Willow House']!;
const cedar = () => ids.home['Cedar Lodge']!;
const northfield = () => ids.home['Northfield House']!;
const FIRST_PULL = 'with_trashed=1&per_page=500&checkpoint[updated_at]=1970-01-01T00:00:00.000000Z&checkpoint[id]=00000000-0000-0000-0000-000000000000';

type Answer<T> = { data: T; errors?: Record<string, string[]>; message?: string };

async function catalogue(client: Client, query = `?resident_id=${jamieId()}&relations[]=image`) {
  const res = await client.get(`/api/v1/projects/residents/rewards${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return rewardPageSchema.parse(res.body);
}
async function history(client: Client, residentId = jamieId(), query = '') {
  const res = await client.get(`/api/v1/projects/residents/${residentId}/rewards/history${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return rewardExchangePageSchema.parse(res.body);
}
const balance = async (client: Client = jamie, residentId = jamieId()) => {
  const res = await client.get(`/api/v1/projects/residents/${residentId}/points?per_page=500`);
  return pointsPageSchema.parse(res.body);
};
const exchange = (client: Client, rewardId: string, residentId = jamieId(), body: unknown = {}, headers: Record<string, string> = {}) =>
  client.post<Answer<RewardExchange>>(`/api/v1/projects/residents/${residentId}/rewards/${rewardId}/exchange`, body, { headers });
const createReward = (client: Client, fields: [string, FormValue][], homeId = willow()) =>
  postForm<Answer<Reward>>(server.base, client, `/api/v1/homes/${homeId}/rewards`, fields);
const updateReward = (client: Client, id: string, fields: [string, FormValue][]) => postForm<Answer<Reward>>(server.base, client, `/api/v1/rewards/${id}?_method=PUT`, fields);
const withdraw = (client: Client, id: string) => client.request<Answer<Reward>>('DELETE', `/api/v1/rewards/${id}`);

async function rewardOf(home: string, name: string): Promise<string> {
  const row = await server.db.selectFrom('rewards').select('id').where('home_id', '=', home).where('name', '=', name).executeTakeFirstOrThrow();
  return row.id;
}

/** A fresh reward of Willow House made by Ali through the staff endpoint. */
async function newReward(points: number, name = `Reward ${randomUUID().slice(0, 8)}`): Promise<Reward> {
  const res = await createReward(ali, [['name', name], ['points', String(points)]]);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return rewardResponseSchema.parse(res.body).data;
}

describe('the demo rewards', () => {
  it("Jamie's home has six or more rewards with real pictures, some affordable with his balance and some not", async () => {
    const page = await catalogue(jamie);
    const points = (await balance()).balance;
    expect(page.data.length).toBeGreaterThanOrEqual(6);
    expect(page.data.every((r) => r.home_id === willow() && r.active && r.deleted_at === null)).toBe(true);
    expect(page.data.some((r) => r.points <= points)).toBe(true);
    expect(page.data.some((r) => r.points > points)).toBe(true);
    const positions = page.data.map((r) => r.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    for (const reward of page.data) {
      expect(reward.image, reward.name).not.toBeNull();
      const picture = await getBytes(server.base, jamie, `/api/v1/files/view?file_id=${reward.image!.id}&module=reward`);
      expect(picture.status).toBe(200);
      expect(picture.headers.get('content-type')).toBe('image/webp');
      expect(picture.headers.get('x-content-type-options')).toBe('nosniff');
      expect(picture.headers.get('cache-control')).toBe('private, no-store');
      expect(picture.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
      expect(picture.bytes.length).toBeLessThan(20 * 1024);
      const meta = await sharp(picture.bytes).metadata();
      expect(meta.format).toBe('webp');
      expect(meta.width).toBeGreaterThan(100);
    }
  });

  it('the young person may leave resident_id out (their own); staff must name one', async () => {
    expect((await catalogue(jamie, '?relations[]=image')).data.map((r) => r.id).sort()).toEqual((await catalogue(jamie)).data.map((r) => r.id).sort());
    const staff = await ali.get('/api/v1/projects/residents/rewards');
    expect(staff.status).toBe(422);
    expect(staff.body).toMatchObject({ errors: { resident_id: [rewardMessages.residentRequired] } });
    expect((await catalogue(ali)).data.length).toBeGreaterThanOrEqual(6);
  });

  it("Sam's home has its own rewards; Jamie's history has one approved, one pending and one denied exchange", async () => {
    const samRewards = await catalogue(sam, `?resident_id=${samId()}`);
    expect(samRewards.data.length).toBeGreaterThanOrEqual(3);
    expect(samRewards.data.every((r) => r.home_id === cedar())).toBe(true);
    const page = await history(jamie);
    expect(page.data.map((x) => x.status)).toEqual(['pending', 'denied', 'approved']);
    const created = page.data.map((x) => x.created_at);
    expect(created).toEqual([...created].sort().reverse());
    const [pending, denied, approved] = page.data as [RewardExchange, RewardExchange, RewardExchange];
    expect(pending).toMatchObject({ points_adjustment: -pending.points, refunded_points: 0, decided_at: null, decided_by: null });
    expect(denied).toMatchObject({ points_adjustment: 0, refunded_points: denied.points });
    expect(denied.note).toBeTruthy();
    expect(denied.decided_by?.first_name).toBe('Priya');
    expect(approved).toMatchObject({ points_adjustment: -approved.points, refunded_points: 0 });
    expect(approved.decided_by?.first_name).toBe('Ali');
    for (const x of page.data) {
      expect(x.reward.image).not.toBeNull();
      expect(x.reward_id).toBe(x.reward.id);
    }
    // The ledger agrees: every exchange took its points, the denied one gave them back.
    const ledger = await balance();
    expect(ledger.balance).toBe(ledger.data.reduce((sum, p) => sum + p.delta, 0));
    for (const x of page.data) expect(ledger.data.filter((p) => p.source_id === x.id && p.reason === 'reward_exchange').map((p) => p.delta)).toEqual([-x.points]);
    expect(ledger.data.filter((p) => p.reason === 'reward_refund').map((p) => [p.source_id, p.delta])).toEqual([[denied.id, denied.points]]);
  });

  it('seeding again adds no reward, picture or exchange and keeps the balance', async () => {
    const count = async (table: 'rewards' | 'reward_exchanges' | 'entry_files' | 'points_ledger') =>
      Number((await server.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = [await count('rewards'), await count('reward_exchanges'), await count('entry_files'), await count('points_ledger'), (await balance()).balance];
    await seedDemo(server.db, deriveKeys(server.config.appKey), { files: server.app.fileStore });
    expect([await count('rewards'), await count('reward_exchanges'), await count('entry_files'), await count('points_ledger'), (await balance()).balance]).toEqual(before);
  });
});

describe('the rewards path is never a resident id', () => {
  it('/v1/projects/residents/rewards is the catalogue and /v1/projects/residents/{uuid} still the resident', async () => {
    const list = await jamie.get('/api/v1/projects/residents/rewards');
    expect(rewardPageSchema.parse(list.body).data.length).toBeGreaterThan(0);
    const resident = await jamie.get(`/api/v1/projects/residents/${jamieId()}`);
    expect(residentDetailsResponseSchema.parse(resident.body).data.id).toBe(jamieId());
    expect((await jamie.get(`/api/v1/projects/residents/${randomUUID()}`)).status).toBe(404);
    // Another word in that place is an id, and not a valid one.
    expect((await jamie.get('/api/v1/projects/residents/reward')).status).toBe(422);
    expect(server.app.hasRoute({ method: 'GET', url: '/api/v1/projects/residents/rewards' })).toBe(true);
  });
});

describe('who may see what (404 for another young person, home or site)', () => {
  it('catalogue, history, exchange and picture', async () => {
    const cedarReward = await rewardOf(cedar(), 'Skate park trip');
    const northReward = await rewardOf(northfield(), 'Film night pick');
    const cedarPicture = await server.db.selectFrom('entry_files').select('id').where('entry_id', '=', cedarReward).executeTakeFirstOrThrow();
    const northPicture = await server.db.selectFrom('entry_files').select('id').where('entry_id', '=', northReward).executeTakeFirstOrThrow();
    for (const [client, residentId] of [[jamie, samId()], [jamie, alexId()], [riley, jamieId()], [sam, jamieId()], [chris, jamieId()], [jo, jamieId()], [alex, jamieId()]] as const) {
      expect((await client.get(`/api/v1/projects/residents/rewards?resident_id=${residentId}`)).status).toBe(404);
      expect((await client.get(`/api/v1/projects/residents/${residentId}/rewards/history`)).status).toBe(404);
      expect((await exchange(client, cedarReward, residentId)).status).toBe(404);
    }
    for (const client of [jamie, riley, ali]) {
      expect((await getBytes(server.base, client, `/api/v1/files/view?file_id=${cedarPicture.id}&module=reward`)).status).toBe(404);
      expect((await getBytes(server.base, client, `/api/v1/files/view?file_id=${northPicture.id}&module=reward`)).status).toBe(404);
    }
    // The module must match the file.
    expect((await getBytes(server.base, sam, `/api/v1/files/view?file_id=${cedarPicture.id}&module=journal`)).status).toBe(404);
    expect((await getBytes(server.base, sam, `/api/v1/files/view?file_id=${cedarPicture.id}&module=reward`)).status).toBe(200);
    expect((await getBytes(server.base, chris, `/api/v1/files/view?file_id=${cedarPicture.id}&module=reward`)).status).toBe(200);
    // Staff of the home read the young person's catalogue and history; staff cannot exchange for them.
    expect((await history(ali)).data.length).toBeGreaterThanOrEqual(3);
    const staffExchange = await exchange(ali, await rewardOf(willow(), 'Later bedtime'));
    expect(staffExchange.status).toBe(403);
    expect(staffExchange.body.message).toBe(rewardMessages.onlyYoungPerson);
    expect((await server.client().get('/api/v1/projects/residents/rewards')).status).toBe(401);
  });
});

describe('exchanging points', () => {
  it('an affordable reward: 201, pending, the points leave the balance at once in the ledger, events for the stream', async () => {
    const before = (await balance()).balance;
    const reward = await newReward(5);
    const stream = await openStream(server, jamie);
    const res = await exchange(jamie, reward.id);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const made = rewardExchangeResponseSchema.parse(res.body).data;
    expect(made).toMatchObject({ status: 'pending', points: 5, points_adjustment: -5, refunded_points: 0, resident_id: jamieId(), reward_id: reward.id, decided_at: null });
    expect(made.reward).toEqual({ id: reward.id, name: reward.name, image: null });
    await stream.waitFor(/"reward_history"/);
    expect(stream.text()).toMatch(/"points"/);
    expect(stream.text()).toMatch(/"resident"/);
    stream.close();
    const after = await balance();
    expect(after.balance).toBe(before - 5);
    expect(after.data[0]).toMatchObject({ delta: -5, reason: 'reward_exchange', source_id: made.id });
    const resident = residentDetailsResponseSchema.parse((await jamie.get(`/api/v1/projects/residents/${jamieId()}`)).body).data;
    expect(resident.reward_points).toBe(after.balance);
    expect((await history(jamie)).data[0]!.id).toBe(made.id);
  });

  it(`refusals are 422 "${rewardMessages.redeemFailed}" with the reason, and take nothing`, async () => {
    const before = (await balance()).balance;
    const expectRefused = async (res: Awaited<ReturnType<typeof exchange>>, errors: Record<string, string[]>) => {
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.message).toBe(rewardMessages.redeemFailed);
      expect(res.body.errors).toEqual(errors);
    };
    // Not enough points.
    await expectRefused(await exchange(jamie, (await newReward(before + 1)).id), { points: [rewardMessages.notEnoughPoints] });
    // Withdrawn, paused, another home's, unknown.
    const withdrawn = await newReward(1);
    expect((await withdraw(ali, withdrawn.id)).status).toBe(200);
    await expectRefused(await exchange(jamie, withdrawn.id), { reward_id: [rewardMessages.unavailable] });
    const paused = await newReward(1);
    expect((await updateReward(ali, paused.id, [['active', '0']])).status).toBe(200);
    await expectRefused(await exchange(jamie, paused.id), { reward_id: [rewardMessages.unavailable] });
    await expectRefused(await exchange(jamie, await rewardOf(cedar(), 'Extra phone time')), { reward_id: [rewardMessages.unavailable] });
    await expectRefused(await exchange(jamie, await rewardOf(northfield(), 'Film night pick')), { reward_id: [rewardMessages.unavailable] });
    await expectRefused(await exchange(jamie, randomUUID()), { reward_id: [rewardMessages.unavailable] });
    // The flag off, as his carer switches it.
    const cheap = await newReward(1);
    const switchRewards = (rewards_enabled: 0 | 1) => ali.put(`/api${paths.residentFeatures.build(jamieId())}`, { rewards_enabled });
    expect((await switchRewards(0)).status).toBe(200);
    try {
      await expectRefused(await exchange(jamie, cheap.id), { rewards_enabled: [rewardMessages.rewardsOff] });
    } finally {
      expect((await switchRewards(1)).status).toBe(200);
    }
    expect((await exchange(jamie, cheap.id)).status).toBe(201);
    expect((await balance()).balance).toBe(before - 1);
  });

  it('bad input is a 4xx with field errors, never a 500', async () => {
    const reward = await newReward(1);
    const path = (resident: string, rewardId: string) => `/api/v1/projects/residents/${resident}/rewards/${rewardId}/exchange`;
    const cases: [string, unknown, number, string?][] = [
      [path(jamieId(), 'not-a-uuid'), {}, 422, 'rewardId'],
      [path('nope', reward.id), {}, 422, 'id'],
      [path(jamieId(), reward.id), { id: 'not-a-uuid' }, 422, 'id'],
      [path(jamieId(), reward.id), { id: 'abc\u0000' }, 422, 'id'],
      [path(jamieId(), reward.id), { id: 42 }, 422, 'id'],
      [path(jamieId(), reward.id), [], 422],
      [path(jamieId(), reward.id), 'text', 422],
      [path(jamieId(), `${reward.id}%00`), {}, 422],
    ];
    for (const [url, body, status, field] of cases) {
      const res = await jamie.post<Answer<unknown>>(url, body);
      expect(res.status, `${url} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`).toBe(status);
      if (field) expect(Object.keys(res.body.errors ?? {}), url).toContain(field);
    }
    const withFile = await postForm(server.base, jamie, path(jamieId(), reward.id), [['files[]', { name: 'x.png', data: pngImage(2, 2, [1, 2, 3]) }]]);
    expect(withFile.status).toBe(422);
    for (const query of ['?resident_id=%00', '?resident_id=x', '?resident_id[]=a', '?per_page=0', '?filters[0][0]=nope&filters[0][1]==&filters[0][2]=1', '?sort[0][0]=points&sort[0][1]=sideways', '?relations[]=nope', '?checkpoint[updated_at]=2026-13-45T99:99:99Z&checkpoint[id]=x']) {
      const res = await jamie.get(`/api/v1/projects/residents/rewards${query}`);
      expect(res.status, query).toBe(422);
    }
    for (const query of ['?filters[0][0]=status&filters[0][1]==&filters[0][2]=a%00b', '?per_page=abc']) {
      const res = await jamie.get(`/api/v1/projects/residents/${jamieId()}/rewards/history${query}`);
      expect(res.status, `${query} ${JSON.stringify(res.body)}`).toBeLessThan(500);
    }
    expect((await jamie.get('/api/v1/projects/residents/xyz/rewards/history')).status).toBe(422);
    expect((await jamie.get(`/api/v1/files/view?file_id=x&module=reward`)).status).toBe(422);
  });
});

describe('staff manage the catalogue', () => {
  it('create with a picture (checked, re-encoded to WebP of at most 800 px), change, replace the picture, pause, withdraw', async () => {
    const big = pngImage(1200, 900, [30, 160, 90], true);
    const created = await createReward(ali, [['name', '  Bowling  '], ['description', 'Two games at the bowling alley'], ['points', '45'], ['position', '7'], ['image', { name: 'bowling.png', data: big, type: 'image/png' }]]);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const reward = rewardResponseSchema.parse(created.body).data;
    expect(reward).toMatchObject({ name: 'Bowling', description: 'Two games at the bowling alley', points: 45, position: 7, active: true, home_id: willow(), deleted_at: null });
    expect(reward.image).toMatchObject({ mime: 'image/webp', name: 'bowling.webp' });
    const picture = await getBytes(server.base, jamie, `/api/v1/files/view?file_id=${reward.image!.id}&module=reward`);
    expect(picture.status).toBe(200);
    const meta = await sharp(picture.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 800, 600]);

    const mark = (await catalogue(jamie, `?resident_id=${jamieId()}&${FIRST_PULL}`)).meta.checkpoint!;
    const since = `?resident_id=${jamieId()}&with_trashed=1&checkpoint[updated_at]=${encodeURIComponent(mark.updated_at)}&checkpoint[id]=${mark.id}`;
    expect((await catalogue(jamie, since)).data).toEqual([]);

    const stream = await openStream(server, jamie);
    const samStream = await openStream(server, sam);
    const changed = await updateReward(ali, reward.id, [['name', 'Bowling night'], ['points', '50'], ['image', { name: 'new.jpg', data: pngImage(40, 30, [200, 30, 30]), type: 'image/png' }]]);
    // A PNG named .jpg: the name and the content must agree.
    expect(changed.status).toBe(422);
    expect(changed.body.errors).toEqual({ image: [messages.fileTypeNotAllowed] });
    const renamed = await updateReward(ali, reward.id, [['name', 'Bowling night'], ['points', '50'], ['image', { name: 'new.png', data: pngImage(40, 30, [200, 30, 30]) }]]);
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: 'Bowling night', points: 50, description: 'Two games at the bowling alley' });
    expect(renamed.body.data.image!.id).not.toBe(reward.image!.id);
    expect((await getBytes(server.base, jamie, `/api/v1/files/view?file_id=${reward.image!.id}&module=reward`)).status).toBe(404);
    await stream.waitFor(/"rewards"/);
    stream.close();
    const pulled = await catalogue(jamie, since);
    expect(pulled.data.map((r) => [r.id, r.name, r.deleted_at])).toEqual([[reward.id, 'Bowling night', null]]);

    // Paused: a tombstone for the young person (with_trashed=1), absent otherwise; still live for staff.
    const paused = await updateReward(ali, reward.id, [['active', '0'], ['remove_image', '1']]);
    expect(paused.body.data).toMatchObject({ active: false, image: null, deleted_at: null });
    const tomb = (await catalogue(jamie, since)).data.find((r) => r.id === reward.id)!;
    expect(tomb.deleted_at).not.toBeNull();
    expect((await catalogue(jamie)).data.some((r) => r.id === reward.id)).toBe(false);
    const staffList = rewardPageSchema.parse((await ali.get(`/api/v1/homes/${willow()}/rewards`)).body);
    expect(staffList.data.find((r) => r.id === reward.id)).toMatchObject({ active: false, deleted_at: null });
    // On again: live again in the next pull.
    expect((await updateReward(ali, reward.id, [['active', '1']])).status).toBe(200);
    expect((await catalogue(jamie, since)).data.find((r) => r.id === reward.id)!.deleted_at).toBeNull();

    // Withdrawn: a tombstone for everyone; withdrawing again is the same answer; no more changes.
    const gone = await withdraw(ali, reward.id);
    expect(gone.status).toBe(200);
    expect(gone.body.data.deleted_at).not.toBeNull();
    expect((await withdraw(ali, reward.id)).body.data.deleted_at).toBe(gone.body.data.deleted_at);
    expect((await updateReward(ali, reward.id, [['name', 'Again']])).status).toBe(404);
    expect((await catalogue(jamie, since)).data.find((r) => r.id === reward.id)!.deleted_at).not.toBeNull();
    const staffTrashed = rewardPageSchema.parse((await ali.get(`/api/v1/homes/${willow()}/rewards?${FIRST_PULL}`)).body);
    expect(staffTrashed.data.find((r) => r.id === reward.id)!.deleted_at).not.toBeNull();
    expect(rewardPageSchema.parse((await ali.get(`/api/v1/homes/${willow()}/rewards`)).body).data.some((r) => r.id === reward.id)).toBe(false);
    // Another home's young person heard nothing of it.
    expect(samStream.text()).not.toMatch(/"rewards"/);
    samStream.close();
  });

  it('two concurrent picture replacements leave one picture: every other picture sent is gone (404)', async () => {
    const reward = await newReward(12);
    const first = await updateReward(ali, reward.id, [['image', { name: 'start.png', data: pngImage(20, 20, [1, 2, 3]) }]]);
    expect(first.status).toBe(200);
    const names = ['left', 'right', 'middle'];
    const answers = await Promise.all(names.map((name, i) => updateReward(ali, reward.id, [['image', { name: `${name}.png`, data: pngImage(24 + i, 20, [i * 60, 90, 30]) }]])));
    expect(answers.map((a) => a.status), JSON.stringify(answers.map((a) => a.body))).toEqual([200, 200, 200]);
    const shown = rewardPageSchema.parse((await ali.get(`/api/v1/homes/${willow()}/rewards?per_page=500`)).body).data.find((r) => r.id === reward.id)!.image!;
    expect(names.map((n) => `${n}.webp`)).toContain(shown.name);
    // The ids of the pictures sent (read, not written: no answer names a picture that lost the race).
    const sent = await server.db.selectFrom('entry_files').select(['id', 'name']).where('entry_type', '=', 'reward').where('entry_id', '=', reward.id).execute();
    expect(sent).toHaveLength(4);
    for (const file of sent) {
      const view = await getBytes(server.base, ali, `/api/v1/files/view?file_id=${file.id}&module=reward`);
      expect([file.name, view.status]).toEqual([file.name, file.id === shown.id ? 200 : 404]);
    }
  });

  it('field errors: name, points, position, description, pictures (type, inappropriate, two, another part), NUL', async () => {
    const flagged = pngImage(16, 16, [250, 200, 190]);
    classifier.flag(flagged);
    const cases: [[string, FormValue][], Record<string, string[]>][] = [
      [[['points', '10']], { name: [rewardMessages.nameRequired] }],
      [[['name', '   '], ['points', '10']], { name: [rewardMessages.nameRequired] }],
      [[['name', 'x'.repeat(81)], ['points', '10']], { name: [rewardMessages.nameTooLong] }],
      [[['name', 'Bad\u0000name'], ['points', '10']], { name: [chosen.unsavableText] }],
      [[['name', 'Free'], ['points', '0']], { points: [rewardMessages.pointsRequired] }],
      [[['name', 'Free'], ['points', '-5']], { points: [rewardMessages.pointsRequired] }],
      [[['name', 'Free'], ['points', '1.5']], { points: [rewardMessages.pointsRequired] }],
      [[['name', 'Free'], ['points', 'lots']], { points: [rewardMessages.pointsRequired] }],
      [[['name', 'Free']], { points: [rewardMessages.pointsRequired] }],
      [[['name', 'Free'], ['points', '100001']], { points: [rewardMessages.pointsRequired] }],
      [[['name', 'Far'], ['points', '1'], ['position', '-1']], { position: [rewardMessages.positionInvalid] }],
      [[['name', 'Long'], ['points', '1'], ['description', 'd'.repeat(501)]], { description: [rewardMessages.descriptionTooLong] }],
      [[['name', 'Doc'], ['points', '1'], ['image', { name: 'doc.pdf', data: PDF }]], { image: [messages.fileTypeNotAllowed] }],
      [[['name', 'Rude'], ['points', '1'], ['image', { name: 'rude.png', data: flagged }]], { image: [messages.imageInappropriate] }],
      [[['name', 'Two'], ['points', '1'], ['image', { name: 'a.png', data: pngImage(4, 4, [1, 1, 1]) }], ['image', { name: 'b.png', data: pngImage(4, 4, [2, 2, 2]) }]], { image: [rewardMessages.oneImage] }],
      [[['name', 'Other'], ['points', '1'], ['files[]', { name: 'a.png', data: pngImage(4, 4, [1, 1, 1]) }]], { 'files[]': [rewardMessages.imageNotExpected] }],
    ];
    for (const [fields, errors] of cases) {
      const res = await createReward(ali, fields);
      expect(res.status, JSON.stringify(fields).slice(0, 120)).toBe(422);
      expect(res.body.errors, JSON.stringify(fields).slice(0, 120)).toEqual(errors);
    }
    const json = await ali.post<Answer<Reward>>(`/api/v1/homes/${willow()}/rewards`, { name: 'JSON reward', points: 12, active: false });
    expect(json.status).toBe(201);
    expect(json.body.data).toMatchObject({ points: 12, active: false, image: null });
    expect((await ali.post(`/api/v1/homes/${willow()}/rewards`, { name: 'Typed', points: '12', active: 'yes' })).status).toBe(422);
    expect((await ali.post(`/api/v1/homes/${willow()}/rewards`, { name: ['x'], points: 1 })).status).toBe(422);
  });

  it('a client id names the reward: sent again, the same reward', async () => {
    const id = randomUUID();
    const first = await createReward(ali, [['id', id], ['name', 'Ice cream'], ['points', '15']]);
    expect(first.status).toBe(201);
    expect(first.body.data.id).toBe(id);
    const again = await createReward(ali, [['id', id], ['name', 'Ice cream'], ['points', '15']]);
    expect(again.status).toBe(201);
    expect(again.body.data.id).toBe(id);
    expect((await server.db.selectFrom('rewards').select('id').where('name', '=', 'Ice cream').execute()).length).toBe(1);
    const stolen = await createReward(chris, [['id', id], ['name', 'Ice cream'], ['points', '15']], cedar());
    expect(stolen.status).toBe(422);
    expect(stolen.body.errors).toEqual({ id: ['This id is already in use'] });
  });

  it('only staff of the home: the young person 403, anyone else 404', async () => {
    const reward = await newReward(3);
    const jamieCreate = await createReward(jamie, [['name', 'Mine'], ['points', '1']]);
    expect(jamieCreate.status).toBe(403);
    expect((await jamie.get(`/api/v1/homes/${willow()}/rewards`)).status).toBe(403);
    expect((await jamie.get(`/api/v1/homes/${willow()}/reward-exchanges`)).status).toBe(403);
    expect((await updateReward(jamie, reward.id, [['name', 'Mine']])).status).toBe(403);
    expect((await withdraw(jamie, reward.id)).status).toBe(403);
    for (const client of [sam, chris, jo, alex]) {
      expect((await createReward(client, [['name', 'Theirs'], ['points', '1']])).status).toBe(404);
      expect((await client.get(`/api/v1/homes/${willow()}/rewards`)).status).toBe(404);
      expect((await client.get(`/api/v1/homes/${willow()}/reward-exchanges`)).status).toBe(404);
      expect((await updateReward(client, reward.id, [['name', 'Theirs']])).status).toBe(404);
      expect((await withdraw(client, reward.id)).status).toBe(404);
    }
    expect((await ali.get(`/api/v1/homes/${randomUUID()}/rewards`)).status).toBe(404);
    expect((await updateReward(ali, randomUUID(), [['name', 'x']])).status).toBe(404);
    expect((await postForm(server.base, ali, `/api/v1/rewards/${reward.id}`, [['name', 'x']])).status).toBe(405);
    expect((await catalogue(jamie)).data.find((r) => r.id === reward.id)!.name).toBe(reward.name);
  });
});

describe("the young person's tombstones carry nothing of the reward", () => {
  const blank = (id: string) => ({
    id, home_id: '00000000-0000-0000-0000-000000000000', name: '', description: null, points: 0, image: null, active: false, position: 0, created_at: '1970-01-01T00:00:00.000000Z',
  });

  it("a reward staff create paused never reaches the young person's device with its name, words or cost", async () => {
    const secret = `Surprise birthday trip ${randomUUID().slice(0, 6)}`;
    const draft = await createReward(ali, [['name', secret], ['description', 'Do not tell Jamie yet'], ['points', '5'], ['position', '3'], ['active', '0']]);
    expect(draft.status, JSON.stringify(draft.body)).toBe(201);
    const reward = rewardResponseSchema.parse(draft.body).data;
    const pull = await jamie.get(`/api/v1/projects/residents/rewards?resident_id=${jamieId()}&relations[]=image&${FIRST_PULL}`);
    expect(pull.status).toBe(200);
    // The contract the replica validates with (src/data/replication/endpoints.ts) takes the tombstone.
    const row = rewardPageSchema.parse(pull.body).data.find((r) => r.id === reward.id)!;
    expect(row).toMatchObject(blank(reward.id));
    expect(row.deleted_at).not.toBeNull();
    expect(JSON.stringify(pull.body)).not.toContain(secret);
    expect(JSON.stringify(pull.body)).not.toContain('Do not tell Jamie yet');
    // Staff still see their draft as it is.
    const staff = rewardPageSchema.parse((await ali.get(`/api/v1/homes/${willow()}/rewards?per_page=500`)).body).data.find((r) => r.id === reward.id);
    expect(staff).toMatchObject({ name: secret, description: 'Do not tell Jamie yet', points: 5, active: false, deleted_at: null });
  });

  it('paused or withdrawn after being live: the tombstone is blank, with its picture gone; on again, it is all back', async () => {
    const res = await createReward(ali, [['name', 'Cinema trip'], ['description', 'Any film'], ['points', '30'], ['image', { name: 'cinema.png', data: pngImage(30, 20, [10, 10, 200]) }]]);
    expect(res.status).toBe(201);
    const reward = rewardResponseSchema.parse(res.body).data;
    const live = (await catalogue(jamie, `?resident_id=${jamieId()}&${FIRST_PULL}`)).data.find((r) => r.id === reward.id)!;
    expect(live).toMatchObject({ name: 'Cinema trip', points: 30, deleted_at: null });
    expect(live.image).not.toBeNull();

    expect((await updateReward(ali, reward.id, [['active', '0']])).status).toBe(200);
    expect((await catalogue(jamie, `?resident_id=${jamieId()}&${FIRST_PULL}`)).data.find((r) => r.id === reward.id)).toMatchObject(blank(reward.id));
    // Staff reading the young person's catalogue see it as the young person does.
    expect((await catalogue(ali, `?resident_id=${jamieId()}&${FIRST_PULL}`)).data.find((r) => r.id === reward.id)).toMatchObject(blank(reward.id));
    expect((await getBytes(server.base, jamie, `/api/v1/files/view?file_id=${live.image!.id}&module=reward`)).status).toBe(404);

    expect((await updateReward(ali, reward.id, [['active', '1']])).status).toBe(200);
    expect((await catalogue(jamie, `?resident_id=${jamieId()}&${FIRST_PULL}`)).data.find((r) => r.id === reward.id)).toMatchObject({ name: 'Cinema trip', points: 30, image: live.image, deleted_at: null });

    expect((await withdraw(ali, reward.id)).status).toBe(200);
    expect((await catalogue(jamie, `?resident_id=${jamieId()}&${FIRST_PULL}`)).data.find((r) => r.id === reward.id)).toMatchObject(blank(reward.id));
    // Staff's own list keeps what they withdrew.
    const staffTrashed = rewardPageSchema.parse((await ali.get(`/api/v1/homes/${willow()}/rewards?${FIRST_PULL}`)).body).data.find((r) => r.id === reward.id)!;
    expect(staffTrashed).toMatchObject({ name: 'Cinema trip', points: 30 });
    expect(staffTrashed.deleted_at).not.toBeNull();
  });

  it("filters match live rewards only: no filter of the young person's catalogue tells a paused reward's name or cost", async () => {
    const secret = `Secret ${randomUUID().slice(0, 8)}`;
    const draft = rewardResponseSchema.parse((await createReward(ali, [['name', secret], ['points', '77'], ['active', '0']])).body).data;
    const found = async (filter: string) =>
      (await catalogue(jamie, `?resident_id=${jamieId()}&${filter}&${FIRST_PULL}`)).data.some((r) => r.id === draft.id);
    const right = await found(`filters[0][0]=name&filters[0][1]==&filters[0][2]=${encodeURIComponent(secret)}`);
    const wrong = await found('filters[0][0]=name&filters[0][1]==&filters[0][2]=Something%20else');
    const cost = await found('filters[0][0]=points&filters[0][1]==&filters[0][2]=77');
    const otherCost = await found('filters[0][0]=points&filters[0][1]==&filters[0][2]=78');
    expect([right, wrong, cost, otherCost]).toEqual([true, true, true, true]);
    // Live rewards are filtered as before.
    const live = await newReward(41, `Live ${randomUUID().slice(0, 8)}`);
    const byName = await catalogue(jamie, `?resident_id=${jamieId()}&filters[0][0]=name&filters[0][1]==&filters[0][2]=${encodeURIComponent(live.name)}`);
    expect(byName.data.map((r) => r.id)).toEqual([live.id]);
  });

  it("no sort of the young person's catalogue orders tombstones by what they hide: one block at one end, by id", async () => {
    const tag = randomUUID().slice(0, 6);
    // Made in this order, so id order (uuidv7) is the opposite of name, cost and position order.
    const paused: string[] = [];
    for (const [name, points, position] of [[`Zz ${tag}`, '90', '900'], [`Mm ${tag}`, '50', '500'], [`Aa ${tag}`, '10', '100']]) {
      paused.push(rewardResponseSchema.parse((await createReward(ali, [['name', name!], ['points', points!], ['position', position!], ['active', '0']])).body).data.id);
    }
    const tombIds = [...paused].sort();
    for (const [field, direction] of [['name', 'asc'], ['name', 'desc'], ['points', 'asc'], ['position', 'desc'], ['created_at', 'asc']]) {
      const rows = (await catalogue(jamie, `?resident_id=${jamieId()}&with_trashed=1&per_page=500&sort[0][0]=${field}&sort[0][1]=${direction}`)).data;
      // One block of tombstones at one end, never among the live rewards, and in id order.
      const dead = rows.map((r) => r.deleted_at !== null);
      const block = dead.indexOf(true) === 0 ? dead.indexOf(false) : dead.length - dead.indexOf(true);
      expect(dead.filter(Boolean).length, `${field} ${direction}`).toBe(block);
      expect(rows.filter((r) => paused.includes(r.id)).map((r) => r.id), `${field} ${direction}`).toEqual(tombIds);
    }
    // The replica's pull still brings the tombstones.
    const pulled = (await catalogue(jamie, `?resident_id=${jamieId()}&${FIRST_PULL}`)).data;
    expect(pulled.filter((r) => paused.includes(r.id)).map((r) => r.deleted_at !== null)).toEqual([true, true, true]);
  });
});

describe('staff decide exchanges', () => {
  it('list pending, approve (points stay spent), deny (points back, once), the young person 403 and others 404', async () => {
    const reward = await newReward(7);
    const start = (await balance()).balance;
    const one = (await exchange(jamie, reward.id)).body.data;
    const two = (await exchange(jamie, reward.id)).body.data;
    expect((await balance()).balance).toBe(start - 14);

    const pending = rewardExchangePageSchema.parse((await ali.get(`/api/v1/homes/${willow()}/reward-exchanges?filters[0][0]=status&filters[0][1]==&filters[0][2]=pending`)).body);
    expect(pending.data.every((x) => x.status === 'pending')).toBe(true);
    expect(pending.data.map((x) => x.id)).toEqual(expect.arrayContaining([one.id, two.id]));
    expect(rewardExchangePageSchema.parse((await chris.get(`/api/v1/homes/${cedar()}/reward-exchanges`)).body).data.some((x) => x.id === one.id)).toBe(false);

    for (const [client, status] of [[jamie, 403], [sam, 404], [chris, 404], [jo, 404], [alex, 404]] as const) {
      expect((await client.post(`/api/v1/reward-exchanges/${one.id}/approve`, {})).status).toBe(status);
      expect((await client.post(`/api/v1/reward-exchanges/${one.id}/deny`, {})).status).toBe(status);
    }
    expect((await ali.post(`/api/v1/reward-exchanges/${randomUUID()}/approve`, {})).status).toBe(404);

    const approved = await ali.post<Answer<RewardExchange>>(`/api/v1/reward-exchanges/${one.id}/approve`, { note: 'Enjoy!' });
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ status: 'approved', note: 'Enjoy!', points_adjustment: -7, refunded_points: 0 });
    expect(approved.body.data.decided_by?.first_name).toBe('Ali');
    expect((await balance()).balance).toBe(start - 14);
    const approveAgain = await ali.post<Answer<RewardExchange>>(`/api/v1/reward-exchanges/${one.id}/approve`, { note: 'Other words' });
    expect(approveAgain.status).toBe(200);
    expect(approveAgain.body.data.note).toBe('Enjoy!');
    const denyApproved = await ali.post<Answer<RewardExchange>>(`/api/v1/reward-exchanges/${one.id}/deny`, {});
    expect(denyApproved.status).toBe(422);
    expect(denyApproved.body.errors).toEqual({ status: [rewardMessages.alreadyApproved] });

    const stream = await openStream(server, jamie);
    const denied = await ali.post<Answer<RewardExchange>>(`/api/v1/reward-exchanges/${two.id}/deny`, {});
    expect(denied.status).toBe(200);
    expect(denied.body.data).toMatchObject({ status: 'denied', points_adjustment: 0, refunded_points: 7 });
    await stream.waitFor(/"points"/);
    expect(stream.text()).toMatch(/"reward_history"/);
    stream.close();
    expect((await balance()).balance).toBe(start - 7);
    expect((await ali.post(`/api/v1/reward-exchanges/${two.id}/deny`, {})).status).toBe(200);
    expect((await ali.post<Answer<RewardExchange>>(`/api/v1/reward-exchanges/${two.id}/approve`, {})).body.errors).toEqual({ status: [rewardMessages.alreadyDenied] });
    expect((await balance()).balance).toBe(start - 7);
    const ledger = await balance();
    expect(ledger.data.filter((p) => p.source_id === two.id).map((p) => p.delta).sort()).toEqual([-7, 7]);
    expect(ledger.balance).toBe(ledger.data.reduce((sum, p) => sum + p.delta, 0));

    // The history shows both decisions; a withdrawn reward's picture stays viewable for whoever exchanged it.
    const shown = (await history(jamie)).data;
    expect(shown.find((x) => x.id === one.id)!.status).toBe('approved');
    expect(shown.find((x) => x.id === two.id)!.status).toBe('denied');
    for (const [note, status] of [[{ note: 'x\u0000y' }, 422], [{ note: 5 }, 422], [{ note: 'n'.repeat(501) }, 422]] as const) {
      expect((await ali.post(`/api/v1/reward-exchanges/${two.id}/approve`, note)).status).toBe(status);
    }
  });

  it("a withdrawn reward stays in the history, with its picture for the young person who exchanged it", async () => {
    const res = await createReward(ali, [['name', 'Museum trip'], ['points', '2'], ['image', { name: 'museum.png', data: pngImage(60, 40, [90, 90, 200]) }]]);
    const reward = res.body.data;
    const made = (await exchange(jamie, reward.id)).body.data;
    expect((await withdraw(ali, reward.id)).status).toBe(200);
    const item = (await history(jamie)).data.find((x) => x.id === made.id)!;
    expect(item.reward.name).toBe('Museum trip');
    expect((await getBytes(server.base, jamie, `/api/v1/files/view?file_id=${item.reward.image!.id}&module=reward`)).status).toBe(200);
    expect((await getBytes(server.base, riley, `/api/v1/files/view?file_id=${item.reward.image!.id}&module=reward`)).status).toBe(404);
  });

  it('renaming a reward moves the exchanges that show it (a history pull brings the new name)', async () => {
    const reward = await newReward(1, 'Old name');
    const made = (await exchange(jamie, reward.id)).body.data;
    const mark = (await history(jamie, jamieId(), `?${FIRST_PULL}`)).meta.checkpoint!;
    const since = `?with_trashed=1&checkpoint[updated_at]=${encodeURIComponent(mark.updated_at)}&checkpoint[id]=${mark.id}`;
    expect((await history(jamie, jamieId(), since)).data).toEqual([]);
    expect((await updateReward(ali, reward.id, [['name', 'New name']])).status).toBe(200);
    expect((await history(jamie, jamieId(), since)).data.map((x) => [x.id, x.reward.name])).toEqual([[made.id, 'New name']]);
    // Only the price changing: histories keep what it cost then, nothing to pull.
    const mark2 = (await history(jamie, jamieId(), since)).meta.checkpoint!;
    expect((await updateReward(ali, reward.id, [['points', '9']])).status).toBe(200);
    expect((await history(jamie, jamieId(), `?with_trashed=1&checkpoint[updated_at]=${encodeURIComponent(mark2.updated_at)}&checkpoint[id]=${mark2.id}`)).data).toEqual([]);
    expect((await history(jamie)).data.find((x) => x.id === made.id)!.points).toBe(1);
  });
});
