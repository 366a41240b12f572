import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMENT_MAX_LENGTH, commentLengthMessages, commentResponseSchema, commentSchema, REACTION_MAX_LENGTH, type Comment } from '../../src/contract/comments';
import { entryMessages, journalEntryResponseSchema, journalPageSchema, voiceCategoriesPageSchema, voiceEntryResponseSchema } from '../../src/contract/entries';
import { chosenMessages as chosen } from '../../src/contract/messages';
import { entryPaths, paths } from '../../src/contract/paths';
import { pageSchema } from '../../src/contract/sync';
import type { Client } from './support/client';
import { signedIn } from './support/session';
import { startTestServer, type TestServer } from './support/server';
import { PDF, postForm } from './support/uploads';

/**
 * What an attacker (or a broken client) sends where text belongs: a JSON object or list, a number,
 * a form field sent twice. The journal and voice writes and the edit of a reply dropped such a value
 * and answered 2xx: the entry was saved without the words, the edit "succeeded" and changed nothing.
 * Now each is a 422 naming the field, and nothing is stored or changed.
 */
let server: TestServer;
let jamie: Client;

beforeAll(async () => {
  server = await startTestServer();
  jamie = await signedIn(server, 'jamie');
});
afterAll(async () => {
  await server?.close();
});

const JOURNAL = `/api${entryPaths.journal.entries.build()}`;
type Refusal = { success: false; message: string; errors: Record<string, string[]> };

/** Jamie's journal entries with this reaction (each case below uses its own). */
async function withReaction(reaction: string) {
  const res = await jamie.get(`${JOURNAL}?per_page=500&filters[0][0]=reaction&filters[0][1]=%3D&filters[0][2]=${encodeURIComponent(reaction)}`);
  expect(res.status).toBe(200);
  return journalPageSchema.parse(res.body).data;
}

function refusedOn(res: { status: number; body: unknown }, fields: string[]) {
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  const body = res.body as Refusal;
  expect(body.message).toBe(chosen.validationFailed);
  expect(Object.keys(body.errors).sort(), JSON.stringify(body)).toEqual([...fields].sort());
  // One reason each: a date that is no date is not also "in the future".
  for (const field of fields) expect(body.errors[field], JSON.stringify(body)).toHaveLength(1);
}

describe('a journal or voice entry whose text fields are no text', () => {
  it('a new entry with its words as an object or a list is refused, not saved without them', async () => {
    const cases: [Record<string, unknown>, string, string[]][] = [
      [{ description: { text: 'What happened at school' } }, '🦔', ['description']],
      [{ description: ['What happened', 'at school'] }, '🦩', ['description']],
      [{ description: 'A day out', entry_date: { day: '2026-01-10' } }, '🦦', ['entry_date']],
      [{ description: 'A day out', entry_date: ['2026-01-10'] }, '🐿', ['entry_date']],
      [{ description: 'A day out', entry_time: { h: 10 } }, '🦥', ['entry_time']],
    ];
    for (const [fields, reaction, errors] of cases) {
      const res = await jamie.post(JOURNAL, { ...fields, reaction });
      refusedOn(res, errors);
      expect(await withReaction(reaction), JSON.stringify(fields)).toEqual([]);
    }
  });

  it('a form field sent twice is refused, not dropped', async () => {
    const res = await postForm(server.base, jamie, JOURNAL, [['description', 'First half'], ['description', 'second half'], ['reaction', '🦫']]);
    refusedOn(res, ['description']);
    expect(await withReaction('🦫')).toEqual([]);
  });

  it('an update with such a value changes nothing', async () => {
    const made = await jamie.post(JOURNAL, { description: 'Kept as written', reaction: '🐢' });
    expect(made.status).toBe(201);
    const before = journalEntryResponseSchema.parse(made.body).data;
    for (const fields of [{ description: { text: 'Overwritten' } }, { description: ['Overwritten'] }, { reaction: { emoji: '😡' } }, { entry_date: ['2026-01-01'] }]) {
      const res = await jamie.post(`/api${entryPaths.journal.entry.build(before.id)}?_method=PUT`, fields);
      refusedOn(res, Object.keys(fields));
    }
    const after = journalEntryResponseSchema.parse((await jamie.get(`/api${entryPaths.journal.entry.build(before.id)}`)).body).data;
    expect(after).toMatchObject({ description: 'Kept as written', reaction: '🐢', entry_date: before.entry_date, entry_time: before.entry_time, updated_at: before.updated_at });
  });

  it('a voice entry keeps its category when another is sent as an object', async () => {
    const categories = voiceCategoriesPageSchema.parse((await jamie.get(`/api${paths.voiceCategories.build()}`)).body).data;
    const made = await jamie.post(`/api${entryPaths.voice.entries.build()}`, { description: 'The shower is cold', category_id: categories[0]!.id });
    expect(made.status).toBe(201);
    const entry = voiceEntryResponseSchema.parse(made.body).data;
    const res = await jamie.post(`/api${entryPaths.voice.entry.build(entry.id)}?_method=PUT`, { category_id: { id: categories[1]!.id } });
    refusedOn(res, ['category_id']);
    const after = voiceEntryResponseSchema.parse((await jamie.get(`/api${entryPaths.voice.entry.build(entry.id)}`)).body).data;
    expect(after).toMatchObject({ category_id: categories[0]!.id, updated_at: entry.updated_at });
  });
});

describe('the edit of a reply whose fields are no text', () => {
  const thread = pageSchema(commentSchema);

  it('is refused with the field, and the reply, its file and its time stay as they were', async () => {
    const entry = journalEntryResponseSchema.parse((await jamie.post(JOURNAL, { description: 'A thread of mine' })).body).data;
    const made = await postForm(server.base, jamie, `/api${entryPaths.journal.comments.build()}`, [
      ['entry_id', entry.id],
      ['comment', 'As I wrote it'],
      ['files[0]', { name: 'plan.pdf', data: PDF, type: 'application/pdf' }],
    ]);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const reply = commentResponseSchema.parse(made.body).data;
    const edit = (body: unknown) => jamie.post(`/api${entryPaths.journal.comment.build(reply.id)}?_method=PUT`, body);

    const cases: [Record<string, unknown>, Record<string, string[]>][] = [
      [{ comment: { text: 'Changed' } }, { comment: [entryMessages.commentRequired] }],
      [{ comment: ['Changed'] }, { comment: [entryMessages.commentRequired] }],
      [{ comment: 42 }, { comment: [entryMessages.commentRequired] }],
      [{ reaction: { emoji: '👍' } }, { reaction: [entryMessages.reactionRequired] }],
      [{ remove_files: { id: reply.files[0]!.id } }, { remove_files: ['That file is not on this comment'] }],
      [{ remove_files: [reply.files[0]!.id, 7] }, { remove_files: ['That file is not on this comment'] }],
    ];
    for (const [body, errors] of cases) {
      const res = await edit(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body, JSON.stringify(body)).toEqual({ success: false, message: chosen.validationFailed, errors });
    }
    const [after] = thread.parse((await jamie.get(`/api${entryPaths.journal.entryComments.build(entry.id)}`)).body).data as Comment[];
    expect(after).toEqual(reply);

    // Null is "not sent", and text is still text.
    const fine = await edit({ comment: 'As I meant it', reaction: null });
    expect(fine.status, JSON.stringify(fine.body)).toBe(200);
    expect(commentResponseSchema.parse(fine.body).data).toMatchObject({ comment: 'As I meant it', reaction: null, files: reply.files });
  });
});

describe('a reply or reaction over its limit', () => {
  it('is refused with the same words on create and on edit', async () => {
    const entry = journalEntryResponseSchema.parse((await jamie.post(JOURNAL, { description: 'A thread for long words' })).body).data;
    const COMMENTS = `/api${entryPaths.journal.comments.build()}`;
    const long = { comment: 'x'.repeat(COMMENT_MAX_LENGTH + 1) };
    const longReaction = { comment: 'Fine', reaction: 'y'.repeat(REACTION_MAX_LENGTH + 1) };
    for (const [body, field] of [[long, 'comment'], [longReaction, 'reaction']] as const) {
      const created = await jamie.post(COMMENTS, { entry_id: entry.id, ...body });
      expect(created.status, JSON.stringify(created.body)).toBe(422);
      expect((created.body as Refusal).errors).toEqual({ [field]: [commentLengthMessages[field]] });
    }
    const made = await jamie.post(COMMENTS, { entry_id: entry.id, comment: 'Short and sweet' });
    expect(made.status).toBe(201);
    const reply = commentResponseSchema.parse(made.body).data;
    for (const [body, field] of [[long, 'comment'], [longReaction, 'reaction']] as const) {
      const edited = await jamie.post(`/api${entryPaths.journal.comment.build(reply.id)}?_method=PUT`, body);
      expect(edited.status, JSON.stringify(edited.body)).toBe(422);
      expect((edited.body as Refusal).errors).toEqual({ [field]: [commentLengthMessages[field]] });
    }
  });
});
