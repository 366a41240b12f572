import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryLimits, entryMessages } from '../../src/contract/entries';
import { formMessages, formSchema, FORM_FIELD_KINDS } from '../../src/contract/forms';
import { chosenMessages as chosen } from '../../src/contract/messages';
import { pageSchema } from '../../src/contract/sync';
import {
  TASK_TITLE_MAX_LENGTH, taskCommentResponseSchema, taskLogPageSchema, taskLogResponseSchema, taskMessages, taskResponseSchema, type TaskComment, type TaskLog,
} from '../../src/contract/tasks';
import type { Client } from './support/client';
import { demoIds, openStream, signInDemoClients } from './support/session';
import { startTestServer, type TestServer } from './support/server';
import { FakeClassifier, getBytes, PDF, pngImage, postForm } from './support/uploads';

/** Objectives over HTTP (issue 9): the SPEC §7 Tasks endpoints, staff additions, files, and who gets 404. */
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
const PNG = pngImage(8, 8, [20, 120, 200]);
const formsPage = pageSchema(formSchema);

async function tab(client: Client, residentId: string, which: 'complete' | 'incomplete', query = '') {
  const res = await client.get(`/api/v1/projects/residents/${residentId}/tasks/${which}${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return taskLogPageSchema.parse(res.body);
}

async function formId(name: string): Promise<string> {
  const page = formsPage.parse((await ali.get('/api/v1/forms')).body);
  return page.data.find((f) => f.name === name)!.id;
}

/** A fresh objective for Jamie, made by Ali through the staff endpoint. */
async function newObjective(form = 'Independence skills', title = 'Make breakfast'): Promise<TaskLog> {
  const res = await ali.post(`/api/v1/projects/residents/${jamieId()}/tasks`, { form_id: await formId(form), title, task_date: '2026-11-20' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return taskLogResponseSchema.parse(res.body).data;
}

async function fill(client: Client, logId: string, fields: [string, string | { name: string; data: Buffer }][]) {
  return postForm<{ data: TaskLog; errors?: Record<string, string[]> }>(server.base, client, `/api/v1/tasks/logs/${logId}?_method=PUT`, fields);
}

async function comment(client: Client, logId: string, text: string, extra: [string, string | { name: string; data: Buffer }][] = []) {
  return postForm<{ data: TaskComment; errors?: Record<string, string[]>; message?: string }>(server.base, client, '/api/v1/tasks/logs/comments', [['task_log_id', logId], ['comment', text], ...extra]);
}

describe('the demo objectives', () => {
  it('Jamie has current and completed objectives in three categories, newest task date first, with comments, creators and photos', async () => {
    const current = await tab(jamie, jamieId(), 'incomplete');
    const completed = await tab(jamie, jamieId(), 'complete');
    expect(current.data.every((l) => l.status === 'current')).toBe(true);
    expect(completed.data.every((l) => l.status === 'completed')).toBe(true);
    const all = [...current.data, ...completed.data];
    expect(new Set(all.map((l) => l.task.form.name)).size).toBeGreaterThanOrEqual(3);
    for (const list of [current.data, completed.data]) {
      const dates = list.map((l) => l.task.task_date);
      expect(dates).toEqual([...dates].sort().reverse());
    }
    expect(completed.data.filter((l) => !l.reviewed).length).toBeGreaterThanOrEqual(1);
    const withPhoto = all.flatMap((l) => l.comments).find((c) => c.files.length > 0)!;
    expect(withPhoto.creator.first_name).toBe('Ali');
    const photo = await getBytes(server.base, jamie, `/api/v1/files/view?file_id=${withPhoto.files[0]!.id}&module=task_comment`);
    expect(photo.status).toBe(200);
    expect(photo.headers.get('content-type')).toBe('image/png');
    // Comments newest first (SPEC §4).
    for (const log of all) {
      const times = log.comments.map((c) => c.created_at);
      expect(times).toEqual([...times].sort().reverse());
    }
  });

  it('the forms use every field kind', async () => {
    const page = formsPage.parse((await jamie.get('/api/v1/forms')).body);
    const kinds = new Set(page.data.flatMap((f) => (f.fields as { kind: string }[]).map((x) => x.kind)));
    expect([...kinds].sort()).toEqual([...FORM_FIELD_KINDS].sort());
  });
});

describe('reads', () => {
  it('GET /v1/tasks/{id} and /v1/tasks/{id}/logs/latest and /v1/tasks/logs/comments/{id}', async () => {
    const log = (await tab(jamie, jamieId(), 'complete')).data[0]!;
    const task = taskResponseSchema.parse((await jamie.get(`/api/v1/tasks/${log.task_id}`)).body).data;
    expect(task).toMatchObject({ id: log.task_id, title: log.task.title, task_date: log.task.task_date, latest_log_id: log.id, resident_id: jamieId() });
    expect(task.form.name).toBe(log.task.form.name);
    const latest = taskLogResponseSchema.parse((await jamie.get(`/api/v1/tasks/${log.task_id}/logs/latest`)).body).data;
    expect(latest.id).toBe(log.id);
    expect(latest.form_version.fields.length).toBeGreaterThan(0);
    const first = log.comments[0]!;
    const shown = taskCommentResponseSchema.parse((await jamie.get(`/api/v1/tasks/logs/comments/${first.id}`)).body).data;
    expect(shown).toEqual(first);
    const missing = await jamie.get(`/api/v1/tasks/${randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ success: false, message: taskMessages.objectiveNotFound });
    expect((await jamie.get(`/api/v1/tasks/logs/comments/${randomUUID()}`)).body).toMatchObject({ message: taskMessages.commentNotFound });
    expect((await jamie.get('/api/v1/tasks/not-a-uuid')).status).toBe(422);
    expect((await server.client().get(`/api/v1/tasks/${log.task_id}`)).status).toBe(401);
  });

  it('checkpoint mode: rows after the checkpoint, by (updated_at, id); a new comment moves its log', async () => {
    const first = await tab(jamie, jamieId(), 'incomplete', '?sort[0][0]=updated_at&sort[0][1]=asc&with_trashed=1&per_page=1');
    expect(first.data).toHaveLength(1);
    expect(first.meta.has_more).toBe(true);
    const all = await tab(jamie, jamieId(), 'incomplete', '?with_trashed=1&per_page=500&checkpoint[updated_at]=1970-01-01T00:00:00.000000Z&checkpoint[id]=00000000-0000-0000-0000-000000000000');
    const cp = all.meta.checkpoint!;
    const none = await tab(jamie, jamieId(), 'incomplete', `?with_trashed=1&checkpoint[updated_at]=${encodeURIComponent(cp.updated_at)}&checkpoint[id]=${cp.id}`);
    expect(none.data).toEqual([]);
    const target = all.data[0]!;
    expect((await comment(jamie, target.id, 'On it')).status).toBe(201);
    const after = await tab(jamie, jamieId(), 'incomplete', `?with_trashed=1&checkpoint[updated_at]=${encodeURIComponent(cp.updated_at)}&checkpoint[id]=${cp.id}`);
    expect(after.data.map((l) => l.id)).toEqual([target.id]);
    expect(after.data[0]!.comments[0]!.comment).toBe('On it');
    const filtered = await tab(jamie, jamieId(), 'complete', `?filters[0][0]=task_date&filters[0][1]=>=&filters[0][2]=2000-01-01&relations[]=comments.creator&relations[]=comments.files`);
    expect(filtered.data.length).toBeGreaterThan(0);
    const bad = await jamie.get(`/api/v1/projects/residents/${jamieId()}/tasks/complete?filters[0][0]=nope&filters[0][1]==&filters[0][2]=1`);
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ errors: { filters: [expect.any(String)] } });
  });
});

describe('staff reads and tombstones', () => {
  it("staff of Jamie's home read his lists and are told when he comments", async () => {
    const log = (await tab(ali, jamieId(), 'incomplete')).data[0]!;
    expect(log.resident_id).toBe(jamieId());
    const stream = await openStream(server, ali);
    expect((await comment(jamie, log.id, 'Done half of it')).status).toBe(201);
    await stream.waitFor(/"tasks"/);
    stream.close();
  });

  it('a deleted objective comes as a tombstone with with_trashed=1 and is 404 everywhere else', async () => {
    const log = await newObjective('Health and wellbeing', 'To be withdrawn');
    const all = await tab(jamie, jamieId(), 'incomplete', '?with_trashed=1&per_page=500&checkpoint[updated_at]=1970-01-01T00:00:00.000000Z&checkpoint[id]=00000000-0000-0000-0000-000000000000');
    const cp = all.meta.checkpoint!;
    // No endpoint deletes objectives yet; this stands in for the one that will.
    await server.db.updateTable('tasks').set({ deleted_at: sql`now()` }).where('id', '=', log.task_id).execute();
    await server.db.updateTable('task_logs').set({ updated_at: sql`now()` }).where('id', '=', log.id).execute();
    const since = `checkpoint[updated_at]=${encodeURIComponent(cp.updated_at)}&checkpoint[id]=${cp.id}`;
    const tomb = await tab(jamie, jamieId(), 'incomplete', `?with_trashed=1&${since}`);
    expect(tomb.data.map((l) => [l.id, l.deleted_at !== null])).toEqual([[log.id, true]]);
    expect((await tab(jamie, jamieId(), 'incomplete', `?${since}`)).data).toEqual([]);
    expect((await jamie.get(`/api/v1/tasks/${log.task_id}`)).status).toBe(404);
    expect((await jamie.get(`/api/v1/tasks/${log.task_id}/logs/latest`)).status).toBe(404);
    expect((await comment(jamie, log.id, 'Hello?')).status).toBe(404);
  });
});

describe('staff: objectives, filling and completing', () => {
  it('Ali sets an objective, Jamie sees it in Current, Ali fills it with a photo and completes it; it moves to Completed', async () => {
    const stream = await openStream(server, jamie);
    const log = await newObjective('Independence skills', 'Make breakfast');
    await stream.waitFor(/"tasks"/);
    stream.close();
    expect(log).toMatchObject({ status: 'current', answers: {}, comments: [], reviewed: false });
    expect((await tab(jamie, jamieId(), 'incomplete')).data.map((l) => l.id)).toContain(log.id);

    const partial = await fill(ali, log.id, [['answers', JSON.stringify({ what_did_you_do: 'Toast and eggs' })]]);
    expect(partial.status, JSON.stringify(partial.body)).toBe(200);
    expect(partial.body.data.answers).toEqual({ what_did_you_do: 'Toast and eggs' });

    const incomplete = await fill(ali, log.id, [['status', 'completed']]);
    expect(incomplete.status).toBe(422);
    expect(incomplete.body.errors).toEqual({ 'answers.confidence': [formMessages.required] });

    const done = await fill(ali, log.id, [['answers', JSON.stringify({ confidence: 8, skills: ['cooking'] })], ['status', 'completed'], ['files[photo]', { name: 'eggs.png', data: PNG }]]);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const photo = done.body.data.answers.photo as { file_id: string };
    expect(done.body.data).toMatchObject({ status: 'completed', answers: { what_did_you_do: 'Toast and eggs', confidence: 8, skills: ['cooking'] } });
    expect((await getBytes(server.base, jamie, `/api/v1/files/view?file_id=${photo.file_id}&module=task_log`)).status).toBe(200);
    expect((await getBytes(server.base, sam, `/api/v1/files/view?file_id=${photo.file_id}&module=task_log`)).status).toBe(404);
    expect((await tab(jamie, jamieId(), 'complete')).data.map((l) => l.id)).toContain(log.id);
    expect((await tab(jamie, jamieId(), 'incomplete')).data.map((l) => l.id)).not.toContain(log.id);

    const again = await fill(ali, log.id, [['answers', JSON.stringify({ confidence: 9 })]]);
    expect(again.status).toBe(422);
    expect(again.body.errors).toEqual({ status: [taskMessages.alreadyCompleted] });
  });

  it('answers that do not fit the form are 422 field errors, never 500', async () => {
    const log = await newObjective('Education', 'Homework club');
    const cases: [Record<string, unknown>, string][] = [
      [{ on_time: 'maybe' }, 'answers.on_time'],
      [{ mood_colour: 'blue' }, 'answers.mood_colour'],
      [{ week: [{ day: 'Mon', lunch: 'x' }] }, 'answers.week.0'],
      [{ week: 'Monday' }, 'answers.week'],
      [{ related: [randomUUID()] }, 'answers.related'],
      [{ work: [{ file_id: randomUUID() }] }, 'answers.work'],
      [{ nope: 1 }, 'answers'],
    ];
    for (const [answers, key] of cases) {
      const res = await fill(ali, log.id, [['answers', JSON.stringify(answers)]]);
      expect(res.status, JSON.stringify(answers)).toBe(422);
      expect(Object.keys(res.body.errors!), JSON.stringify(res.body)).toContain(key);
    }
    const notJson = await fill(ali, log.id, [['answers', '{oops']]);
    expect(notJson.status).toBe(422);
    expect(notJson.body.errors).toHaveProperty('answers');
    const badFile = await fill(ali, log.id, [['files[mood_colour]', { name: 'a.png', data: PNG }]]);
    expect(badFile.status).toBe(422);
    const pdfAsImage = await fill((ali), (await newObjective()).id, [['files[photo]', { name: 'a.pdf', data: PDF }]]);
    expect(pdfAsImage.status).toBe(422);
    const ok = await fill(ali, log.id, [['answers', JSON.stringify({ on_time: 'no', week: [{ day: 'Mon', arrived: '09:10' }], mood_colour: '#aabbcc' })], ['files[work]', { name: 'essay.pdf', data: PDF }]]);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect((ok.body.data.answers.work as unknown[]).length).toBe(1);

    const create = (body: unknown) => ali.post(`/api/v1/projects/residents/${jamieId()}/tasks`, body);
    const noForm = await create({ form_id: randomUUID(), title: 'x', task_date: '2026-11-20' });
    expect(noForm.status).toBe(422);
    expect(noForm.body).toMatchObject({ errors: { form_id: [taskMessages.formRequired] } });
    const noTitle = await create({ form_id: await formId('Education'), title: ' ', task_date: 'soon' });
    expect(noTitle.status).toBe(422);
    expect(noTitle.body).toMatchObject({ errors: { title: [taskMessages.titleRequired], task_date: [taskMessages.dateRequired] } });
    const longTitle = await create({ form_id: await formId('Education'), title: 'x'.repeat(TASK_TITLE_MAX_LENGTH + 1), task_date: '2026-11-20' });
    expect(longTitle.status).toBe(422);
    expect(longTitle.body).toMatchObject({ errors: { title: [taskMessages.titleTooLong] } });
    for (const task_date of ['2026-02-30', '2026-13-01', undefined]) {
      const res = await create({ form_id: await formId('Education'), title: 'Dated', task_date });
      expect(res.status, String(task_date)).toBe(422);
      expect(res.body).toMatchObject({ errors: { task_date: [taskMessages.dateRequired] } });
    }
    expect((await create('not an object')).status).toBe(422);
  });

  it('a create with a client id sent again answers the same objective', async () => {
    const id = randomUUID();
    const body = { id, form_id: await formId('Health and wellbeing'), title: 'Swim', task_date: '2026-11-21' };
    const first = await ali.post(`/api/v1/projects/residents/${jamieId()}/tasks`, body);
    const second = await ali.post(`/api/v1/projects/residents/${jamieId()}/tasks`, body);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(taskLogResponseSchema.parse(second.body).data.task_id).toBe(id);
    expect(taskLogResponseSchema.parse(first.body).data.id).toBe(taskLogResponseSchema.parse(second.body).data.id);
  });

  it('staff-only endpoints refuse young people (403 for their own record, 404 for anyone else)', async () => {
    const log = await newObjective();
    const own = await jamie.post(`/api/v1/projects/residents/${jamieId()}/tasks`, { form_id: await formId('Education'), title: 'x', task_date: '2026-11-20' });
    expect(own.status).toBe(403);
    expect((await fill(jamie, log.id, [['answers', '{}']])).status).toBe(403);
    expect((await riley.post(`/api/v1/projects/residents/${jamieId()}/tasks`, { form_id: await formId('Education'), title: 'x', task_date: '2026-11-20' })).status).toBe(404);
    expect((await fill(riley, log.id, [['answers', '{}']])).status).toBe(404);
    expect((await fill(ali, log.id, [['answers', '{}']])).status).toBe(200);
    const noOverride = await postForm(server.base, ali, `/api/v1/tasks/logs/${log.id}`, [['answers', '{}']]);
    expect(noOverride.status).toBe(405);
  });
  it('a "__proto__" key in the answers text is a 422 on answers: it never completes a log without its required answers', async () => {
    // Independence skills requires what_did_you_do (text) and confidence (slider 1-10).
    const log = await newObjective('Independence skills', 'Proto');
    expect((await fill(ali, log.id, [['status', 'completed']])).status).toBe(422);
    for (const text of [
      '{"__proto__": {"what_did_you_do": "x", "confidence": 5}}',
      '{"what_did_you_do": "x", "__proto__": {"confidence": 5}}',
      '{"what_did_you_do": "x", "confidence": 5, "skills": [{"__proto__": {}}]}',
    ]) {
      const res = await fill(ali, log.id, [['status', 'completed'], ['answers', text]]);
      expect(res.status, `${text}: ${JSON.stringify(res.body)}`).toBe(422);
      expect(res.body.errors).toEqual({ answers: [chosen.reservedJsonKey] });
    }
    const latest = taskLogResponseSchema.parse((await jamie.get(`/api/v1/tasks/${log.task_id}/logs/latest`)).body).data;
    expect({ status: latest.status, answers: latest.answers }).toEqual({ status: 'current', answers: {} });
    // Sent plainly, the same answers complete it.
    const done = await fill(ali, log.id, [['status', 'completed'], ['answers', JSON.stringify({ what_did_you_do: 'x', confidence: 5 })]]);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data).toMatchObject({ status: 'completed', answers: { what_did_you_do: 'x', confidence: 5 } });
  });
});

describe('comments', () => {
  it('Jamie and staff comment with files; the creator edits; a new comment goes to the front', async () => {
    const log = await newObjective();
    const staff = await comment(ali, log.id, 'Here is the recipe', [['files[]', { name: 'recipe.pdf', data: PDF }]]);
    expect(staff.status, JSON.stringify(staff.body)).toBe(201);
    const mine = await comment(jamie, log.id, 'Thanks! Photo of mine', [['files[]', { name: 'mine.png', data: PNG }]]);
    expect(mine.status).toBe(201);
    expect(mine.body.data).toMatchObject({ task_log_id: log.id, is_review: false, comment: 'Thanks! Photo of mine' });
    expect(mine.body.data.files.map((f) => f.name)).toEqual(['mine.png']);
    const latest = taskLogResponseSchema.parse((await jamie.get(`/api/v1/tasks/${log.task_id}/logs/latest`)).body).data;
    expect(latest.comments.map((c) => c.id)).toEqual([mine.body.data.id, staff.body.data.id]);

    const path = `/api/v1/tasks/logs/comments/${mine.body.data.id}?_method=PUT`;
    expect((await postForm(server.base, ali, path, [['comment', 'hijack']])).status).toBe(404);
    const edited = await postForm<{ data: TaskComment }>(server.base, jamie, path, [['comment', 'Thanks Ali'], ['remove_files[]', mine.body.data.files[0]!.id], ['files[]', { name: 'better.png', data: PNG }]]);
    expect(edited.status).toBe(200);
    expect(edited.body.data.comment).toBe('Thanks Ali');
    expect(edited.body.data.edited_at).not.toBeNull();
    expect(edited.body.data.files.map((f) => f.name)).toEqual(['better.png']);
    expect((await getBytes(server.base, jamie, `/api/v1/files/view?file_id=${mine.body.data.files[0]!.id}&module=task_comment`)).status).toBe(404);
    const noPut = await postForm(server.base, jamie, `/api/v1/tasks/logs/comments/${mine.body.data.id}`, [['comment', 'x']]);
    expect(noPut.status).toBe(405);
  });

  it('an edit whose comment is not text (an object, a list, null, a boolean, a number) is a 422 on comment; the text stays', async () => {
    const log = await newObjective();
    const made = await comment(jamie, log.id, 'original words');
    expect(made.status).toBe(201);
    for (const text of [{ a: 1 }, ['x', 'y'], null, true, 5]) {
      const res = await jamie.post(`/api/v1/tasks/logs/comments/${made.body.data.id}?_method=PUT`, { comment: text });
      expect(res.status, `${JSON.stringify(text)}: ${res.status} ${JSON.stringify(res.body)}`).toBe(422);
      expect(res.body).toMatchObject({ errors: { comment: [taskMessages.commentRequired] } });
    }
    const now = taskCommentResponseSchema.parse((await jamie.get(`/api/v1/tasks/logs/comments/${made.body.data.id}`)).body).data;
    expect([now.comment, now.edited_at]).toEqual(['original words', null]);
    const edited = await jamie.post(`/api/v1/tasks/logs/comments/${made.body.data.id}?_method=PUT`, { comment: 'new words' });
    expect(edited.status).toBe(200);
    expect(taskCommentResponseSchema.parse(edited.body).data.comment).toBe('new words');
  });

  it(`concurrent edits of one comment cannot take it past ${entryLimits.maxFiles} files`, async () => {
    const log = await newObjective();
    const made = await comment(jamie, log.id, 'race for files');
    const five = (seed: number): [string, { name: string; data: Buffer }][] =>
      Array.from({ length: entryLimits.maxFiles }, (_, i) => ['files[]', { name: `p${seed}-${i}.png`, data: pngImage(4 + i, 4 + seed, [i * 10, seed * 20, 5]) }]);
    const path = `/api/v1/tasks/logs/comments/${made.body.data.id}?_method=PUT`;
    const answers = await Promise.all([1, 2, 3].map((seed) => postForm<{ errors?: Record<string, string[]> }>(server.base, jamie, path, [['comment', `edit ${seed}`], ...five(seed)])));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses, JSON.stringify(answers.map((a) => a.body))).toEqual([200, 422, 422]);
    for (const refused of answers.filter((a) => a.status === 422)) expect(refused.body.errors).toEqual({ files: [entryMessages.tooManyFiles] });
    const after = taskCommentResponseSchema.parse((await jamie.get(`/api/v1/tasks/logs/comments/${made.body.data.id}`)).body).data;
    expect(after.files).toHaveLength(entryLimits.maxFiles);
    // Dropping files makes room again.
    const swap = await postForm(server.base, jamie, path, [['remove_files[]', after.files[0]!.id], ...five(4).slice(0, 1)]);
    expect(swap.status, JSON.stringify(swap.body)).toBe(200);
    expect(taskCommentResponseSchema.parse(swap.body).data.files).toHaveLength(entryLimits.maxFiles);
  });

  it('422 field errors: no comment, too long, bad files, review of a current log, unknown log is 404', async () => {
    const log = await newObjective();
    const empty = await comment(jamie, log.id, '  ');
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual({ comment: [taskMessages.commentRequired] });
    const long = await comment(jamie, log.id, 'x'.repeat(5001));
    expect(long.body.errors).toEqual({ comment: [taskMessages.commentTooLong] });
    const noLog = await postForm<{ errors: Record<string, string[]> }>(server.base, jamie, '/api/v1/tasks/logs/comments', [['comment', 'hi']]);
    expect(noLog.status).toBe(422);
    expect(noLog.body.errors).toHaveProperty('task_log_id');
    const badFile = await comment(jamie, log.id, 'hi', [['files[]', { name: 'x.png', data: Buffer.from('not a png') }]]);
    expect(badFile.status).toBe(422);
    expect(badFile.body.errors).toHaveProperty('files');
    const flagged = pngImage(9, 9, [255, 0, 0]);
    classifier.flag(flagged);
    const bad = await comment(jamie, log.id, 'hi', [['files[]', { name: 'x.png', data: flagged }]]);
    expect(bad.status).toBe(422);
    expect(bad.body.errors!.files).toEqual(['Image added is inappropriate']);
    const early = await comment(jamie, log.id, 'Great', [['is_review', '1']]);
    expect(early.status).toBe(422);
    expect(early.body.errors).toEqual({ is_review: [taskMessages.reviewNotCompleted] });
    const badId = await comment(jamie, log.id, 'hi', [['id', 'nope']]);
    expect(badId.status).toBe(422);
    expect(badId.body.errors).toHaveProperty('id');
    const unknown = await comment(jamie, randomUUID(), 'hi');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(taskMessages.objectiveNotFound);
  });

  it('a comment create with a client id sent again is the same comment', async () => {
    const log = await newObjective();
    const id = randomUUID();
    const a = await comment(jamie, log.id, 'Once', [['id', id]]);
    const b = await comment(jamie, log.id, 'Once', [['id', id]]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body.data.id).toBe(id);
    const thread = taskLogResponseSchema.parse((await jamie.get(`/api/v1/tasks/${log.task_id}/logs/latest`)).body).data;
    expect(thread.comments.filter((c) => c.id === id)).toHaveLength(1);
    const taken = await comment(ali, log.id, 'Mine?', [['id', id]]);
    expect(taken.status).toBe(422);
    expect(taken.body.errors).toHaveProperty('id');
  });
});

describe('who gets 404: another young person, another home, another site', () => {
  it('every task, log, comment and file of Jamie is a 404 to them', async () => {
    const log = await newObjective();
    const c = (await comment(ali, log.id, 'With a file', [['files[]', { name: 'f.png', data: PNG }]])).body.data;
    const filled = (await fill(ali, log.id, [['files[photo]', { name: 'p.png', data: PNG }]])).body.data;
    const answerFile = (filled.answers.photo as { file_id: string }).file_id;
    const outsiders: [string, Client][] = [['riley (same home)', riley], ['sam (other home)', sam], ['chris (staff, other home)', chris], ['alex (other site)', alex], ['jo (staff, other site)', jo]];
    for (const [who, client] of outsiders) {
      const gets = [
        `/api/v1/projects/residents/${jamieId()}/tasks/complete`,
        `/api/v1/projects/residents/${jamieId()}/tasks/incomplete`,
        `/api/v1/projects/residents/${jamieId()}/points`,
        `/api/v1/tasks/${log.task_id}`,
        `/api/v1/tasks/${log.task_id}/logs/latest`,
        `/api/v1/tasks/logs/comments/${c.id}`,
      ];
      for (const path of gets) expect((await client.get(path)).status, `${who} GET ${path}`).toBe(404);
      expect((await getBytes(server.base, client, `/api/v1/files/view?file_id=${c.files[0]!.id}&module=task_comment`)).status, who).toBe(404);
      expect((await getBytes(server.base, client, `/api/v1/files/view?file_id=${answerFile}&module=task_log`)).status, who).toBe(404);
      expect((await comment(client, log.id, 'Let me in')).status, `${who} comment`).toBe(404);
      expect((await postForm(server.base, client, `/api/v1/tasks/logs/comments/${c.id}?_method=PUT`, [['comment', 'x']])).status, `${who} edit`).toBe(404);
      expect((await fill(client, log.id, [['answers', '{}']])).status, `${who} fill`).toBe(404);
      expect((await client.post(`/api/v1/projects/residents/${jamieId()}/tasks`, { form_id: log.task.form.id, title: 'x', task_date: '2026-11-20' })).status, `${who} create`).toBe(404);
    }
    // Their own lists hold nothing of Jamie's.
    const samLists = await tab(sam, ids.resident['demo/sam']!, 'incomplete');
    expect(samLists.data.some((l) => l.id === log.id)).toBe(false);
    // A file id asked for with the wrong module is a 404 too.
    expect((await getBytes(server.base, jamie, `/api/v1/files/view?file_id=${c.files[0]!.id}&module=comment`)).status).toBe(404);
  });
});
