import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffAccessPageSchema, type StaffAccessRow } from '../../src/contract/audit';
import { paths } from '../../src/contract/paths';
import { IDEMPOTENCY_HEADER, IDEMPOTENT_REPLAY_HEADER } from '../../src/contract/sync';
import type { Client } from './support/client';
import { demoIds, signedIn } from './support/session';
import { startTestServer, type TestServer } from './support/server';

/**
 * The staff access log says what a member of staff changed where the request's route and query do
 * not: which of a young person's flags they switched (before and after, only those that changed) and
 * which home they moved them from and to (docs/decisions.md "Staff changes recorded in detail").
 * A refused request and an idempotent replay record no change. Through the API: carer.ali writes,
 * manager.priya reads the log.
 */
let server: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;
let jamie: Client;
let ali: Client;
let priya: Client;

beforeAll(async () => {
  server = await startTestServer();
  ids = await demoIds(server);
  [jamie, ali, priya] = await Promise.all([signedIn(server, 'jamie'), signedIn(server, 'carer.ali'), signedIn(server, 'manager.priya')]);
});
afterAll(async () => {
  await server?.close();
});

const jamieId = () => ids.resident['demo/jamie']!;
const willow = () => ids.home['Willow House']!;
const cedar = () => ids.home['Cedar Lodge']!;
const features = (resident: string) => `/api${paths.residentFeatures.build(resident)}`;
const home = (resident: string) => `/api${paths.residentHome.build(resident)}`;

/** carer.ali's latest `count` rows of the log as manager.priya reads it, oldest first. */
async function alisLatest(count: number): Promise<StaffAccessRow[]> {
  const query = `filters[0][0]=user_id&filters[0][1]=${encodeURIComponent('=')}&filters[0][2]=${ids.user['demo/carer.ali']}&per_page=${count}`;
  const res = await priya.get(`/api${paths.staffAccessLog.build()}?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return staffAccessPageSchema.parse(res.body).data.reverse();
}

const summary = (row: StaffAccessRow) => ({ route: row.route, status: row.status, resident_id: row.resident_id, detail: row.detail });

describe('staff changes recorded in detail', () => {
  it('a features write records only the flags it changed, each before and after; one that changes nothing records none', async () => {
    expect((await ali.put(features(jamieId()), { journal_enabled: 0, voice_enabled: 1 })).status).toBe(200);
    expect((await ali.put(features(jamieId()), { journal_enabled: 0 })).status).toBe(200);
    expect((await ali.post(`${features(jamieId())}?_method=PUT`, { journal_enabled: 1, rewards_enabled: 0 })).status).toBe(200);

    const route = paths.residentFeatures.pattern;
    expect((await alisLatest(3)).map(summary)).toEqual([
      { route, status: 200, resident_id: jamieId(), detail: { features: { journal_enabled: { from: 1, to: 0 } } } },
      { route, status: 200, resident_id: jamieId(), detail: { features: {} } },
      { route, status: 200, resident_id: jamieId(), detail: { features: { journal_enabled: { from: 0, to: 1 }, rewards_enabled: { from: 1, to: 0 } } } },
    ]);
  });

  it('refused features writes record the attempt with no detail, and change nothing', async () => {
    // A value the contract refuses, a misspelt flag, a young person of another home.
    expect((await ali.put(features(jamieId()), { voice_enabled: true })).status).toBe(422);
    expect((await ali.put(features(jamieId()), { voice_enabled: 0, jurnal_enabled: 0 })).status).toBe(422);
    expect((await ali.put(features(ids.resident['demo/sam']!), { voice_enabled: 0 })).status).toBe(404);
    // Jamie himself may not (403), and his own requests are never in the log.
    expect((await jamie.put(features(jamieId()), { rewards_enabled: 1 })).status).toBe(403);

    const rows = await alisLatest(3);
    expect(rows.map((r) => [r.status, r.detail])).toEqual([[422, null], [422, null], [404, null]]);
    const details = await jamie.get(`/api${paths.resident.build(jamieId())}`);
    expect(details.body).toMatchObject({ data: { journal_enabled: 1, voice_enabled: 1, rewards_enabled: 0 } });
  });

  it('a write sent again under its idempotency key is answered from the store and records no change of its own', async () => {
    const send = () => ali.request('PUT', features(jamieId()), { json: { rewards_enabled: 1 }, headers: { [IDEMPOTENCY_HEADER]: 'rewards-on-sent-twice' } });
    expect((await send()).status).toBe(200);
    const again = await send();
    expect(again.status).toBe(200);
    expect(again.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBe('true');

    expect((await alisLatest(2)).map((r) => r.detail)).toEqual([{ features: { rewards_enabled: { from: 0, to: 1 } } }, null]);
  });

  it('a home move records the home before and after; a refused move records none', async () => {
    // Already there: nothing moves, and the record says so.
    expect((await ali.put(home(jamieId()), { home_id: willow() })).status).toBe(200);
    // Not a home of the site.
    expect((await ali.put(home(jamieId()), { home_id: '00000000-0000-0000-0000-000000000000' })).status).toBe(422);
    expect((await ali.post(`${home(jamieId())}?_method=PUT`, { home_id: cedar() })).status).toBe(200);
    // Jamie lives in Cedar Lodge now: carer.ali no longer reaches him.
    expect((await ali.put(home(jamieId()), { home_id: willow() })).status).toBe(404);

    const route = paths.residentHome.pattern;
    expect((await alisLatest(4)).map(summary)).toEqual([
      { route, status: 200, resident_id: jamieId(), detail: { home: { from: willow(), to: willow() } } },
      { route, status: 422, resident_id: jamieId(), detail: null },
      { route, status: 200, resident_id: jamieId(), detail: { home: { from: willow(), to: cedar() } } },
      { route, status: 404, resident_id: jamieId(), detail: null },
    ]);
  });

  it('other requests carry no detail', async () => {
    expect((await ali.get(`/api${paths.resident.build(ids.resident['demo/riley']!)}`)).status).toBe(200);
    const [row] = await alisLatest(1);
    expect(row).toMatchObject({ route: paths.resident.pattern, status: 200, detail: null });
  });
});
