import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { eventTypesPageSchema, calendarPageSchema, type CalendarInstance } from '../../src/contract/calendar';
import { chosenMessages as chosen } from '../../src/contract/messages';
import { associatedUsersPageSchema, projectSettingResponseSchema, residentDetailsResponseSchema } from '../../src/contract/residents';
import { rosterPageSchema } from '../../src/contract/rota';
import { localDay } from '../../server/seed/demo';
import type { Client } from './support/client';
import { demoIds, signedIn } from './support/session';
import { startTestServer, type TestServer } from './support/server';

let server: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;
let jamie: Client;

beforeAll(async () => {
  server = await startTestServer();
  ids = await demoIds(server);
  jamie = await signedIn(server, 'jamie');
});
afterAll(async () => {
  await server?.close();
});

const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

describe('GET /api/v1/projects/residents/{id}', () => {
  it('answers the young person their details with key worker and app settings', async () => {
    const res = await jamie.get(`/api/v1/projects/residents/${ids.resident['demo/jamie']}`);
    expect(res.status).toBe(200);
    const { data } = residentDetailsResponseSchema.parse(res.body);
    expect(data).toMatchObject({
      id: ids.resident['demo/jamie'],
      first_name: 'Jamie',
      preferred_name: 'Jamie',
      date_of_birth: '2011-05-14',
      home: { name: 'Willow House' },
      key_worker: { id: ids.user['demo/carer.ali'], first_name: 'Ali', last_name: 'Hassan', has_photo: true },
      app_settings: { journal_colour: 'sunshine', journal_paper: 'lined', theme: 'fun', kids_style: 'fun_style' },
      journal_enabled: 1,
      deleted_at: null,
    });
    expect(data.updated_at).toMatch(/\.\d{6}Z$/);
  });

  it('staff of the home may read it; nobody else (404, other sites too)', async () => {
    const ali = await signedIn(server, 'carer.ali');
    expect((await ali.get(`/api/v1/projects/residents/${ids.resident['demo/jamie']}`)).status).toBe(200);
    expect((await ali.get(`/api/v1/projects/residents/${ids.resident['demo/sam']}`)).status).toBe(404);
    for (const key of ['demo/sam', 'demo/riley', 'northfield/alex']) {
      const res = await jamie.get(`/api/v1/projects/residents/${ids.resident[key]}`);
      expect(res.status, key).toBe(404);
      expect(res.body).toEqual({ success: false, message: chosen.notFound });
    }
  });
});

describe('jamie gets 404 for what is not his', () => {
  it('instances, associated users and settings of sam and of another site', async () => {
    for (const key of ['demo/sam', 'northfield/alex']) {
      const id = ids.resident[key];
      for (const path of [
        `/api/v1/residents/${id}/instances`,
        `/api/v1/projects/residents/${id}/associated-users`,
        `/api/v1/projects/${id}/settings/explicit_image_sensitivity`,
        `/api/v1/projects/residents/${id}`,
      ]) {
        expect((await jamie.get(path)).status, `${key} ${path}`).toBe(404);
      }
    }
  });
});

describe('GET /api/v1/projects/{id}/settings/{name}', () => {
  it('answers the explicit-image sensitivity, 404 for an unknown setting', async () => {
    const res = await jamie.get(`/api/v1/projects/${ids.resident['demo/jamie']}/settings/explicit_image_sensitivity`);
    expect(projectSettingResponseSchema.parse(res.body).data).toEqual({ name: 'explicit_image_sensitivity', value: 'medium' });
    expect((await jamie.get(`/api/v1/projects/${ids.resident['demo/jamie']}/settings/no_such_setting`)).status).toBe(404);
  });
});

describe('GET /api/v1/projects/residents/{id}/associated-users', () => {
  it('lists the staff of the home with job titles, and a leaver becomes a blank tombstone', async () => {
    const path = `/api/v1/projects/residents/${ids.resident['demo/jamie']}/associated-users`;
    const page = associatedUsersPageSchema.parse((await jamie.get(path)).body);
    expect(page.data.map((u) => u.first_name)).toEqual(['Ali', 'Beth', 'Dan', 'Priya']);
    expect(page.data.find((u) => u.first_name === 'Ali')?.job_title).toBe('Key worker');
    expect(page.meta).toMatchObject({ per_page: 50, has_more: false });

    await server.db
      .updateTable('home_staff')
      .set({ deleted_at: sql`now()`, updated_at: sql`now()` })
      .where('user_id', '=', ids.user['demo/carer.dan']!)
      .execute();
    try {
      const live = associatedUsersPageSchema.parse((await jamie.get(path)).body);
      expect(live.data.map((u) => u.first_name)).toEqual(['Ali', 'Beth', 'Priya']);
      const all = associatedUsersPageSchema.parse((await jamie.get(`${path}?with_trashed=1`)).body);
      const dan = all.data.find((u) => u.id === ids.user['demo/carer.dan']);
      expect(dan?.deleted_at).toMatch(/\.\d{6}Z$/);
      expect(dan).toMatchObject({ first_name: '', last_name: '', job_title: null, has_photo: false });
      // A replica that had everything up to the old checkpoint gets exactly the tombstone.
      const since = await jamie.get(`${path}?${q({ with_trashed: '1', 'checkpoint[updated_at]': page.data.map((u) => u.updated_at).sort().at(-1)!, 'checkpoint[id]': 'ffffffff-ffff-4fff-bfff-ffffffffffff' })}`);
      const sincePage = associatedUsersPageSchema.parse(since.body);
      expect(sincePage.data.map((u) => [u.id, u.deleted_at !== null])).toEqual([[ids.user['demo/carer.dan'], true]]);
    } finally {
      await server.db.updateTable('home_staff').set({ deleted_at: null, updated_at: sql`now()` }).where('user_id', '=', ids.user['demo/carer.dan']!).execute();
    }
  });
});

describe('checkpoint pagination (calendar instances)', () => {
  it('walks every row exactly once across pages, rows sharing a millisecond and a microsecond included', async () => {
    const residentId = ids.resident['demo/jamie']!;
    const tenant = await server.db.selectFrom('residents').select('tenant_id').where('id', '=', residentId).executeTakeFirstOrThrow();
    const type = await server.db.selectFrom('event_types').select('id').where('tenant_id', '=', tenant.tenant_id).executeTakeFirstOrThrow();
    // Eleven rows: three share one microsecond, four more share its millisecond. Stamped in the past:
    // a checkpoint never passes the present (lib/sync-horizon.ts), so rows stamped in the future
    // would come again at every pull until then.
    const stamps = [
      '2021-01-01T00:00:00.123000Z', '2021-01-01T00:00:00.123000Z', '2021-01-01T00:00:00.123000Z',
      '2021-01-01T00:00:00.123001Z', '2021-01-01T00:00:00.123002Z', '2021-01-01T00:00:00.123500Z', '2021-01-01T00:00:00.123999Z',
      '2021-01-01T00:00:00.124000Z', '2021-01-01T00:00:01.000000Z', '2021-01-01T00:00:01.000000Z', '2021-01-02T00:00:00.000000Z',
    ];
    for (const [i, stamp] of stamps.entries()) {
      const event = await server.db
        .insertInto('events')
        .values({ tenant_id: tenant.tenant_id, title: `Pagination ${i}`, event_type_id: type.id, updated_at: stamp })
        .returning('id')
        .executeTakeFirstOrThrow();
      await server.db
        .insertInto('event_instances')
        .values({ tenant_id: tenant.tenant_id, event_id: event.id, resident_id: residentId, start_date: '2030-01-01', end_date: '2030-01-01', updated_at: stamp })
        .execute();
    }
    const expected = (await server.db.selectFrom('event_instances').select('id').where('resident_id', '=', residentId).where('deleted_at', 'is', null).execute()).map((r) => r.id);
    expect(expected.length).toBeGreaterThan(stamps.length);

    const seen: string[] = [];
    let checkpoint = { updated_at: '1970-01-01T00:00:00Z', id: '00000000-0000-0000-0000-000000000000' };
    let pages = 0;
    for (;;) {
      const res = await jamie.get(`/api/v1/residents/${residentId}/instances?${q({ per_page: '3', 'checkpoint[updated_at]': checkpoint.updated_at, 'checkpoint[id]': checkpoint.id })}`);
      expect(res.status).toBe(200);
      const page = calendarPageSchema.parse(res.body);
      pages++;
      seen.push(...page.data.map((r) => r.id));
      const keys = page.data.map((r) => `${r.updated_at} ${r.id}`);
      expect(keys).toEqual([...keys].sort());
      if (!page.meta.has_more) break;
      expect(page.data).toHaveLength(3);
      checkpoint = page.meta.checkpoint!;
      expect(pages).toBeLessThan(100);
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual([...expected].sort());
    // has_more looks one row ahead: a last full page says so, with no empty page after it. (How many
    // rows there are depends on the day: the demo calendar is seeded around today.)
    expect(pages).toBe(Math.ceil(expected.length / 3));

    // The microseconds travel: the three rows of one microsecond carry it exactly.
    const all = calendarPageSchema.parse((await jamie.get(`/api/v1/residents/${residentId}/instances?per_page=500&start_date=2030-01-01`)).body);
    expect(all.data.filter((r) => r.updated_at === '2021-01-01T00:00:00.123000Z')).toHaveLength(3);
    expect(all.data.some((r) => r.updated_at === '2021-01-01T00:00:00.123001Z')).toBe(true);
  });

  it('a row’s time is the newer of its instance’s and its event’s: an event that changes brings every one of its instances again, and only those', async () => {
    const residentId = ids.resident['demo/jamie']!;
    const tenant = await server.db.selectFrom('residents').select('tenant_id').where('id', '=', residentId).executeTakeFirstOrThrow();
    const type = await server.db.selectFrom('event_types').select('id').where('tenant_id', '=', tenant.tenant_id).executeTakeFirstOrThrow();
    const event = await server.db
      .insertInto('events')
      .values({ tenant_id: tenant.tenant_id, title: 'Swimming', event_type_id: type.id, updated_at: '2021-05-01T00:00:00.000000Z' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const stamps = ['2021-04-01T00:00:00.000000Z', '2021-04-02T00:00:00.000000Z', '2021-06-01T00:00:00.000000Z'];
    const instances = await server.db
      .insertInto('event_instances')
      .values(stamps.map((stamp) => ({ tenant_id: tenant.tenant_id, event_id: event.id, resident_id: residentId, start_date: '2031-02-02', end_date: '2031-02-02', updated_at: stamp })))
      .returning('id')
      .execute();
    const ours = <T extends { id: string }>(rows: T[]) => rows.filter((r) => instances.some((i) => i.id === r.id));
    /** Every row after `from`, page by page as the replica pulls, and the checkpoint it ends on. */
    const pullFrom = async (from: { updated_at: string; id: string }) => {
      const rows: CalendarInstance[] = [];
      let checkpoint = from;
      for (let pages = 0; pages < 50; pages++) {
        const res = await jamie.get(`/api/v1/residents/${residentId}/instances?${q({ per_page: '500', with_trashed: '1', 'checkpoint[updated_at]': checkpoint.updated_at, 'checkpoint[id]': checkpoint.id })}`);
        const page = calendarPageSchema.parse(res.body);
        rows.push(...page.data);
        checkpoint = page.meta.checkpoint ?? checkpoint;
        if (!page.meta.has_more) break;
      }
      return { rows, checkpoint };
    };
    const first = await pullFrom({ updated_at: '1970-01-01T00:00:00Z', id: '00000000-0000-0000-0000-000000000000' });
    expect(ours(first.rows).map((r) => r.updated_at).sort()).toEqual(['2021-05-01T00:00:00.000000Z', '2021-05-01T00:00:00.000000Z', '2021-06-01T00:00:00.000000Z']);

    await server.db.updateTable('events').set({ title: 'Swimming at five', updated_at: sql`clock_timestamp()` }).where('id', '=', event.id).execute();
    const moved = (await server.db.selectFrom('events').select(sql<string>`to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('at')).where('id', '=', event.id).executeTakeFirstOrThrow()).at;
    const afterEvent = await pullFrom(first.checkpoint);
    expect(afterEvent.rows.map((r) => r.id).sort()).toEqual(instances.map((i) => i.id).sort());
    expect(afterEvent.rows.every((r) => r.updated_at === moved && r.event.title === 'Swimming at five')).toBe(true);

    // One instance changed alone comes alone.
    await server.db.updateTable('event_instances').set({ start_time: '17:00', updated_at: sql`clock_timestamp()` }).where('id', '=', instances[2]!.id).execute();
    const afterInstance = await pullFrom(afterEvent.checkpoint);
    expect(afterInstance.rows.map((r) => [r.id, r.start_time])).toEqual([[instances[2]!.id, '17:00']]);
    expect(afterInstance.rows[0]!.updated_at > moved).toBe(true);
  });

  it('tombstones only with with_trashed=1', async () => {
    const residentId = ids.resident['demo/jamie']!;
    const victim = await server.db.selectFrom('event_instances').select('id').where('resident_id', '=', residentId).where('deleted_at', 'is', null).executeTakeFirstOrThrow();
    await server.db.updateTable('event_instances').set({ deleted_at: sql`now()`, updated_at: sql`now()` }).where('id', '=', victim.id).execute();
    const live = calendarPageSchema.parse((await jamie.get(`/api/v1/residents/${residentId}/instances?per_page=500`)).body);
    expect(live.data.map((r) => r.id)).not.toContain(victim.id);
    expect(live.data.every((r) => r.deleted_at === null)).toBe(true);
    const trashed = calendarPageSchema.parse((await jamie.get(`/api/v1/residents/${residentId}/instances?per_page=500&with_trashed=1`)).body);
    expect(trashed.data.find((r) => r.id === victim.id)?.deleted_at).toMatch(/Z$/);
  });

  it('filters, start_date and sort', async () => {
    const residentId = ids.resident['demo/jamie']!;
    const today = localDay(0);
    const page = calendarPageSchema.parse((await jamie.get(`/api/v1/residents/${residentId}/instances?start_date=${today}&per_page=10`)).body);
    expect(page.data.length).toBe(10);
    expect(page.meta.has_more).toBe(true);
    expect(page.data.every((r) => r.end_date >= today)).toBe(true);
    const order = page.data.map((r) => `${r.start_date} ${r.start_time ?? ''}`);
    expect(order).toEqual([...order].sort());
    expect(page.data[0]!.event).toMatchObject({ title: expect.any(String), location: null });

    const filtered = calendarPageSchema.parse(
      (await jamie.get(`/api/v1/residents/${residentId}/instances?${q({ 'filters[0][0]': 'start_date', 'filters[0][1]': '=', 'filters[0][2]': '2030-01-01', 'sort[0][0]': 'start_date', 'sort[0][1]': 'desc' })}`)).body,
    );
    expect(filtered.data.length).toBe(11);
  });

  it('refuses unknown filter fields, operators, bad values and sorts with 422', async () => {
    const base = `/api/v1/residents/${ids.resident['demo/jamie']}/instances?`;
    const unknown = await jamie.get(base + q({ 'filters[0][0]': 'password', 'filters[0][1]': '=', 'filters[0][2]': 'x' }));
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({ success: false, message: chosen.validationFailed, errors: { filters: [expect.stringContaining('password')] } });
    const operator = await jamie.get(base + q({ 'filters[0][0]': 'start_date', 'filters[0][1]': 'like', 'filters[0][2]': 'x' }));
    expect(operator.status).toBe(422);
    expect(operator.body).toHaveProperty('errors.filters');
    const value = await jamie.get(base + q({ 'filters[0][0]': 'start_date', 'filters[0][1]': '=', 'filters[0][2]': "2030-01-01'; drop table users; --" }));
    expect(value.status).toBe(422);
    const sort = await jamie.get(base + q({ 'sort[0][0]': 'secret', 'sort[0][1]': 'asc' }));
    expect(sort.status).toBe(422);
    expect(sort.body).toHaveProperty('errors.sort');
    expect((await jamie.get(`${base}per_page=1001`)).status).toBe(422);
    expect((await jamie.get(`${base}per_page=1000`)).status).toBe(200);
    expect((await jamie.get(base + q({ 'checkpoint[updated_at]': 'yesterday', 'checkpoint[id]': 'x' }))).status).toBe(422);
  });
});

describe('GET /api/v1/events/types and /api/v1/rotas/staff-roster', () => {
  it('event types of the site', async () => {
    const page = eventTypesPageSchema.parse((await jamie.get('/api/v1/events/types')).body);
    expect(page.data.map((t) => t.name)).toEqual(['Activity', 'Appointment', 'Family time', 'Health', 'School']);
  });

  it("today's roster of jamie's home, with the user; other homes 404; date required", async () => {
    const home = ids.home['Willow House']!;
    const res = await jamie.get(`/api/v1/rotas/staff-roster?date=${localDay(0)}&parent_project_ids[0]=${home}&with[0]=user`);
    expect(res.status).toBe(200);
    const page = rosterPageSchema.parse(res.body);
    expect(page.data.map((r) => r.user.first_name).sort()).toEqual(['Ali', 'Beth', 'Dan', 'Priya']);
    expect(page.data.every((r) => r.shift_date === localDay(0) && r.home_id === home)).toBe(true);
    const all = rosterPageSchema.parse((await jamie.get(`/api/v1/rotas/staff-roster?date=${localDay(0)}`)).body);
    expect(all.data).toHaveLength(4);
    expect((await jamie.get(`/api/v1/rotas/staff-roster?date=${localDay(0)}&parent_project_ids[0]=${ids.home['Cedar Lodge']}`)).status).toBe(404);
    expect((await jamie.get(`/api/v1/rotas/staff-roster?date=${localDay(0)}&parent_project_ids[0]=${ids.home['Northfield House']}`)).status).toBe(404);
    const missing = await jamie.get('/api/v1/rotas/staff-roster');
    expect(missing.status).toBe(422);
    expect(missing.body).toHaveProperty('errors.date');
  });
});

describe('sessions still rule', () => {
  it('401 without a session on every new read', async () => {
    const anonymous = server.client();
    const id = ids.resident['demo/jamie'];
    for (const path of [
      `/api/v1/projects/residents/${id}`,
      `/api/v1/projects/residents/${id}/associated-users`,
      `/api/v1/projects/${id}/settings/explicit_image_sensitivity`,
      `/api/v1/residents/${id}/instances`,
      '/api/v1/events/types',
      `/api/v1/rotas/staff-roster?date=${localDay(0)}`,
      '/api/v1/projects/residents/feedback',
      '/api/v1/projects/residents/feedback/counts',
      '/api/v1/sync/stream',
    ]) {
      const res = await anonymous.get(path);
      expect(res.status, path).toBe(401);
    }
  });
});
