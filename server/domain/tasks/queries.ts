import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Task, TaskComment, TaskLog, TaskLogStatus } from '../../../src/contract/tasks';
import { taskMessages } from '../../../src/contract/tasks';
import { HttpError } from '../../lib/http-errors';
import { syncSelect, type ListSpec } from '../../lib/list-query';
import { isoMicros, isoMicrosOrNull } from '../../lib/timestamps';
import type { SignedIn } from '../../plugins/session';
import { taskReadable } from '../access';
import { filesOf, personOf } from '../entries/present';

/**
 * Reads of objectives: task logs (the lists and GET /v1/tasks/{id}/logs/latest), tasks and task-log
 * comments, always under the one access rule (access.ts taskReadable): anything else is a 404.
 */

const log = (c: string) => sql.ref(`log.${c}`);
const task = (c: string) => sql.ref(`task.${c}`);

/**
 * GET /v1/projects/residents/{id}/tasks/complete and .../incomplete. A row is a task log; default
 * order newest task date first (SPEC §4), then newest log. Checkpoint mode walks (log.updated_at,
 * log.id); every change to a log's task, answers or comments moves log.updated_at. A log whose task
 * is deleted is a tombstone (with_trashed=1).
 */
export const TASK_LOG_SPEC: ListSpec = {
  fields: {
    task_date: { expr: task('task_date'), type: 'date' },
    'task.task_date': { expr: task('task_date'), type: 'date' },
    form_id: { expr: task('form_id'), type: 'uuid' },
    task_id: { expr: log('task_id'), type: 'uuid' },
    created_at: { expr: log('created_at'), type: 'timestamp' },
    completed_at: { expr: log('completed_at'), type: 'timestamp' },
  },
  sorts: {
    task_date: [task('task_date'), log('created_at')],
    'task.task_date': [task('task_date'), log('created_at')],
    created_at: log('created_at'),
    completed_at: log('completed_at'),
  },
  defaultSort: [['task.task_date', 'desc']],
  relations: ['task', 'task.form', 'form', 'comments', 'comments.creator', 'comments.files'],
  updatedAt: log('updated_at'),
  id: log('id'),
  deletedAt: sql`coalesce(log.deleted_at, task.deleted_at)`,
};

/** Task logs the signed-in person may read, with their task and form (tombstones included: see TASK_LOG_SPEC). */
export function taskLogsQuery(app: FastifyInstance, auth: SignedIn) {
  return app.db
    .selectFrom('task_logs as log')
    .innerJoin('tasks as task', 'task.id', 'log.task_id')
    .innerJoin('forms as form', 'form.id', 'task.form_id')
    .innerJoin('form_versions as fv', 'fv.id', 'log.form_version_id')
    .select([
      ...syncSelect(TASK_LOG_SPEC),
      'log.task_id',
      'log.status',
      'log.answers',
      isoMicrosOrNull(log('completed_at')).as('completed_at'),
      isoMicros(log('created_at')).as('created_at'),
      'task.resident_id',
      'task.title',
      'task.description',
      sql<string>`to_char(task.task_date, 'YYYY-MM-DD')`.as('task_date'),
      'form.id as form_id',
      'form.name as form_name',
      'form.description as form_description',
      'fv.id as form_version_id',
      'fv.version as form_version',
      'fv.fields as form_fields',
      sql<boolean>`exists (select 1 from task_log_comments rc where rc.task_log_id = log.id and rc.is_review and rc.deleted_at is null)`.as('reviewed'),
    ])
    .where('log.tenant_id', '=', auth.tenantId)
    .where(taskReadable(auth));
}

export type TaskLogRow = Awaited<ReturnType<ReturnType<typeof taskLogsQuery>['execute']>>[number];

/** The logs of one resident in one tab (current: incomplete, completed: complete). */
export const residentLogsQuery = (app: FastifyInstance, auth: SignedIn, residentId: string, status: TaskLogStatus) =>
  taskLogsQuery(app, auth).where('task.resident_id', '=', residentId).where('log.status', '=', status);

function commentRows(app: FastifyInstance, auth: SignedIn) {
  return app.db
    .selectFrom('task_log_comments as c')
    .innerJoin('task_logs as log', 'log.id', 'c.task_log_id')
    .innerJoin('tasks as task', 'task.id', 'log.task_id')
    .innerJoin('users as creator', 'creator.id', 'c.creator_id')
    .leftJoin('user_photos as creator_photo', (join) => join.onRef('creator_photo.user_id', '=', 'creator.id').on('creator_photo.deleted_at', 'is', null))
    .select([
      sql<string>`c.id`.as('id'),
      isoMicros(sql.ref('c.updated_at')).as('updated_at'),
      isoMicrosOrNull(sql.ref('c.deleted_at')).as('deleted_at'),
      'c.task_log_id',
      'c.comment',
      'c.is_review',
      isoMicros(sql.ref('c.created_at')).as('created_at'),
      isoMicrosOrNull(sql.ref('c.edited_at')).as('edited_at'),
      'creator.id as creator_id',
      'creator.first_name as creator_first_name',
      'creator.last_name as creator_last_name',
      sql<boolean>`creator_photo.id is not null`.as('creator_has_photo'),
    ])
    .where('c.tenant_id', '=', auth.tenantId)
    .where('log.deleted_at', 'is', null)
    .where('task.deleted_at', 'is', null)
    .where(taskReadable(auth));
}

type CommentRow = Awaited<ReturnType<ReturnType<typeof commentRows>['execute']>>[number];

async function presentComments(app: FastifyInstance, auth: SignedIn, rows: CommentRow[]): Promise<TaskComment[]> {
  const files = await filesOf(app.db, auth.tenantId, 'task_comment', rows.map((r) => r.id));
  return rows.map((r) => ({
    id: r.id,
    updated_at: r.updated_at,
    deleted_at: r.deleted_at,
    task_log_id: r.task_log_id,
    comment: r.comment,
    is_review: r.is_review,
    created_at: r.created_at,
    edited_at: r.edited_at,
    creator: personOf(r),
    files: files.get(r.id)!.files,
  }));
}

/** GET /v1/tasks/logs/comments/{id}: a live comment on a log the signed-in person may read, else 404 "Comment not found". */
export async function showTaskComment(app: FastifyInstance, auth: SignedIn, id: string): Promise<TaskComment> {
  const row = await commentRows(app, auth).where('c.id', '=', id).where('c.deleted_at', 'is', null).executeTakeFirst();
  if (!row) throw new HttpError(404, taskMessages.commentNotFound);
  const [comment] = await presentComments(app, auth, [row]);
  return comment!;
}

/** The logs as the contract's TaskLog, each with its live comments newest first (SPEC §4). */
export async function presentTaskLogs(app: FastifyInstance, auth: SignedIn, rows: TaskLogRow[]): Promise<TaskLog[]> {
  const ids = rows.filter((r) => !r.deleted_at).map((r) => r.id);
  const commentList = ids.length === 0 ? [] : await commentRows(app, auth).where('c.task_log_id', 'in', ids).where('c.deleted_at', 'is', null).orderBy('c.created_at', 'desc').orderBy('c.id', 'desc').execute();
  const comments = await presentComments(app, auth, commentList);
  const byLog = new Map<string, TaskComment[]>(ids.map((id) => [id, []]));
  for (const c of comments) byLog.get(c.task_log_id)!.push(c);
  return rows.map((r) => (r.deleted_at ? taskLogTombstone(r) : {
    id: r.id,
    updated_at: r.updated_at,
    deleted_at: r.deleted_at,
    task_id: r.task_id,
    resident_id: r.resident_id,
    status: r.status,
    answers: r.answers,
    completed_at: r.completed_at,
    reviewed: r.reviewed,
    task: {
      id: r.task_id,
      title: r.title,
      description: r.description,
      task_date: r.task_date,
      form: { id: r.form_id, name: r.form_name, description: r.form_description },
    },
    form_version: { id: r.form_version_id, version: r.form_version, fields: r.form_fields },
    comments: byLog.get(r.id)!,
    created_at: r.created_at,
  }));
}

/**
 * A deleted log (or a log of a deleted task) as replicas receive it: which row went and when, and
 * nothing staff or the young person wrote in it (title, answers, comments), as entries' tombstones.
 */
export function taskLogTombstone(r: TaskLogRow): TaskLog {
  return {
    id: r.id,
    updated_at: r.updated_at,
    deleted_at: r.deleted_at,
    task_id: r.task_id,
    resident_id: r.resident_id,
    status: r.status,
    answers: {},
    completed_at: null,
    reviewed: false,
    task: { id: r.task_id, title: '', description: null, task_date: r.task_date, form: { id: r.form_id, name: '', description: null } },
    form_version: { id: r.form_version_id, version: 0, fields: [] },
    comments: [],
    created_at: r.created_at,
  };
}

/** One live task log, or 404 "Objective not found". */
export async function showTaskLog(app: FastifyInstance, auth: SignedIn, id: string): Promise<TaskLog> {
  const row = await taskLogsQuery(app, auth).where('log.id', '=', id).where('log.deleted_at', 'is', null).where('task.deleted_at', 'is', null).executeTakeFirst();
  if (!row) throw new HttpError(404, taskMessages.objectiveNotFound);
  const [shown] = await presentTaskLogs(app, auth, [row]);
  return shown!;
}

/** GET /v1/tasks/{id}/logs/latest: the task's newest live log. */
export async function latestTaskLog(app: FastifyInstance, auth: SignedIn, taskId: string): Promise<TaskLog> {
  const row = await taskLogsQuery(app, auth)
    .where('log.task_id', '=', taskId)
    .where('log.deleted_at', 'is', null)
    .where('task.deleted_at', 'is', null)
    .orderBy('log.created_at', 'desc')
    .orderBy('log.id', 'desc')
    .executeTakeFirst();
  if (!row) throw new HttpError(404, taskMessages.objectiveNotFound);
  const [shown] = await presentTaskLogs(app, auth, [row]);
  return shown!;
}

/** GET /v1/tasks/{id}: a live task the signed-in person may read, else 404 "Objective not found". */
export async function showTask(app: FastifyInstance, auth: SignedIn, id: string): Promise<Task> {
  const row = await app.db
    .selectFrom('tasks as task')
    .innerJoin('forms as form', 'form.id', 'task.form_id')
    .innerJoin('users as creator', 'creator.id', 'task.creator_id')
    .leftJoin('user_photos as creator_photo', (join) => join.onRef('creator_photo.user_id', '=', 'creator.id').on('creator_photo.deleted_at', 'is', null))
    .select([
      sql<string>`task.id`.as('id'),
      isoMicros(task('updated_at')).as('updated_at'),
      isoMicrosOrNull(task('deleted_at')).as('deleted_at'),
      'task.resident_id',
      'task.title',
      'task.description',
      sql<string>`to_char(task.task_date, 'YYYY-MM-DD')`.as('task_date'),
      isoMicros(task('created_at')).as('created_at'),
      'form.id as form_id',
      'form.name as form_name',
      'form.description as form_description',
      'creator.id as creator_id',
      'creator.first_name as creator_first_name',
      'creator.last_name as creator_last_name',
      sql<boolean>`creator_photo.id is not null`.as('creator_has_photo'),
      sql<string | null>`(select l.id from task_logs l where l.task_id = task.id and l.deleted_at is null order by l.created_at desc, l.id desc limit 1)`.as('latest_log_id'),
    ])
    .where('task.tenant_id', '=', auth.tenantId)
    .where('task.id', '=', id)
    .where('task.deleted_at', 'is', null)
    .where(taskReadable(auth))
    .executeTakeFirst();
  if (!row) throw new HttpError(404, taskMessages.objectiveNotFound);
  return {
    id: row.id,
    updated_at: row.updated_at,
    deleted_at: row.deleted_at,
    resident_id: row.resident_id,
    title: row.title,
    description: row.description,
    task_date: row.task_date,
    form: { id: row.form_id, name: row.form_name, description: row.form_description },
    creator: personOf(row),
    latest_log_id: row.latest_log_id,
    created_at: row.created_at,
  };
}

/**
 * Files of objectives (GET /v1/files/view, modules task_comment and task_log): readable when the
 * owning comment's or log's objective is (taskReadable).
 */
export async function taskFileReadable(app: FastifyInstance, auth: SignedIn, module: 'task_comment' | 'task_log', ownerId: string): Promise<boolean> {
  let logId = ownerId;
  if (module === 'task_comment') {
    const comment = await app.db
      .selectFrom('task_log_comments')
      .select('task_log_id')
      .where('tenant_id', '=', auth.tenantId)
      .where('id', '=', ownerId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!comment) return false;
    logId = comment.task_log_id;
  }
  const readable = await app.db
    .selectFrom('task_logs as log')
    .innerJoin('tasks as task', 'task.id', 'log.task_id')
    .select('log.id')
    .where('log.tenant_id', '=', auth.tenantId)
    .where('log.id', '=', logId)
    .where('log.deleted_at', 'is', null)
    .where('task.deleted_at', 'is', null)
    .where(taskReadable(auth))
    .executeTakeFirst();
  return readable !== undefined;
}
