import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentResponseSchema } from '../../src/contract/comments';
import { documentResponseSchema, documentSubmissionResponseSchema } from '../../src/contract/documents';
import { voiceCategoriesPageSchema, voiceEntryResponseSchema } from '../../src/contract/entries';
import { entryPaths, fileViewPath, paths } from '../../src/contract/paths';
import { taskCommentResponseSchema, taskLogResponseSchema } from '../../src/contract/tasks';
import type { Client } from './support/client';
import { browserHeaders, demoIds, signInDemoClients } from './support/session';
import { startTestServer, type TestServer } from './support/server';
import { FakeClassifier, PDF, pngImage, postForm } from './support/uploads';

/**
 * Files an attacker uploads to run as a page in our origin: bytes that pass the type check but
 * carry HTML and script (a PDF, a PNG with a page after its image data), named like markup. Every
 * way they come back (replies, voice, objectives' comments and file answers, document pictures and
 * form answers) must be served as the type found at upload, never sniffed, sandboxed, with a
 * disposition whose name carries no markup; opened as a page (Accept: text/html) too.
 * files-comments.test.ts checks journal attachments, documents-blobs.test.ts a document's main
 * file, rewards.test.ts reward pictures, users.test.ts profile photos.
 */
let server: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;
let jamie: Client;
let ali: Client;

beforeAll(async () => {
  server = await startTestServer({ imageClassifier: new FakeClassifier() });
  ids = await demoIds(server);
  ({ jamie, ali } = await signInDemoClients(server));
});
afterAll(async () => {
  await server?.close();
});

const PAGE = Buffer.from('<!doctype html><html><body><script>fetch("/api/v1/auth/user").then(r=>r.text()).then(alert)</script></body></html>');
const HOSTILE_PDF = Buffer.concat([PDF, PAGE]);
const HOSTILE_PNG = Buffer.concat([pngImage(4, 4, [200, 0, 0]), PAGE]);
const PDF_NAME = '"><script>alert(1)<\\script>.html.pdf';
const PNG_NAME = '<img src=x onerror=alert(1)>.png';

/** GET as a browser opening the link in a tab would. */
async function open(client: Client, path: string) {
  const res = await fetch(`${server.base}/api${path}`, { headers: { cookie: browserHeaders(client).cookie!, accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function expectSafe(client: Client, path: string, kind: 'pdf' | 'png', what: string) {
  const res = await open(client, path);
  expect(res.status, what).toBe(200);
  expect(res.bytes.equals(kind === 'pdf' ? HOSTILE_PDF : HOSTILE_PNG), what).toBe(true);
  const h = res.headers;
  expect(h.get('content-type'), what).toBe(kind === 'pdf' ? 'application/pdf' : 'image/png');
  expect(h.get('x-content-type-options'), what).toBe('nosniff');
  expect(h.get('content-security-policy'), what).toBe("default-src 'none'; sandbox");
  expect(h.get('cross-origin-resource-policy'), what).toBe('same-origin');
  expect(h.get('cache-control'), what).toBe('private, no-store');
  const disposition = h.get('content-disposition') ?? '';
  expect(disposition, what).toMatch(kind === 'pdf' ? /^attachment; / : /^inline; /);
  // No markup and no way out of the quoted name: < > " are taken out at upload, the rest percent-encoded.
  expect(disposition, what).not.toMatch(/[<>]/);
  expect(disposition.match(/"/g), what).toHaveLength(2);
}

describe('hostile bytes that pass the type check come back inert', () => {
  it('a reply’s and a voice entry’s files', async () => {
    const categories = voiceCategoriesPageSchema.parse((await jamie.get(`/api${paths.voiceCategories.build()}`)).body).data;
    const made = await postForm(server.base, jamie, `/api${entryPaths.voice.entries.build()}`, [
      ['category_id', categories[0]!.id],
      ['description', 'See the files'],
      ['shared_with[]', ids.user['demo/carer.ali']!],
      ['files[0]', { name: PDF_NAME, data: HOSTILE_PDF }],
      ['files[1]', { name: PNG_NAME, data: HOSTILE_PNG }],
    ]);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const entry = voiceEntryResponseSchema.parse(made.body).data;
    const replied = await postForm(server.base, ali, `/api${entryPaths.voice.comments.build()}`, [['entry_id', entry.id], ['comment', 'Thanks'], ['files[0]', { name: PDF_NAME, data: HOSTILE_PDF }], ['files[1]', { name: PNG_NAME, data: HOSTILE_PNG }]]);
    expect(replied.status, JSON.stringify(replied.body)).toBe(201);
    const reply = commentResponseSchema.parse(replied.body).data;
    for (const client of [jamie, ali]) {
      await expectSafe(client, fileViewPath(entry.files[0]!.id, 'voice'), 'pdf', 'voice pdf');
      await expectSafe(client, fileViewPath(entry.files[1]!.id, 'voice'), 'png', 'voice png');
      await expectSafe(client, fileViewPath(reply.files[0]!.id, 'comment'), 'pdf', 'reply pdf');
      await expectSafe(client, fileViewPath(reply.files[1]!.id, 'comment'), 'png', 'reply png');
    }
  });

  it('an objective’s comment files and file answers', async () => {
    const jamieId = ids.resident['demo/jamie']!;
    const forms = await ali.get<{ data: { id: string; name: string }[] }>(`/api${paths.forms.build()}?per_page=100`);
    const education = forms.body.data.find((f) => f.name === 'Education')!;
    const created = await ali.post(`/api${paths.residentTasks.build(jamieId)}`, { form_id: education.id, title: 'Homework', task_date: '2026-01-05' });
    const log = taskLogResponseSchema.parse(created.body).data;
    const filled = await postForm(server.base, ali, `/api${paths.taskLog.build(log.id)}?_method=PUT`, [['files[work][]', { name: PDF_NAME, data: HOSTILE_PDF }]]);
    expect(filled.status, JSON.stringify(filled.body)).toBe(200);
    const answer = (taskLogResponseSchema.parse(filled.body).data.answers.work as { file_id: string }[])[0]!.file_id;
    const commented = await postForm(server.base, jamie, `/api${paths.taskLogComments.build()}`, [['task_log_id', log.id], ['comment', 'Look'], ['files[]', { name: PNG_NAME, data: HOSTILE_PNG }], ['files[]', { name: PDF_NAME, data: HOSTILE_PDF }]]);
    expect(commented.status, JSON.stringify(commented.body)).toBe(201);
    const comment = taskCommentResponseSchema.parse(commented.body).data;
    for (const client of [jamie, ali]) {
      await expectSafe(client, fileViewPath(answer, 'task_log'), 'pdf', 'file answer');
      await expectSafe(client, fileViewPath(comment.files[0]!.id, 'task_comment'), 'png', 'objective comment png');
      await expectSafe(client, fileViewPath(comment.files[1]!.id, 'task_comment'), 'pdf', 'objective comment pdf');
    }
  });

  it('a document’s gallery picture and a form answer’s file', async () => {
    const jamieId = ids.resident['demo/jamie']!;
    const gallery = await postForm(server.base, ali, `/api${paths.documents.build()}`, [
      ['kind', 'gallery'],
      ['title', 'Pictures'],
      ['resident_id', jamieId],
      ['items', JSON.stringify([{ file: 'one', caption: '<b>x</b>' }])],
      ['files[one]', { name: PNG_NAME, data: HOSTILE_PNG }],
    ]);
    expect(gallery.status, JSON.stringify(gallery.body)).toBe(201);
    const item = documentResponseSchema.parse(gallery.body).data.gallery!.items[0]!;
    const forms = await ali.get<{ data: { id: string; name: string }[] }>(`/api${paths.forms.build()}?per_page=100`);
    const shared = await ali.post(`/api${paths.documents.build()}`, { kind: 'form', title: 'My work', resident_id: jamieId, form_id: forms.body.data.find((f) => f.name === 'Education')!.id });
    const form = documentResponseSchema.parse(shared.body).data;
    const sent = await postForm(server.base, jamie, `/api${paths.documentSubmissions.build(form.id)}`, [['answers', JSON.stringify({ on_time: 'yes' })], ['files[work][]', { name: PDF_NAME, data: HOSTILE_PDF }]]);
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const answer = documentSubmissionResponseSchema.parse(sent.body).data.files[0]!;
    for (const client of [jamie, ali]) {
      await expectSafe(client, item.blob, 'png', 'gallery picture');
      await expectSafe(client, paths.documentItemBlob.build(form.id, answer.id), 'pdf', 'form answer');
    }
  });
});
