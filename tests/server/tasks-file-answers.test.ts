import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formSchema } from '../../src/contract/forms';
import { pageSchema } from '../../src/contract/sync';
import { taskLogResponseSchema, type TaskLog } from '../../src/contract/tasks';
import type { Client } from './support/client';
import { demoIds, signedIn } from './support/session';
import { startTestServer, storedFileCount, type TestServer } from './support/server';
import { FakeClassifier, getBytes, PDF, pngImage, postForm } from './support/uploads';

/**
 * An objective's file answers once replaced or cleared (security review, finding 1): the file the
 * answer no longer names is gone for everyone, the same 404 as a file that never existed.
 */
let server: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;
let jamie: Client;
let ali: Client;

beforeAll(async () => {
  server = await startTestServer({ imageClassifier: new FakeClassifier() });
  ids = await demoIds(server);
  [jamie, ali] = await Promise.all([signedIn(server, 'jamie'), signedIn(server, 'carer.ali')]);
});
afterAll(async () => {
  await server?.close();
});

type Answer = { data: TaskLog; errors?: Record<string, string[]> };

async function newObjective(form: string): Promise<TaskLog> {
  const forms = pageSchema(formSchema).parse((await ali.get('/api/v1/forms')).body).data;
  const res = await ali.post(`/api/v1/projects/residents/${ids.resident['demo/jamie']}/tasks`, { form_id: forms.find((f) => f.name === form)!.id, title: 'Files', task_date: '2026-11-20' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return taskLogResponseSchema.parse(res.body).data;
}
const fill = (logId: string, fields: [string, string | { name: string; data: Buffer }][]) =>
  postForm<Answer>(server.base, ali, `/api/v1/tasks/logs/${logId}?_method=PUT`, fields);
const view = (client: Client, fileId: string) => getBytes(server.base, client, `/api/v1/files/view?file_id=${fileId}&module=task_log`);
const photoOf = (log: TaskLog) => (log.answers.photo as { file_id: string }).file_id;

/** What a file id that never existed answers, for comparison. */
async function neverExisted(client: Client) {
  const res = await view(client, randomUUID());
  return { status: res.status, body: res.bytes.toString() };
}

describe('a replaced or cleared file answer is no longer served', () => {
  it('answering the image question again: the old photo is 404 for the young person and staff, the new one is served', async () => {
    const log = await newObjective('Independence skills');
    const first = await fill(log.id, [['files[photo]', { name: 'one.png', data: pngImage(8, 8, [10, 20, 30]) }]]);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const old = photoOf(first.body.data);
    expect((await view(jamie, old)).status).toBe(200);

    const stored = await storedFileCount(server);
    const second = await fill(log.id, [['files[photo]', { name: 'two.png', data: pngImage(9, 9, [40, 50, 60]) }]]);
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    // The old photo's bytes left the store as the new one's arrived.
    expect(await storedFileCount(server)).toBe(stored);
    const now = photoOf(second.body.data);
    expect(now).not.toBe(old);
    for (const client of [jamie, ali]) {
      const gone = await view(client, old);
      expect({ status: gone.status, body: gone.bytes.toString() }).toEqual(await neverExisted(client));
      expect((await view(client, now)).status).toBe(200);
    }
    // Naming the retired file again is not an answer: it is no file of this objective.
    const back = await fill(log.id, [['answers', JSON.stringify({ photo: { file_id: old } })]]);
    expect(back.status).toBe(422);
    expect(back.body.errors).toHaveProperty('answers.photo');
  });

  it('clearing an answer (null) or dropping embedded files retires them; files still named stay', async () => {
    const log = await newObjective('Independence skills');
    const filled = await fill(log.id, [['files[photo]', { name: 'p.png', data: pngImage(7, 7, [1, 2, 3]) }], ['files[staff_signature]', { name: 's.png', data: pngImage(6, 6, [9, 9, 9]) }]]);
    expect(filled.status, JSON.stringify(filled.body)).toBe(200);
    const photo = photoOf(filled.body.data);
    const signature = (filled.body.data.answers.staff_signature as { file_id: string }).file_id;
    const cleared = await fill(log.id, [['answers', JSON.stringify({ photo: null })]]);
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect((await view(jamie, photo)).status).toBe(404);
    expect((await view(jamie, signature)).status).toBe(200);

    const education = await newObjective('Education');
    const two = await fill(education.id, [['files[work]', { name: 'a.pdf', data: PDF }], ['files[work]', { name: 'b.png', data: pngImage(5, 5, [7, 7, 7]) }]]);
    expect(two.status, JSON.stringify(two.body)).toBe(200);
    const [kept, dropped] = (two.body.data.answers.work as { file_id: string }[]).map((f) => f.file_id);
    const one = await fill(education.id, [['answers', JSON.stringify({ work: [{ file_id: kept }] })]]);
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect((await view(ali, kept!)).status).toBe(200);
    expect((await view(ali, dropped!)).status).toBe(404);
  });

  it('concurrent replacements leave one photo: every other photo sent is 404', async () => {
    const log = await newObjective('Independence skills');
    const answers = await Promise.all([1, 2, 3].map((i) => fill(log.id, [['files[photo]', { name: `r${i}.png`, data: pngImage(10 + i, 10, [i * 50, 80, 20]) }]])));
    expect(answers.map((a) => a.status), JSON.stringify(answers.map((a) => a.body))).toEqual([200, 200, 200]);
    const latest = taskLogResponseSchema.parse((await jamie.get(`/api/v1/tasks/${log.task_id}/logs/latest`)).body).data;
    for (const sent of answers.map((a) => photoOf(a.body.data))) {
      expect((await view(jamie, sent)).status, sent).toBe(sent === photoOf(latest) ? 200 : 404);
    }
  });
});
