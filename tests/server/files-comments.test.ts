import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentResponseSchema, commentSchema, type Comment } from '../../src/contract/comments';
import { entryMessages, type JournalEntry } from '../../src/contract/entries';
import { pageSchema } from '../../src/contract/sync';
import type { Client } from './support/client';
import { demoIds, openStream, signedIn } from './support/session';
import { startTestServer, type TestServer } from './support/server';
import { FakeClassifier, getBytes, PDF, pngImage, postForm, type FormValue } from './support/uploads';

let server: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;
let jamie: Client;
let sam: Client;
let ali: Client;
const classifier = new FakeClassifier();

beforeAll(async () => {
  server = await startTestServer({ imageClassifier: classifier });
  ids = await demoIds(server);
  [jamie, sam, ali] = await Promise.all([signedIn(server, 'jamie'), signedIn(server, 'sam'), signedIn(server, 'carer.ali')]);
});
afterAll(async () => {
  await server?.close();
});

const ENTRIES = '/api/v1/projects/residents/journal/entries';
const PNG = pngImage(6, 6, [250, 200, 10]);
const commentsPage = pageSchema(commentSchema);

async function newEntry(fields: [string, FormValue][]): Promise<JournalEntry> {
  const res = await postForm<{ data: JournalEntry }>(server.base, jamie, ENTRIES, fields);
  expect(res.status).toBe(201);
  return res.body.data;
}

describe('GET /api/v1/files/view', () => {
  it('serves the bytes with safe headers to those who may read the entry, 404 to everyone else', async () => {
    const entry = await newEntry([['description', 'With files'], ['files[0]', { name: 'sünny day.png', data: PNG }], ['files[1]', { name: 'letter.pdf', data: PDF }], ['shared_with[]', ids.user['demo/carer.ali']!]]);
    const [image, pdf] = entry.files;
    const res = await getBytes(server.base, jamie, `/api/v1/files/view?file_id=${image!.id}&module=journal`);
    expect(res.status).toBe(200);
    expect(res.bytes.equals(PNG)).toBe(true);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toMatch(/^inline; filename="s_nny day.png"; filename\*=UTF-8''s%C3%BCnny%20day.png$/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    const asPdf = await getBytes(server.base, jamie, `/api/v1/files/view?file_id=${pdf!.id}&module=journal`);
    expect(asPdf.headers.get('content-type')).toBe('application/pdf');
    expect(asPdf.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect((await getBytes(server.base, ali, `/api/v1/files/view?file_id=${image!.id}&module=journal`)).status).toBe(200);
    expect((await getBytes(server.base, sam, `/api/v1/files/view?file_id=${image!.id}&module=journal`)).status).toBe(404);
    expect((await getBytes(server.base, jamie, `/api/v1/files/view?file_id=${image!.id}&module=voice`)).status).toBe(404);
    expect((await getBytes(server.base, server.client(), `/api/v1/files/view?file_id=${image!.id}&module=journal`)).status).toBe(401);
    expect((await getBytes(server.base, jamie, `/api/v1/files/view?file_id=../../etc/passwd&module=journal`)).status).toBe(422);
  });

  it('the demo drawing is a PNG stored outside the database', async () => {
    const list = await jamie.get<{ data: JournalEntry[] }>(`${ENTRIES}?search_term=Drew%20the%20sun`);
    const canvas = list.body.data[0]!.canvas!;
    const res = await getBytes(server.base, jamie, `/api/v1/files/view?file_id=${canvas.id}&module=journal`);
    expect(res.status).toBe(200);
    expect(res.bytes.subarray(0, 4).toString('latin1')).toBe('\x89PNG');
  });
});

describe('comments with files, edits and lists', () => {
  it('creates a comment with files, lists the thread, and only the creator may edit it', async () => {
    const entry = await newEntry([['description', 'Talk to me'], ['shared_with[]', ids.user['demo/carer.ali']!]]);
    const stream = await openStream(server, jamie);
    const res = await postForm<Comment>(server.base, ali, `${ENTRIES}/comments`, [['entry_id', entry.id], ['comment', 'Here is the form'], ['files[0]', { name: 'form.pdf', data: PDF }]]);
    expect(res.status).toBe(201);
    const comment = commentResponseSchema.parse(res.body).data;
    expect(comment.files.map((f) => f.name)).toEqual(['form.pdf']);
    await stream.waitFor(/feedback/);
    stream.close();
    const file = await getBytes(server.base, jamie, `/api/v1/files/view?file_id=${comment.files[0]!.id}&module=comment`);
    expect(file.status).toBe(200);
    expect((await getBytes(server.base, sam, `/api/v1/files/view?file_id=${comment.files[0]!.id}&module=comment`)).status).toBe(404);

    const bad = await postForm<{ errors: Record<string, string[]> }>(server.base, ali, `${ENTRIES}/comments`, [['entry_id', entry.id], ['comment', 'x'], ['files[0]', { name: 'a.png', data: Buffer.from('not png') }]]);
    expect(bad.status).toBe(422);
    expect(bad.body.errors.files).toEqual([entryMessages.fileTypeNotAllowed]);

    const thread = commentsPage.parse((await jamie.get(`${ENTRIES}/${entry.id}/comments`)).body);
    expect(thread.data.map((c) => c.id)).toEqual([comment.id]);
    expect((await sam.get(`${ENTRIES}/${entry.id}/comments`)).status).toBe(404);

    const notMine = await postForm(server.base, jamie, `${ENTRIES}/comments/${comment.id}?_method=PUT`, [['comment', 'changed']]);
    expect(notMine.status).toBe(404);
    const before = await server.db.selectFrom('resident_feedback').select(['updated_at', 'comment_id']).where('entry_id', '=', entry.id).executeTakeFirstOrThrow();
    const edited = await postForm<{ data: Comment }>(server.base, ali, `${ENTRIES}/comments/${comment.id}?_method=PUT`, [['comment', 'Here is the right form'], ['reaction', '👍'], ['remove_files[]', comment.files[0]!.id], ['files[0]', { name: 'right.png', data: PNG }]]);
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ comment: 'Here is the right form', reaction: '👍' });
    expect(edited.body.data.files.map((f) => f.name)).toEqual(['right.png']);
    const after = await server.db.selectFrom('resident_feedback').select(['updated_at', 'reaction']).where('entry_id', '=', entry.id).executeTakeFirstOrThrow();
    expect(after.updated_at.getTime()).toBeGreaterThanOrEqual(before.updated_at.getTime());
    expect(after.reaction).toBe('👍');
    const empty = await postForm<{ errors: Record<string, string[]> }>(server.base, ali, `${ENTRIES}/comments/${comment.id}?_method=PUT`, [['comment', ''], ['reaction', '']]);
    expect(empty.status).toBe(422);
    expect(empty.body.errors.comment).toEqual([entryMessages.commentRequired]);
    const checkpoint = thread.meta.checkpoint!;
    const since = commentsPage.parse((await jamie.get(`${ENTRIES}/${entry.id}/comments?checkpoint[updated_at]=${encodeURIComponent(checkpoint.updated_at)}&checkpoint[id]=${checkpoint.id}`)).body);
    expect(since.data.map((c) => c.comment)).toEqual(['Here is the right form']);
    const shown = await jamie.get<{ data: { comments: Comment[]; comments_count: number } }>(`${ENTRIES}/${entry.id}`);
    expect(shown.body.data.comments_count).toBe(1);
    expect(shown.body.data.comments[0]!.files).toHaveLength(1);
  });
});
