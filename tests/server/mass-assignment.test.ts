import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentResponseSchema } from '../../src/contract/comments';
import { documentResponseSchema, documentSubmissionResponseSchema } from '../../src/contract/documents';
import { journalEntryResponseSchema, journalPageSchema } from '../../src/contract/entries';
import { entryPaths, paths } from '../../src/contract/paths';
import { residentDetailsResponseSchema } from '../../src/contract/residents';
import { rewardExchangePageSchema, rewardExchangeResponseSchema, rewardPageSchema, rewardResponseSchema } from '../../src/contract/rewards';
import { pointsPageSchema, taskCommentResponseSchema, taskLogResponseSchema, taskResponseSchema } from '../../src/contract/tasks';
import type { Client } from './support/client';
import { demoIds, signInDemoClients } from './support/session';
import { startTestServer, type TestServer } from './support/server';
import { postForm } from './support/uploads';

/**
 * Mass assignment, through the API only: every write sent with the fields an attacker would add
 * (whose row it is, who made it, its state, its points, its tenant, its times). None of them may
 * take effect: the row belongs to the signed-in person and the path's ids, in the state the server
 * decides. Existing tests send only the fields each write takes; these send the others.
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
  ({ jamie, riley, sam, ali, chris } = await signInDemoClients(server));
});
afterAll(async () => {
  await server?.close();
});

const jamieId = () => ids.resident['demo/jamie']!;
const rileyId = () => ids.resident['demo/riley']!;
const user = (name: string) => ids.user[`demo/${name}`]!;
const LONG_AGO = '2020-01-01T00:00:00.000000Z';
/** Fields no client may set on any row. */
const forged = () => ({ tenant_id: randomUUID(), creator_id: user('riley'), created_by: user('riley'), created_at: LONG_AGO, updated_at: LONG_AGO, deleted_at: LONG_AGO });
const recent = (at: string) => Date.parse(at) > Date.now() - 10 * 60_000;

const balanceOf = async (client: Client, residentId: string) =>
  pointsPageSchema.parse((await client.get(`/api${paths.residentPoints.build(residentId)}`)).body).balance;

describe('a young person’s writes', () => {
  it('a journal entry is Jamie’s, open and new, whatever the body says about its owner, lock, count or times', async () => {
    const res = await jamie.post(`/api${entryPaths.journal.entries.build()}`, {
      ...forged(),
      description: 'Mine, whatever it says',
      resident_id: rileyId(),
      locked_at: LONG_AGO,
      comments_count: 99,
      creator: { id: user('riley') },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const entry = journalEntryResponseSchema.parse(res.body).data;
    expect(entry).toMatchObject({ resident_id: jamieId(), creator: { id: user('jamie') }, locked_at: null, deleted_at: null, comments_count: 0 });
    expect(recent(entry.created_at) && recent(entry.updated_at)).toBe(true);
    // Riley's own list has nothing of it; Jamie still changes it, so it stayed open.
    const rileys = journalPageSchema.parse((await riley.get(`/api${entryPaths.journal.entries.build()}?per_page=500`)).body).data;
    expect(rileys.map((e) => e.id)).not.toContain(entry.id);
    const again = await jamie.post(`/api${entryPaths.journal.entry.build(entry.id)}?_method=PUT`, { description: 'Still mine', id: randomUUID(), resident_id: rileyId(), locked_at: LONG_AGO });
    expect(again.status).toBe(200);
    expect(journalEntryResponseSchema.parse(again.body).data).toMatchObject({ id: entry.id, resident_id: jamieId(), locked_at: null, description: 'Still mine' });
  });

  it('a reply is Jamie’s, in the thread of the path’s kind', async () => {
    const entry = journalEntryResponseSchema.parse((await jamie.post(`/api${entryPaths.journal.entries.build()}`, { description: 'A thread' })).body).data;
    const res = await jamie.post(`/api${entryPaths.journal.comments.build()}`, { ...forged(), entry_id: entry.id, comment: 'My reply', entry_type: 'voice', edited_at: LONG_AGO });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const reply = commentResponseSchema.parse(res.body).data;
    expect(reply).toMatchObject({ entry_id: entry.id, creator: { id: user('jamie') }, deleted_at: null });
    expect(recent(reply.created_at)).toBe(true);
    expect((await jamie.get(`/api${entryPaths.journal.entryComments.build(entry.id)}`)).body).toMatchObject({ data: [{ id: reply.id }] });
  });

  it('an exchange is pending at the reward’s cost, Jamie’s, of the path’s reward; the balance pays it', async () => {
    const catalogue = rewardPageSchema.parse((await jamie.get(`/api${paths.rewards.build()}`)).body).data;
    const [cheap, other] = [...catalogue].filter((r) => r.active).sort((a, b) => a.points - b.points);
    const before = await balanceOf(jamie, jamieId());
    const res = await jamie.post(`/api${paths.rewardExchange.build(jamieId(), cheap!.id)}`, {
      ...forged(),
      status: 'approved',
      points: 0,
      points_adjustment: 0,
      refunded_points: 999,
      resident_id: rileyId(),
      reward_id: other!.id,
      decided_by: user('carer.ali'),
      decided_at: LONG_AGO,
      note: 'Approved by myself',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const exchange = rewardExchangeResponseSchema.parse(res.body).data;
    expect(exchange).toMatchObject({ status: 'pending', points: cheap!.points, points_adjustment: -cheap!.points, refunded_points: 0, resident_id: jamieId(), reward_id: cheap!.id, decided_by: null, decided_at: null, note: null });
    expect(await balanceOf(jamie, jamieId())).toBe(before - cheap!.points);
    const rileysHistory = rewardExchangePageSchema.parse((await riley.get(`/api${paths.rewardsHistory.build(rileyId())}?per_page=500`)).body).data;
    expect(rileysHistory.map((x) => x.id)).not.toContain(exchange.id);

    // Staff's decision is the path's: a deny sent with "approved" and extra points refunds the cost, once.
    const denied = await ali.post(`/api${paths.rewardExchangeDeny.build(exchange.id)}`, { status: 'approved', points: 9999, refunded_points: 9999, decided_by: user('carer.chris') });
    expect(denied.status, JSON.stringify(denied.body)).toBe(200);
    expect(rewardExchangeResponseSchema.parse(denied.body).data).toMatchObject({ status: 'denied', refunded_points: cheap!.points, decided_by: { id: user('carer.ali') } });
    expect(await balanceOf(jamie, jamieId())).toBe(before);
  });

  it('app settings never switch a feature back on, move points or home, or change the key worker', async () => {
    expect((await ali.put(`/api${paths.residentFeatures.build(jamieId())}`, { journal_enabled: 0, rewards_enabled: 0 })).status).toBe(200);
    const before = residentDetailsResponseSchema.parse((await jamie.get(`/api${paths.resident.build(jamieId())}`)).body).data;
    const res = await jamie.put(`/api${paths.appSettings.build(jamieId())}`, {
      theme: 'metro',
      journal_enabled: 1,
      voice_enabled: 1,
      rewards_enabled: 1,
      reward_points: 99_999,
      home_id: ids.home['Cedar Lodge'],
      key_worker_id: user('carer.chris'),
      user_id: user('riley'),
      preferred_name: 'Boss',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = residentDetailsResponseSchema.parse(res.body).data;
    const { app_settings: settingsBefore, updated_at: _b, ...restBefore } = before;
    const { app_settings: settingsAfter, updated_at: _a, ...restAfter } = after;
    expect(restAfter).toEqual(restBefore);
    expect(settingsAfter).toEqual({ ...settingsBefore, theme: 'metro' });
    expect((await jamie.post(`/api${entryPaths.journal.entries.build()}`, { description: 'Back on?' })).status).toBe(403);
    expect((await ali.put(`/api${paths.residentFeatures.build(jamieId())}`, { journal_enabled: 1, rewards_enabled: 1 })).status).toBe(200);
  });

  it('an objective comment is Jamie’s and no review unless he asks for one', async () => {
    const logs = await jamie.get<{ data: { id: string }[] }>(`/api${paths.tasksIncomplete.build(jamieId())}`);
    const log = logs.body.data[0]!;
    const res = await jamie.post(`/api${paths.taskLogComments.build()}`, { ...forged(), task_log_id: log.id, comment: 'Halfway there', edited_at: LONG_AGO, reviewed: true });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const comment = taskCommentResponseSchema.parse(res.body).data;
    expect(comment).toMatchObject({ task_log_id: log.id, is_review: false, edited_at: null, creator: { id: user('jamie') } });
    expect(recent(comment.created_at)).toBe(true);
  });

  it('a form submission is Jamie’s, of the document’s version, sent now', async () => {
    const forms = await ali.get<{ data: { id: string; name: string }[] }>(`/api${paths.forms.build()}?per_page=100`);
    const form = forms.body.data.find((f) => f.name === 'Independence skills')!;
    const shared = await ali.post(`/api${paths.documents.build()}`, { kind: 'form', title: 'Mass check', resident_id: jamieId(), form_id: form.id });
    expect(shared.status, JSON.stringify(shared.body)).toBe(201);
    const doc = documentResponseSchema.parse(shared.body).data;
    const res = await jamie.post(`/api${paths.documentSubmissions.build(doc.id)}`, {
      answers: { what_did_you_do: 'Made tea', confidence: 5 },
      resident_id: rileyId(),
      creator_id: user('riley'),
      document_id: randomUUID(),
      form_version_id: randomUUID(),
      submitted_at: LONG_AGO,
      files: [{ id: randomUUID() }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const submission = documentSubmissionResponseSchema.parse(res.body).data;
    expect(submission).toMatchObject({ document_id: doc.id, resident_id: jamieId(), form_version_id: doc.form!.form_version_id, files: [], creator: { id: user('jamie') } });
    expect(recent(submission.submitted_at)).toBe(true);
  });
});

describe('staff writes', () => {
  it('an objective is for the path’s young person, current, made by the one who sent it', async () => {
    const forms = await ali.get<{ data: { id: string; name: string }[] }>(`/api${paths.forms.build()}?per_page=100`);
    const form = forms.body.data.find((f) => f.name === 'Education')!;
    const res = await ali.post(`/api${paths.residentTasks.build(jamieId())}`, {
      ...forged(),
      form_id: form.id,
      title: 'Reading club',
      task_date: '2026-01-05',
      resident_id: rileyId(),
      status: 'completed',
      completed_at: LONG_AGO,
      answers: { on_time: 'yes' },
      form_version_id: randomUUID(),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const log = taskLogResponseSchema.parse(res.body).data;
    expect(log).toMatchObject({ resident_id: jamieId(), status: 'current', completed_at: null, answers: {} });
    const task = taskResponseSchema.parse((await ali.get(`/api${paths.task.build(log.task_id)}`)).body).data;
    expect(task).toMatchObject({ resident_id: jamieId(), creator: { id: user('carer.ali') }, deleted_at: null });
    expect((await riley.get(`/api${paths.task.build(log.task_id)}`)).status).toBe(404);

    // A fill names only answers and status: the log stays this young person's, of this task, not reviewed.
    const filled = await postForm(server.base, ali, `/api${paths.taskLog.build(log.id)}?_method=PUT`, [
      ['answers', JSON.stringify({ on_time: 'yes' })],
      ['resident_id', rileyId()],
      ['task_id', randomUUID()],
      ['reviewed', '1'],
      ['completed_at', LONG_AGO],
    ]);
    expect(filled.status, JSON.stringify(filled.body)).toBe(200);
    expect(taskLogResponseSchema.parse(filled.body).data).toMatchObject({ id: log.id, task_id: log.task_id, resident_id: jamieId(), status: 'current', completed_at: null, reviewed: false });
  });

  it('a reward belongs to the path’s home, live, whatever home, tenant or state the body names', async () => {
    const willow = ids.home['Willow House']!;
    const cedar = ids.home['Cedar Lodge']!;
    const res = await ali.post(`/api${paths.homeRewards.build(willow)}`, { ...forged(), name: 'Pizza night', points: 5, home_id: cedar, image: { id: randomUUID() } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const reward = rewardResponseSchema.parse(res.body).data;
    expect(reward).toMatchObject({ home_id: willow, deleted_at: null, image: null, active: true });
    const moved = await ali.post(`/api${paths.reward.build(reward.id)}?_method=PUT`, { home_id: cedar, deleted_at: LONG_AGO, name: 'Pizza night!' });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(rewardResponseSchema.parse(moved.body).data).toMatchObject({ id: reward.id, home_id: willow, deleted_at: null, name: 'Pizza night!' });
    const samsCatalogue = rewardPageSchema.parse((await sam.get(`/api${paths.rewards.build()}?per_page=500`)).body).data;
    expect(samsCatalogue.map((r) => r.id)).not.toContain(reward.id);
    expect((await chris.get(`/api${paths.homeRewards.build(cedar)}?per_page=500`)).body).not.toMatchObject({ data: expect.arrayContaining([expect.objectContaining({ id: reward.id })]) });
  });

  it('a document is shared at version 1 by the one who shared it, live', async () => {
    const forms = await ali.get<{ data: { id: string; name: string }[] }>(`/api${paths.forms.build()}?per_page=100`);
    const res = await ali.post(`/api${paths.documents.build()}`, {
      ...forged(),
      kind: 'form',
      title: 'Forged',
      resident_id: jamieId(),
      form_id: forms.body.data[0]!.id,
      version: 99,
      content_updated_at: LONG_AGO,
      size: 1,
      submission: { resident_id: jamieId() },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const doc = documentResponseSchema.parse(res.body).data;
    expect(doc).toMatchObject({ version: 1, deleted_at: null, resident_id: jamieId(), home_id: null, submission: null, creator: { id: user('carer.ali') } });
    expect(recent(doc.created_at) && recent(doc.content_updated_at)).toBe(true);
  });
});
