/**
 * Objectives on the device against the real server in-process (PGlite, demo seed): both tabs'
 * replications fill `tasks`, staff (through the staff endpoints, never the database) make, fill,
 * complete and comment on objectives, and the young person's comments and reviews go through the
 * real outbox and settle in the replica. Every objective a test uses is its own.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Subscription } from 'rxjs';
import { formSchema } from '@/contract/forms';
import { pageSchema } from '@/contract/sync';
import { REVIEW_POINTS, taskLogResponseSchema, taskMessages, type TaskLog } from '@/contract/tasks';
import type { Account } from '@/contract/users';
import { deleteDraft, readDraft, saveDraft } from '@/data/drafts';
import { flushOutboxNowOnline, refreshCounts, resetOutboxConfig, waitForOutboxToDrain } from '@/data/outbox/outbox';
import { closeReplica, getReplication, openReplicaForAccount, wipeReplica, type ReplicaOptions } from '@/data/replica/lifecycle';
import type { OpenReplica } from '@/data/replica/replica-store';
import { pointsSources$, pointsSummary, taskLogView$, type PointsSummary, type ThreadComment } from '@/data/replica/task-overlays';
import type { PointsDoc, TaskCommentOverlayDoc, TaskLogDoc } from '@/data/replica/types';
import { replicationStatus } from '@/data/replication/sync-status';
import { discardTaskComment } from '@/features/objectives/actions/discard-task-comment';
import { postTaskComment } from '@/features/objectives/actions/post-task-comment';
import { reviewTaskLog } from '@/features/objectives/actions/review-task-log';
import type { Client } from '../server/support/client';
import { signedIn } from '../server/support/session';
import { FakeClassifier, pngImage, postForm } from '../server/support/uploads';
import { WAIT_MS } from '../support/timeouts';
import { fakeIdb, randomKey, uniqueName } from './fixtures';
import { outboxToServer } from './support/outbox-to-server';
import { eventually, startSyncServer, type SyncTestServer } from './support/sync-server';

vi.mock('@/api/entries/check-image', () => ({ checkImage: vi.fn(async () => ({ ok: true, status: 200, data: { inappropriate: false } })) }));

let sync: SyncTestServer;
let account: Account;
let ali: Client;
let jamie: Client;
let open: OpenReplica;
let online = true;
let site: string;
const TAG = `obj-${Date.now().toString(36)}`;
const replica: ReplicaOptions = { ...fakeIdb, multiInstance: false, key: randomKey(), replicate: true, replication: { liveTriggers: false, retryTime: 200 } };

/** Requests whose path ends with this fail as a network failure would. */
let failing: string | null = null;
/** Holds the answer of the next request whose path ends with `suffix` until released. */
let hold: { suffix: string; reached: () => void; gate: Promise<void> } | null = null;
function holdNext(suffix: string): { reached: Promise<void>; release: () => void } {
  let reached!: () => void;
  let release!: () => void;
  const reachedP = new Promise<void>((r) => (reached = r));
  const gate = new Promise<void>((r) => (release = r));
  hold = { suffix, reached, gate };
  return { reached: reachedP, release };
}

beforeAll(async () => {
  sync = await startSyncServer({ imageClassifier: new FakeClassifier() });
  // Before src/api's session exists: the fetch wrapper adds it only to requests without cookies of their own.
  [ali, jamie] = await Promise.all([signedIn(sync.server, 'carer.ali'), signedIn(sync.server, 'jamie')]);
  account = await sync.signIn('jamie');
  const inner = globalThis.fetch;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (failing && url.pathname.endsWith(failing)) throw new TypeError('Failed to fetch');
    const response = await inner(input, init);
    const waiting = hold;
    if (waiting && url.pathname.endsWith(waiting.suffix)) {
      hold = null;
      waiting.reached();
      await waiting.gate;
    }
    return response;
  }) as typeof fetch;
});
afterAll(async () => {
  await sync?.close();
});
beforeEach(async () => {
  online = true;
  hold = null;
  failing = null;
  outboxToServer(sync, () => online);
  site = uniqueName('site');
  open = await openReplicaForAccount(account, site, replica);
  await getReplication()!.awaitInitial();
});
afterEach(async () => {
  resetOutboxConfig();
  vi.unstubAllGlobals();
  await closeReplica();
});

const residentId = () => account.user.resident!.id;

// Staff, through the staff endpoints (docs/api.md), as a carer's tools would.
async function formId(name: string): Promise<string> {
  const res = await ali.get('/api/v1/forms');
  return pageSchema(formSchema).parse(res.body).data.find((form) => form.name === name)!.id;
}
async function newObjective(title: string, taskDate = '2026-11-20'): Promise<TaskLog> {
  const res = await ali.post(`/api/v1/projects/residents/${residentId()}/tasks`, { form_id: await formId('Health and wellbeing'), title, task_date: taskDate });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return taskLogResponseSchema.parse(res.body).data;
}
async function staffFill(logId: string, fields: [string, string][]): Promise<TaskLog> {
  const res = await postForm<{ data: TaskLog }>(sync.server.base, ali, `/api/v1/tasks/logs/${logId}?_method=PUT`, fields);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}
const complete = (logId: string) => staffFill(logId, [['answers', JSON.stringify({ activity: 'Park run' })], ['status', 'completed']]);

async function pullTasks(): Promise<void> {
  const count = () => sync.requests.filter((r) => /\/tasks\/(complete|incomplete)$/.test(r.url.pathname)).length;
  const before = count();
  getReplication()!.reSync(['tasks', 'points']);
  await eventually(() => count() >= before + 2, WAIT_MS, 'both tabs pulled');
  await getReplication()!.awaitInSync();
}

const tasksDoc = async (id: string) => (await open.db.tasks.findOne(id).exec())?.toJSON() as unknown as (TaskLogDoc | TaskCommentOverlayDoc | undefined);
const logsWithStatus = async (status: 'current' | 'completed') =>
  (await open.db.tasks.find({ selector: { kind: 'log', status }, sort: [{ sort_key: 'desc' }] }).exec()).map((d) => d.toJSON() as unknown as TaskLogDoc);
const serverComments = (text: string) =>
  sync.server.db.selectFrom('task_log_comments').select(['id', 'is_review', 'comment']).where('comment', '=', text).where('deleted_at', 'is', null).execute();

/** Every thread the screen could have shown for this log while the test ran. */
function watchThread(logId: string): { snapshots: ThreadComment[][]; stop: () => void } {
  const snapshots: ThreadComment[][] = [];
  const subscription: Subscription = taskLogView$(open.db, logId).subscribe((view) => snapshots.push(view.thread));
  return { snapshots, stop: () => subscription.unsubscribe() };
}

describe('objectives on the device with the real server', () => {
  it('both tabs fill `tasks`: every log of each list, filed by status, newest task date first', async () => {
    const current = await logsWithStatus('current');
    const completed = await logsWithStatus('completed');
    const listed = async (which: 'incomplete' | 'complete') =>
      ((await jamie.get<{ data: TaskLog[] }>(`/api/v1/projects/residents/${residentId()}/tasks/${which}?per_page=500`)).body.data).map((l) => l.id).sort();
    expect(current.length).toBeGreaterThan(0);
    expect(completed.length).toBeGreaterThan(0);
    expect(current.map((l) => l.id).sort()).toEqual(await listed('incomplete'));
    expect(completed.map((l) => l.id).sort()).toEqual(await listed('complete'));
    for (const list of [current, completed]) {
      const dates = list.map((l) => l.task.task_date);
      expect(dates).toEqual([...dates].sort().reverse());
    }
    expect(completed.every((l) => l.task_log_id === l.id && l.form_version.fields.length > 0)).toBe(true);
    const pulls = replicationStatus.get().pulls;
    expect(pulls.get('tasks:current')).toMatchObject({ caughtUp: true, failed: false });
    expect(pulls.get('tasks:completed')).toMatchObject({ caughtUp: true, failed: false });
  });

  it('staff complete a log: it moves to the completed tab, and an older copy arriving later from the current tab never overwrites it', async () => {
    const log = await newObjective(`${TAG} move tabs`);
    await pullTasks();
    expect(await tasksDoc(log.id)).toMatchObject({ kind: 'log', status: 'current' });

    // The current tab's next answer carries a newer-but-not-newest copy, and is held back...
    const held = holdNext('/tasks/incomplete');
    const filled = await staffFill(log.id, [['answers', JSON.stringify({ activity: 'Swimming' })]]);
    getReplication()!.reSync(['tasks']);
    await held.reached;
    // ...while staff complete the log and the completed tab brings that copy first.
    const done = await complete(log.id);
    expect(done.updated_at > filled.updated_at).toBe(true);
    getReplication()!.reSync(['tasks']);
    await eventually(async () => (await tasksDoc(log.id))?.status === 'completed', WAIT_MS, 'the completed copy');
    // Only now the older copy arrives.
    held.release();
    await getReplication()!.awaitInSync();
    await pullTasks();

    expect(await tasksDoc(log.id)).toMatchObject({ status: 'completed', updated_at: done.updated_at, answers: { activity: 'Park run' } });
    expect((await logsWithStatus('current')).some((l) => l.id === log.id)).toBe(false);
    expect((await logsWithStatus('completed')).filter((l) => l.id === log.id)).toHaveLength(1);
  });

  it('the collection refuses an older copy of a log over a newer one as a conflict (the storage guard itself)', async () => {
    const [newest] = await logsWithStatus('completed');
    const stored = await open.db.tasks.storageInstance.findDocumentsById([newest!.id], false);
    const previous = stored[0]!;
    const older = { ...previous, updated_at: '2000-01-01T00:00:00.000000Z', status: 'current' as const, _rev: `${Number(previous._rev.split('-')[0]) + 1}-older` };
    const result = await open.db.tasks.storageInstance.bulkWrite([{ previous, document: older }], 'test');
    expect(result.error.map((e) => e.status)).toEqual([409]);
    expect(await tasksDoc(newest!.id)).toMatchObject({ status: 'completed', updated_at: newest!.updated_at });
  });

  it('a comment written offline is pending, then delivered once with its client id, then settled: never shown twice, never gone', async () => {
    const log = await newObjective(`${TAG} offline comment`);
    await pullTasks();
    const watch = watchThread(log.id);
    const text = `${TAG} written on the bus`;

    online = false;
    const picture = new File([new Uint8Array(pngImage(6, 6, [30, 160, 90]))], 'bus.png', { type: 'image/png' });
    const result = await postTaskComment(log.id, { comment: text, files: [picture] });
    expect(result).toMatchObject({ ok: true, queuedOffline: true });
    const id = result.ok ? result.id : '';
    expect(await tasksDoc(id)).toMatchObject({ kind: 'comment', task_log_id: log.id, comment: text, sync_state: 'pending', local_only: true });
    const localFile = ((await tasksDoc(id)) as TaskCommentOverlayDoc).files[0]!;
    expect(await open.db.files.findOne(`local:${localFile.id}`).exec()).toBeTruthy();
    expect(await serverComments(text)).toEqual([]);

    // Every state the overlay passes through while it is delivered and settled.
    const states: string[] = [];
    const watching = open.db.tasks.findOne(id).$.subscribe((doc) => {
      const d = doc?.toJSON() as TaskCommentOverlayDoc | undefined;
      states.push(`${d?.sync_state} local_only=${d?.local_only} file=${d?.files[0]?.id === localFile.id ? 'local' : 'server'}`);
    });
    online = true;
    flushOutboxNowOnline();
    expect((await waitForOutboxToDrain(WAIT_MS)).drained).toBe(true);
    await eventually(async () => ((await tasksDoc(id)) as TaskCommentOverlayDoc | null)?.sync_state === 'synced', WAIT_MS, 'the settled comment');
    watching.unsubscribe();
    // Settled in one write: never "synced" with this device's file id or still marked as not on the server.
    expect(states).toContain('synced local_only=false file=server');
    expect(states.filter((state) => state.startsWith('synced'))).toEqual(['synced local_only=false file=server']);
    const settled = (await tasksDoc(id)) as TaskCommentOverlayDoc;
    expect(settled).toMatchObject({ local_only: false, creator: { id: account.user.id } });
    // The photo moved to the server's file id: viewable offline without a download.
    expect(settled.files).toHaveLength(1);
    expect(settled.files[0]!.id).not.toBe(localFile.id);
    expect((await open.db.files.findOne(`file:task_comment:${settled.files[0]!.id}`).exec())?.get('data')).toBeTruthy();
    expect(await open.db.files.findOne(`local:${localFile.id}`).exec()).toBeNull();
    // Delivered once, under the id the device gave it.
    expect((await serverComments(text)).map((c) => c.id)).toEqual([id]);
    expect(sync.requests.filter((r) => r.method === 'POST' && r.url.pathname.endsWith('/tasks/logs/comments')).filter((r) => r.status === 201).length).toBeGreaterThanOrEqual(1);

    await pullTasks();
    const pulled = (await tasksDoc(log.id)) as TaskLogDoc;
    expect(pulled.comments.map((c) => c.id)).toContain(id);
    // Once the log carries it, the overlay is not needed any more.
    await eventually(async () => !(await tasksDoc(id)), WAIT_MS, 'the overlay pruned');
    watch.stop();

    const appeared = watch.snapshots.findIndex((thread) => thread.some((c) => c.id === id));
    expect(appeared).toBeGreaterThanOrEqual(0);
    for (const thread of watch.snapshots.slice(appeared)) {
      expect(thread.filter((c) => c.id === id)).toHaveLength(1);
      expect(new Set(thread.map((c) => c.id)).size).toBe(thread.length);
    }
    expect(watch.snapshots.at(-1)![0]).toMatchObject({ id, comment: text, sync_state: 'synced' });
  });

  it('a write the server refuses (422) is failed with its message, and its text is kept', async () => {
    const log = await newObjective(`${TAG} refused`);
    await complete(log.id);
    await pullTasks();
    // Reviewed elsewhere (another device) after this one last pulled: this device does not know.
    const elsewhere = await postForm(sync.server.base, jamie, '/api/v1/tasks/logs/comments', [['task_log_id', log.id], ['comment', 'From my phone'], ['is_review', '1']]);
    expect(elsewhere.status).toBe(201);

    const text = `${TAG} my review`;
    const result = await reviewTaskLog(log.id, { comment: text, photos: [] });
    expect(result.ok).toBe(true);
    const id = result.ok ? result.id : '';
    await eventually(async () => (await tasksDoc(id))?.sync_state === 'failed', WAIT_MS, 'the refusal');
    expect(await tasksDoc(id)).toMatchObject({ comment: text, is_review: true, sync_message: taskMessages.reviewTwice });
    expect(await serverComments(text)).toEqual([]);
    // It stays on the device after the next pull, failed, to be changed or sent again.
    await pullTasks();
    expect(await tasksDoc(id)).toMatchObject({ comment: text, sync_state: 'failed' });
    expect((await refreshCounts()).failed).toBe(1);
    // Or discarded (issue 12): it leaves the device and the queue, so sign-out no longer counts it.
    expect(await discardTaskComment(id)).toEqual({ ok: true });
    expect(await tasksDoc(id)).toBeUndefined();
    expect(await refreshCounts()).toMatchObject({ pending: 0, failed: 0 });
  });

  it('a review queued offline: one review and one +20 on the server, the ledger replicates, pending 20 → 0 as the balance goes +20, never both', async () => {
    const log = await newObjective(`${TAG} review offline`);
    await complete(log.id);
    await pullTasks();
    const fallback = account.user.resident!.reward_points;
    const ledgerBefore = await sync.server.db.selectFrom('points_ledger').select(['delta']).where('resident_id', '=', residentId()).execute();
    const before = ledgerBefore.reduce((sum, row) => sum + row.delta, 0);

    const seen: PointsSummary[] = [];
    const subscription = pointsSources$(open.db).subscribe(({ ledger, overlays }) => {
      const summary = pointsSummary(ledger as PointsDoc[], overlays, fallback);
      if (summary) seen.push(summary);
    });
    await eventually(() => seen.length > 0, WAIT_MS, 'the first summary');
    expect(seen.at(-1)).toEqual({ balance: before, pending: 0, spending: 0 });

    online = false;
    const text = `${TAG} it went well`;
    const result = await reviewTaskLog(log.id, { comment: text, photos: [] });
    expect(result).toMatchObject({ ok: true, queuedOffline: true });
    const id = result.ok ? result.id : '';
    await eventually(() => seen.at(-1)?.pending === REVIEW_POINTS, WAIT_MS, 'the pending points');
    const queuedAt = seen.length - 1;
    expect(seen[queuedAt]).toEqual({ balance: before, pending: REVIEW_POINTS, spending: 0 });

    online = true;
    flushOutboxNowOnline();
    expect((await waitForOutboxToDrain(WAIT_MS)).drained).toBe(true);
    await eventually(async () => (await tasksDoc(id))?.sync_state === 'synced', WAIT_MS, 'the delivered review');
    await pullTasks();
    await eventually(() => seen.at(-1)?.pending === 0, WAIT_MS, 'the ledger entry');
    subscription.unsubscribe();

    expect(seen.at(-1)).toEqual({ balance: before + REVIEW_POINTS, pending: 0, spending: 0 });
    // At every moment since it was queued, the 20 points were counted exactly once.
    for (const summary of seen.slice(queuedAt)) expect(summary.balance + summary.pending).toBe(before + REVIEW_POINTS);
    // The server: one review under the device's id, one +20.
    expect((await serverComments(text)).map((c) => [c.id, c.is_review])).toEqual([[id, true]]);
    const awards = await sync.server.db.selectFrom('points_ledger').selectAll().where('reason', '=', 'task_log_review').where('source_id', '=', log.id).execute();
    expect(awards.map((a) => a.delta)).toEqual([REVIEW_POINTS]);
    expect(((await tasksDoc(log.id)) as TaskLogDoc).reviewed).toBe(true);
  });

  it('a tab whose list fails before it ever arrived is marked failed (the fetch-failed message), the other tab is not', async () => {
    await closeReplica();
    failing = '/tasks/incomplete';
    open = await openReplicaForAccount(account, uniqueName('site'), replica);
    await eventually(() => replicationStatus.get().pulls.get('tasks:current')?.failed === true, WAIT_MS, 'the failed tab');
    await eventually(() => replicationStatus.get().pulls.get('tasks:completed')?.caughtUp === true, WAIT_MS, 'the other tab');
    expect(replicationStatus.get().pulls.get('tasks:current')).toMatchObject({ failed: true, caughtUp: false, firstPullPending: false });
    await eventually(async () => (await logsWithStatus('completed')).length > 0, WAIT_MS, 'the completed tab written');
    expect(await logsWithStatus('current')).toEqual([]);

    failing = null;
    getReplication()!.reSync(['tasks']);
    await eventually(() => replicationStatus.get().pulls.get('tasks:current')?.caughtUp === true, WAIT_MS, 'the tab once the network is back');
    expect(replicationStatus.get().pulls.get('tasks:current')?.failed).toBe(false);
    await eventually(async () => (await logsWithStatus('current')).length > 0, WAIT_MS, 'the current tab written');
  });

  it('drafts (kind draft in the encrypted files collection) survive closing and reopening the replica and are wiped at sign-out', async () => {
    const key = `review:${TAG}`;
    const value = { answers: { how_it_went: 'Half written' }, files: [] };
    expect(await saveDraft(key, value)).toBe(true);
    expect(await readDraft(key)).toEqual(value);

    await closeReplica();
    open = await openReplicaForAccount(account, site, { ...replica, replicate: false });
    expect(await readDraft(key)).toEqual(value);
    expect((await open.db.files.findOne(`draft:${key}`).exec())?.toJSON()).toMatchObject({ kind: 'draft', content_type: 'application/json' });

    await deleteDraft(key);
    expect(await readDraft(key)).toBeNull();
    expect(await saveDraft(key, value)).toBe(true);

    await wipeReplica(undefined, replica);
    open = await openReplicaForAccount(account, site, { ...replica, replicate: false });
    expect(await readDraft(key)).toBeNull();
  });
});
