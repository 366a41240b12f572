import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentPageSchema } from '../../src/contract/documents';
import { formSchema } from '../../src/contract/forms';
import { chosenMessages } from '../../src/contract/messages';
import { paths } from '../../src/contract/paths';
import { associatedUsersPageSchema, HOME_REQUIRED, residentDetailsResponseSchema } from '../../src/contract/residents';
import { rewardPageSchema, rewardResponseSchema } from '../../src/contract/rewards';
import { rosterPageSchema } from '../../src/contract/rota';
import { pageSchema, type Checkpoint } from '../../src/contract/sync';
import { localDay } from '../../server/seed/demo';
import type { Client } from './support/client';
import { demoIds, openStream, signInDemoClients, type OpenStream } from './support/session';
import { startTestServer, type TestServer } from './support/server';

/**
 * A young person moves home (docs/decisions.md "A young person moves home"), through the API only:
 * staff move Jamie from Willow House to Cedar Lodge, and his next checkpoint pull of every list of
 * per-home rows brings a blank tombstone for each row of Willow House he had, and Cedar Lodge's rows,
 * even those older than his checkpoint. Riley, who stays, sees no change. Sam then moves to Willow
 * House and loses the form he was given only through a Cedar Lodge form document.
 */
let server: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;
let jamie: Client;
let riley: Client;
let sam: Client;
let ali: Client;
let chris: Client;

beforeAll(async () => {
  server = await startTestServer();
  ids = await demoIds(server);
  ({ jamie, sam, riley, ali, chris } = await signInDemoClients(server));
});
afterAll(async () => {
  await server?.close();
});

const willow = () => ids.home['Willow House']!;
const cedar = () => ids.home['Cedar Lodge']!;
const jamieId = () => ids.resident['demo/jamie']!;
const NIL = '00000000-0000-0000-0000-000000000000';
const EPOCH = '1970-01-01T00:00:00.000000Z';
const today = localDay(0);

interface Row {
  id: string;
  updated_at: string;
  deleted_at: string | null;
}
type Rows = Record<string, unknown> & Row;

/** The lists a young person's replica pulls because of their home, as src/data/replication asks for them. */
const LISTS = {
  rewards: { schema: rewardPageSchema, path: () => paths.rewards.build(), query: (): Record<string, string> => ({ 'relations[0]': 'image' }) },
  staff: { schema: associatedUsersPageSchema, path: (resident: string) => paths.associatedUsers.build(resident), query: () => ({}) },
  rota: { schema: rosterPageSchema, path: () => paths.staffRoster.build(), query: (home: string) => ({ date: today, 'parent_project_ids[0]': home, 'with[0]': 'user' }) },
  documents: { schema: documentPageSchema, path: () => paths.documents.build(), query: () => ({}) },
  forms: { schema: pageSchema(formSchema), path: () => paths.forms.build(), query: () => ({}) },
} as const;
type ListName = keyof typeof LISTS;

/** Every page of a list after `from` (the start without one), as the replica walks it. */
async function pull(client: Client, name: ListName, resident: string, home: string, from: Checkpoint | null = null): Promise<{ rows: Rows[]; checkpoint: Checkpoint | null }> {
  const list = LISTS[name];
  const rows: Rows[] = [];
  let checkpoint = from ?? { updated_at: EPOCH, id: NIL };
  for (;;) {
    const query = new URLSearchParams({
      ...list.query(home),
      with_trashed: '1',
      per_page: '500',
      'sort[0][0]': 'updated_at',
      'sort[0][1]': 'asc',
      'checkpoint[updated_at]': checkpoint.updated_at,
      'checkpoint[id]': checkpoint.id,
    });
    const res = await client.get(`/api${list.path(resident)}?${query}`);
    expect(res.status, `${name}: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(200);
    const page = list.schema.parse(res.body);
    rows.push(...(page.data as Rows[]));
    if (page.meta.checkpoint) checkpoint = page.meta.checkpoint;
    if (!page.meta.has_more) return { rows, checkpoint: rows.length > 0 || from ? checkpoint : null };
  }
}

/** A replica of every list: the rows it holds (tombstones dropped) and each list's checkpoint. */
async function replicaOf(client: Client, resident: string, home: string) {
  const held = {} as Record<ListName, Map<string, Rows>>;
  const checkpoints = {} as Record<ListName, Checkpoint | null>;
  for (const name of Object.keys(LISTS) as ListName[]) {
    const { rows, checkpoint } = await pull(client, name, resident, home);
    held[name] = new Map(rows.filter((r) => r.deleted_at === null).map((r) => [r.id, r]));
    checkpoints[name] = checkpoint;
  }
  return { held, checkpoints };
}

const move = (client: Client, resident: string, home: unknown) => client.put(`/api${paths.residentHome.build(resident)}`, { home_id: home });
const withoutSync = ({ id: _id, updated_at: _u, deleted_at: _d, ...rest }: Rows) => rest;

/** The tombstones of a pull: each carries nothing but its id and times (one shape for all). */
function tombstones(rows: Rows[], blank: Record<string, unknown>): Rows[] {
  const gone = rows.filter((r) => r.deleted_at !== null);
  for (const row of gone) expect(withoutSync(row), row.id).toEqual(blank);
  return gone;
}

const BLANK: Record<ListName, Record<string, unknown>> = {
  rewards: { home_id: NIL, name: '', description: null, points: 0, image: null, active: false, position: 0, created_at: EPOCH },
  staff: { first_name: '', last_name: '', job_title: null, has_photo: false },
  rota: { home_id: NIL, user_id: NIL, shift_date: today, starts_at: '00:00', ends_at: '00:00', user: { id: NIL, first_name: '', last_name: '', has_photo: false } },
  documents: expect.objectContaining({ title: '', description: null, category: '', resident_id: null, home_id: null, version: 0, file: null, book: null, gallery: null, form: null, submission: null }),
  forms: { name: '', description: null, version_id: NIL, version: 0, fields: [], created_at: EPOCH },
};

describe('staff move a young person to another home of the site', () => {
  it('only staff of the young person’s home, and only to a home of the site', async () => {
    expect((await move(jamie, jamieId(), cedar())).status).toBe(403);
    expect((await move(chris, jamieId(), cedar())).status).toBe(404);
    expect((await move(sam, jamieId(), cedar())).status).toBe(404);
    for (const home of ['not-a-home', NIL, ids.home['Northfield House']]) {
      const res = await move(ali, jamieId(), home);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ message: chosenMessages.validationFailed, errors: { home_id: [HOME_REQUIRED] } });
    }
  });
});

describe('Jamie moves from Willow House to Cedar Lodge', () => {
  let jamieBefore: Awaited<ReturnType<typeof replicaOf>>;
  let rileyBefore: Awaited<ReturnType<typeof replicaOf>>;
  let cedarReward: string;
  let willowFormDocument: string;
  const after = {} as Record<ListName, Rows[]>;
  const afterCheckpoints = {} as Record<ListName, Checkpoint | null>;
  let stream: OpenStream;

  beforeAll(async () => {
    // Rows of both homes made before the checkpoints: Cedar Lodge's must still reach Jamie after the move.
    const reward = await chris.post(`/api${paths.homeRewards.build(cedar())}`, { name: 'Climbing wall', points: '25' });
    expect(reward.status, JSON.stringify(reward.body)).toBe(201);
    cedarReward = rewardResponseSchema.parse(reward.body).data.id;
    const forms = pageSchema(formSchema).parse((await ali.get(`/api${paths.forms.build()}`)).body).data;
    const formId = (name: string) => forms.find((f) => f.name === name)!.id;
    const houseCheckIn = await ali.post(`/api${paths.documents.build()}`, { kind: 'form', title: 'House check-in', home_id: willow(), form_id: formId('Education') });
    expect(houseCheckIn.status, JSON.stringify(houseCheckIn.body)).toBe(201);
    willowFormDocument = (houseCheckIn.body as { data: { id: string } }).data.id;
    const wellbeing = await chris.post(`/api${paths.documents.build()}`, { kind: 'form', title: 'Wellbeing check', home_id: cedar(), form_id: formId('Health and wellbeing') });
    expect(wellbeing.status, JSON.stringify(wellbeing.body)).toBe(201);

    jamieBefore = await replicaOf(jamie, jamieId(), willow());
    rileyBefore = await replicaOf(riley, ids.resident['demo/riley']!, willow());
    stream = await openStream(server, jamie);
    await stream.waitFor(/: connected/);
    const moved = await move(ali, jamieId(), cedar());
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const details = residentDetailsResponseSchema.parse(moved.body).data;
    expect(details).toMatchObject({ home_id: cedar(), home: { id: cedar(), name: 'Cedar Lodge' } });
    // His key worker (Ali) does not work at Cedar Lodge.
    expect(details.key_worker).toBeNull();
    for (const name of Object.keys(LISTS) as ListName[]) {
      const pulled = await pull(jamie, name, jamieId(), cedar(), jamieBefore.checkpoints[name]);
      [after[name], afterCheckpoints[name]] = [pulled.rows, pulled.checkpoint];
    }
  });

  it('each list brings one blank tombstone, at the time of the move, for each row of Willow House he had', async () => {
    const stamps = new Set<string>();
    for (const name of Object.keys(LISTS) as ListName[]) {
      if (name === 'forms') continue;
      const gone = tombstones(after[name], BLANK[name]);
      const held = [...jamieBefore.held[name].values()];
      const willowRows = name === 'staff' ? held : held.filter((r) => r.home_id === willow());
      expect(willowRows.length, name).toBeGreaterThan(0);
      expect(gone.map((r) => r.id).sort(), name).toEqual(willowRows.map((r) => r.id).sort());
      for (const row of gone) stamps.add(`${row.updated_at} ${row.deleted_at}`);
    }
    expect(stamps.size).toBe(1);
    const [updated, deleted] = [...stamps][0]!.split(' ');
    expect(updated).toBe(deleted);
  });

  it('each list brings Cedar Lodge’s rows, those older than his checkpoint included', async () => {
    const live = (name: ListName) => after[name].filter((r) => r.deleted_at === null);
    expect(live('rewards').map((r) => r.id)).toContain(cedarReward);
    expect(live('rewards').length).toBeGreaterThanOrEqual(4);
    expect(live('rewards').every((r) => r.home_id === cedar() && (r.name as string).length > 0)).toBe(true);
    expect(live('staff').map((r) => r.first_name)).toEqual(['Chris']);
    expect(live('rota').length).toBeGreaterThan(0);
    expect(live('rota').every((r) => r.home_id === cedar() && (r.user as { first_name: string }).first_name === 'Chris')).toBe(true);
    expect(live('documents').map((r) => r.title).sort()).toEqual(['Fire safety', 'Wellbeing check']);
    // Every form he had is still given (his objectives, his own review form): none is lost.
    expect(after.forms.every((r) => r.deleted_at === null)).toBe(true);
  });

  it('nothing of Willow House is readable by id any more; his own documents stay his', async () => {
    expect((await jamie.get(`/api${paths.document.build(willowFormDocument)}`)).status).toBe(404);
    for (const doc of jamieBefore.held.documents.values()) {
      const status = (await jamie.get(`/api${paths.document.build(doc.id)}`)).status;
      expect(status, doc.title as string).toBe(doc.home_id === willow() ? 404 : 200);
    }
    for (const user of jamieBefore.held.staff.values()) {
      expect((await jamie.get(`/api${paths.user.build(user.id)}`)).status, user.first_name as string).toBe(404);
    }
    expect((await jamie.get(`/api${paths.staffRoster.build()}?date=${today}&parent_project_ids[0]=${willow()}`)).status).toBe(404);
    // A Willow House reward he never swapped: its picture is gone for him, and it cannot be swapped.
    const exchanged = new Set((await server.db.selectFrom('reward_exchanges').select('reward_id').where('resident_id', '=', jamieId()).execute()).map((x) => x.reward_id));
    const other = [...jamieBefore.held.rewards.values()].find((r) => !exchanged.has(r.id) && r.image)!;
    const picture = await jamie.get(`/api/v1/files/view?file_id=${(other.image as { id: string }).id}&module=reward`);
    expect(picture.status).toBe(404);
    const swap = await jamie.post(`/api${paths.rewardExchange.build(jamieId(), other.id)}`, {});
    expect(swap.status).toBe(422);
  });

  it('his event stream ends, and the one it reopens with tells him of Cedar Lodge’s changes', async () => {
    await stream.ended;
    const again = await openStream(server, jamie);
    try {
      await again.waitFor(/: connected/);
      expect((await chris.post(`/api${paths.homeRewards.build(cedar())}`, { name: 'Cinema', points: '40' })).status).toBe(201);
      await again.waitFor(/"collections":\["rewards"\]/);
    } finally {
      again.close();
    }
  });

  it('a young person who did not move sees no change', async () => {
    for (const name of Object.keys(LISTS) as ListName[]) {
      const { rows } = await pull(riley, name, ids.resident['demo/riley']!, willow(), rileyBefore.checkpoints[name]);
      expect(rows, name).toEqual([]);
    }
  });

  it('a row Willow House makes after he left never reaches him, not even as a tombstone', async () => {
    const reward = await ali.post(`/api${paths.homeRewards.build(willow())}`, { name: 'Bowling', points: '30' });
    expect(reward.status, JSON.stringify(reward.body)).toBe(201);
    const id = rewardResponseSchema.parse(reward.body).data.id;
    expect((await pull(jamie, 'rewards', jamieId(), cedar())).rows.map((r) => r.id)).not.toContain(id);
  });

  it('staff of the home he left can no longer reach him; those of his new home can', async () => {
    expect((await move(ali, jamieId(), willow())).status).toBe(404);
    expect((await ali.get(`/api${paths.associatedUsers.build(jamieId())}`)).status).toBe(404);
    const staffView = associatedUsersPageSchema.parse((await chris.get(`/api${paths.associatedUsers.build(jamieId())}?with_trashed=1`)).body);
    expect(staffView.data.map((u) => u.first_name)).toEqual(['Chris']);
  });

  it('moving back brings Willow House’s rows again (one made while he was away too) and Cedar Lodge’s as tombstones', async () => {
    const names = ['rewards', 'staff', 'rota', 'documents'] as const;
    // His device keeps up while he lives at Cedar Lodge (a reward was added since).
    const caughtUp = await Promise.all(names.map((name) => pull(jamie, name, jamieId(), cedar(), afterCheckpoints[name])));
    expect((await move(chris, jamieId(), willow())).status).toBe(200);
    for (const [i, name] of names.entries()) {
      const { rows } = await pull(jamie, name, jamieId(), willow(), caughtUp[i]!.checkpoint ?? afterCheckpoints[name]);
      const cedarIds = new Set([...after[name], ...caughtUp[i]!.rows].filter((r) => r.deleted_at === null).map((r) => r.id));
      expect(tombstones(rows, BLANK[name]).map((r) => r.id).sort(), name).toEqual([...cedarIds].sort());
      const live = rows.filter((r) => r.deleted_at === null).map((r) => r.id);
      expect(live.sort(), name).toEqual(expect.arrayContaining([...jamieBefore.held[name].keys()].filter((id) => !jamieBefore.held[name].get(id)!.resident_id)));
    }
    expect((await pull(jamie, 'rewards', jamieId(), willow(), caughtUp[0]!.checkpoint)).rows.map((r) => r.name)).toContain('Bowling');
  });
});

describe('Sam moves to Willow House (POST with _method=PUT)', () => {
  it('the form he had only through a Cedar Lodge form document becomes a blank tombstone; Willow House’s forms arrive', async () => {
    const samId = ids.resident['demo/sam']!;
    const before = await pull(sam, 'forms', samId, cedar());
    expect(before.rows.map((r) => r.name)).toEqual(['Health and wellbeing']);
    const moved = await chris.post(`/api${paths.residentHome.build(samId)}?_method=PUT`, { home_id: willow() });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const { rows } = await pull(sam, 'forms', samId, willow(), before.checkpoint);
    const gone = tombstones(rows, BLANK.forms);
    expect(gone.map((r) => r.id)).toEqual(before.rows.map((r) => r.id));
    expect(rows.filter((r) => r.deleted_at === null).map((r) => r.name).sort()).toEqual(['Education', 'Independence skills']);
  });
});
