import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffAccessMessages, staffAccessPageSchema, type StaffAccessRow } from '../../src/contract/audit';
import type { JournalEntry } from '../../src/contract/entries';
import { paths } from '../../src/contract/paths';
import type { Client } from './support/client';
import { demoIds, signedIn } from './support/session';
import { startTestServer, type TestServer } from './support/server';
import { postForm } from './support/uploads';

/**
 * Issue 12, staff access audit: every staff read or write of a young person's data is recorded
 * (who, what, when, how it ended) where a manager of their home can review it; the young person's
 * own reads are not. Everything here goes through the API, as the people would.
 */
let server: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;
let jamie: Client;
let ali: Client;
let chris: Client;
let priya: Client;

beforeAll(async () => {
  server = await startTestServer();
  ids = await demoIds(server);
  [jamie, ali, chris, priya] = await Promise.all([signedIn(server, 'jamie'), signedIn(server, 'carer.ali'), signedIn(server, 'carer.chris'), signedIn(server, 'manager.priya')]);
});
afterAll(async () => {
  await server?.close();
});

const LOG = `/api${paths.staffAccessLog.pattern}`;
const JOURNAL = `/api${paths.journalEntries.pattern}`;
const user = (name: string) => ids.user[`demo/${name}`]!;
const resident = (name: string) => ids.resident[`demo/${name}`]!;
const byUser = (id: string) => `filters[0][0]=user_id&filters[0][1]=${encodeURIComponent('=')}&filters[0][2]=${id}`;

/** The log as manager.priya reads it (newest first), optionally narrowed. */
async function reviewed(query = ''): Promise<StaffAccessRow[]> {
  const res = await priya.get(`${LOG}?per_page=500${query ? `&${query}` : ''}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return staffAccessPageSchema.parse(res.body).data;
}

describe('staff access audit', () => {
  it('records carer.ali’s reads, refused attempts and writes, with who, what, when and the young person', async () => {
    const before = new Date();
    expect((await ali.get(`/api${paths.resident.build(resident('jamie'))}`)).status).toBe(200);
    expect((await ali.get(`${JOURNAL}?per_page=5`)).status).toBe(200);
    // sam lives in another home: refused, and the attempt is on the record.
    expect((await ali.get(`/api${paths.resident.build(resident('sam'))}`)).status).toBe(404);
    const shared = await postForm<{ data: JournalEntry }>(server.base, jamie, JOURNAL, [
      ['description', 'Audit: shared with Ali'],
      ['shared_with[]', user('carer.ali')],
    ]);
    expect(shared.status).toBe(201);
    expect((await ali.post(`${JOURNAL}/comments`, { entry_id: shared.body.data.id, comment: 'Thanks for telling me' })).status).toBe(201);

    const rows = (await reviewed(byUser(user('carer.ali')))).reverse(); // oldest first
    expect(rows.map((r) => [r.action, r.method, r.route, r.status, r.resident_id])).toEqual([
      ['read', 'GET', paths.resident.pattern, 200, resident('jamie')],
      ['read', 'GET', paths.journalEntries.pattern, 200, null],
      ['read', 'GET', paths.resident.pattern, 404, resident('sam')],
      ['write', 'POST', `${paths.journalEntries.pattern}/comments`, 201, null],
    ]);
    for (const row of rows) {
      expect(row.user).toEqual({ id: user('carer.ali'), first_name: 'Ali', last_name: 'Hassan' });
      expect(Date.parse(row.updated_at)).toBeGreaterThanOrEqual(before.getTime() - 1_000);
    }
    expect(rows[0]!.target).toEqual({ params: { id: resident('jamie') }, query: {} });
    expect(rows[1]!.target.query).toEqual({ per_page: '5' });
  });

  it('never records the young person’s own reads, nor staff reading their own account', async () => {
    const count = async () => (await reviewed()).length;
    const start = await count();
    expect((await jamie.get(`/api${paths.resident.build(resident('jamie'))}`)).status).toBe(200);
    expect((await jamie.get(`${JOURNAL}?per_page=5`)).status).toBe(200);
    expect((await ali.get(`/api${paths.account.pattern}`)).status).toBe(200);
    expect(await count()).toBe(start);
    expect(await reviewed(byUser(user('jamie')))).toEqual([]);
  });

  it('a manager sees only the staff of their own homes; nobody else may read the log', async () => {
    expect((await chris.get(`/api${paths.resident.build(resident('sam'))}`)).status).toBe(200);
    // carer.chris works in Cedar Lodge, not in manager.priya's Willow House.
    expect(await reviewed(byUser(user('carer.chris')))).toEqual([]);
    expect((await reviewed()).every((row) => row.user.id !== user('carer.chris'))).toBe(true);

    for (const someone of [ali, jamie]) {
      const res = await someone.get(LOG);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ success: false, message: staffAccessMessages.managersOnly });
    }
    expect((await server.client().get(LOG)).status).toBe(401);
  });

  it('keeps hostile parameters as harmless text and still records the attempt', async () => {
    const res = await ali.get(`${JOURNAL}?search_term=${encodeURIComponent('<script>x</script>')}&per_page=1`);
    expect(res.status).toBe(200);
    const refused = await ali.get(`${JOURNAL}?search_term=a%00b`);
    expect(refused.status).toBe(422);
    const [latest, previous] = await reviewed(byUser(user('carer.ali')));
    expect(latest).toMatchObject({ status: 422, target: { query: { search_term: '[unsavable text]' } } });
    expect(previous).toMatchObject({ status: 200, target: { query: { search_term: '<script>x</script>', per_page: '1' } } });
  });
});
