import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formSchema } from '../../src/contract/forms';
import { pageSchema } from '../../src/contract/sync';
import { pointsPageSchema, REVIEW_POINTS, taskLogPageSchema, taskLogResponseSchema, taskMessages, type TaskComment, type TaskLog } from '../../src/contract/tasks';
import type { Client } from './support/client';
import { demoIds, openStream, signedIn } from './support/session';
import { seedDemo } from '../../server/seed/demo';
import { deriveKeys } from '../../server/lib/crypto';
import { startTestServer, type TestServer } from './support/server';
import { FakeClassifier, pngImage, postForm } from './support/uploads';

/** Reviewing a completed log (issue 9, SPEC §9): +20 points exactly once per log, whatever the timing or replays. */
let server: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;
let jamie: Client;
let ali: Client;
let sam: Client;

beforeAll(async () => {
  server = await startTestServer({ imageClassifier: new FakeClassifier() });
  ids = await demoIds(server);
  [jamie, ali, sam] = await Promise.all([signedIn(server, 'jamie'), signedIn(server, 'carer.ali'), signedIn(server, 'sam')]);
});
afterAll(async () => {
  await server?.close();
});

const jamieId = () => ids.resident['demo/jamie']!;
type Answer = { data: TaskComment; errors?: Record<string, string[]>; message?: string };

async function points(client: Client = jamie, query = '') {
  const res = await client.get(`/api/v1/projects/residents/${jamieId()}/points${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return pointsPageSchema.parse(res.body);
}
const residentPoints = async () => ((await jamie.get<{ data: { reward_points: number } }>(`/api/v1/projects/residents/${jamieId()}`)).body.data.reward_points);
const ledgerRows = (logId: string) => server.db.selectFrom('points_ledger').selectAll().where('source_id', '=', logId).execute();
const reviewsOf = (logId: string) => server.db.selectFrom('task_log_comments').select('id').where('task_log_id', '=', logId).where('is_review', '=', true).execute();

/** A completed objective for Jamie, through the staff endpoints. */
async function completedLog(): Promise<TaskLog> {
  const forms = pageSchema(formSchema).parse((await ali.get('/api/v1/forms')).body).data;
  const health = forms.find((f) => f.name === 'Health and wellbeing')!;
  const created = await ali.post(`/api/v1/projects/residents/${jamieId()}/tasks`, { form_id: health.id, title: 'Go for a run', task_date: '2026-11-22' });
  expect(created.status).toBe(201);
  const log = taskLogResponseSchema.parse(created.body).data;
  const done = await postForm<{ data: TaskLog }>(server.base, ali, `/api/v1/tasks/logs/${log.id}?_method=PUT`, [['answers', JSON.stringify({ activity: 'Park run' })], ['status', 'completed']]);
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return done.body.data;
}

const review = (logId: string, extra: [string, string][] = [], headers: Record<string, string> = {}, client = jamie) =>
  postForm<Answer>(server.base, client, '/api/v1/tasks/logs/comments', [['task_log_id', logId], ['comment', 'It went well'], ['is_review', '1'], ...extra], headers);

describe('reviewing a completed log', () => {
  it("the demo's unreviewed log: the review is a comment, +20 in the ledger, the balance and the resident move together, topics published", async () => {
    const completed = taskLogPageSchema.parse((await jamie.get(`/api/v1/projects/residents/${jamieId()}/tasks/complete`)).body).data;
    const log = completed.find((l) => !l.reviewed)!;
    const before = await points();
    expect(before.balance).toBe(await residentPoints());
    expect(before.balance).toBe(before.data.reduce((sum, p) => sum + p.delta, 0));
    const stream = await openStream(server, jamie);
    const res = await review(log.id, [], {}, jamie);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ is_review: true, task_log_id: log.id, comment: 'It went well' });
    await stream.waitFor(/"points"/);
    stream.close();
    const after = await points();
    expect(after.balance).toBe(before.balance + REVIEW_POINTS);
    expect(await residentPoints()).toBe(after.balance);
    expect(after.data[0]).toMatchObject({ delta: REVIEW_POINTS, reason: 'task_log_review', source_id: log.id });
    const shown = taskLogResponseSchema.parse((await jamie.get(`/api/v1/tasks/${log.task_id}/logs/latest`)).body).data;
    expect(shown.reviewed).toBe(true);
    expect(shown.comments[0]!.is_review).toBe(true);

    const twice = await review(log.id);
    expect(twice.status).toBe(422);
    expect(twice.body.errors).toEqual({ is_review: [taskMessages.reviewTwice] });
    expect((await points()).balance).toBe(after.balance);

    const unflag = await postForm<Answer>(server.base, jamie, `/api/v1/tasks/logs/comments/${res.body.data.id}?_method=PUT`, [['comment', 'Really well'], ['is_review', '0']]);
    expect(unflag.status).toBe(422);
    expect(unflag.body.errors).toEqual({ is_review: [taskMessages.reviewFixed] });
    const edit = await postForm<Answer>(server.base, jamie, `/api/v1/tasks/logs/comments/${res.body.data.id}?_method=PUT`, [['comment', 'Really well']]);
    expect(edit.status).toBe(200);
    expect(edit.body.data.is_review).toBe(true);
    expect((await points()).balance).toBe(after.balance);
  });

  it('20 concurrent identical reviews (each its own request): one review, +20 once', async () => {
    const log = await completedLog();
    const before = (await points()).balance;
    const answers = await Promise.all(Array.from({ length: 20 }, () => review(log.id, [], { 'Idempotency-Key': randomUUID() })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 422)).toHaveLength(19);
    for (const a of answers.filter((x) => x.status === 422)) expect(a.body.errors).toEqual({ is_review: [taskMessages.reviewTwice] });
    expect(await reviewsOf(log.id)).toHaveLength(1);
    expect(await ledgerRows(log.id)).toHaveLength(1);
    expect((await points()).balance).toBe(before + REVIEW_POINTS);
    expect(await residentPoints()).toBe(before + REVIEW_POINTS);
  });

  it('20 concurrent copies of one outbox send (same client id and Idempotency-Key), then a replay: one review, +20 once', async () => {
    const log = await completedLog();
    const before = (await points()).balance;
    const id = randomUUID();
    const send = () => review(log.id, [['id', id]], { 'Idempotency-Key': id });
    const answers = await Promise.all(Array.from({ length: 20 }, send));
    for (const a of answers) {
      expect([201, 409], JSON.stringify(a.body)).toContain(a.status);
      if (a.status === 201) expect(a.body.data.id).toBe(id);
    }
    expect(answers.some((a) => a.status === 201)).toBe(true);
    const replay = await send();
    expect(replay.status).toBe(201);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(replay.body.data.id).toBe(id);
    // The same create under a new key (a lost answer, a new attempt): still the same comment.
    const resent = await review(log.id, [['id', id]], { 'Idempotency-Key': randomUUID() });
    expect(resent.status).toBe(201);
    expect(resent.body.data.id).toBe(id);
    expect(await reviewsOf(log.id)).toEqual([{ id }]);
    expect(await ledgerRows(log.id)).toHaveLength(1);
    expect((await points()).balance).toBe(before + REVIEW_POINTS);
  });

  it('only the young person reviews; staff comments never earn points', async () => {
    const log = await completedLog();
    const staff = await review(log.id, [], {}, ali);
    expect(staff.status).toBe(422);
    expect(staff.body.errors).toEqual({ is_review: [taskMessages.reviewOnlyYoungPerson] });
    const plain = await postForm<Answer>(server.base, ali, '/api/v1/tasks/logs/comments', [['task_log_id', log.id], ['comment', 'Well done'], ['files[]', { name: 'medal.png', data: pngImage(4, 4, [200, 160, 0]) }]]);
    expect(plain.status).toBe(201);
    expect(await ledgerRows(log.id)).toHaveLength(0);
    expect((await review(log.id, [], {}, sam)).status).toBe(404);
  });
});

describe('GET /v1/projects/residents/{id}/points', () => {
  it('the ledger newest first, checkpoint mode, staff of the home may read it, others 404', async () => {
    const page = await points();
    expect(page.data.at(-1)).toMatchObject({ reason: 'opening_balance', source_id: jamieId() });
    expect((await points(ali)).balance).toBe(page.balance);
    expect((await sam.get(`/api/v1/projects/residents/${jamieId()}/points`)).status).toBe(404);
    const walk = await points(jamie, '?with_trashed=1&per_page=1&checkpoint[updated_at]=1970-01-01T00:00:00.000000Z&checkpoint[id]=00000000-0000-0000-0000-000000000000');
    expect(walk.data).toHaveLength(1);
    expect(walk.data[0]!.reason).toBe('opening_balance');
    expect(walk.meta.has_more).toBe(true);
  });

  it('the balance never goes below zero (the database refuses it too)', async () => {
    await expect(server.db.updateTable('residents').set({ reward_points: -1 }).where('id', '=', jamieId()).execute()).rejects.toThrow();
  });
});

describe('the demo seed', () => {
  it('seeding again adds no form version, objective, comment or ledger entry', async () => {
    const count = async () => {
      const n = async (table: 'form_versions' | 'tasks' | 'task_logs' | 'task_log_comments' | 'points_ledger') =>
        Number((await server.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      return { versions: await n('form_versions'), tasks: await n('tasks'), logs: await n('task_logs'), comments: await n('task_log_comments'), ledger: await n('points_ledger') };
    };
    const before = await count();
    const balance = (await points()).balance;
    await seedDemo(server.db, deriveKeys(server.config.appKey), { files: server.app.fileStore });
    expect(await count()).toEqual(before);
    expect((await points()).balance).toBe(balance);
  });
});
