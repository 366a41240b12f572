import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Transaction } from 'kysely';
import { entryLimits, entryMessages } from '../../../src/contract/entries';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import { answersSchemaFor, fileAnswerSchema, formMessages, ownAnswers, readFields, type FormField } from '../../../src/contract/forms';
import { changedPushMessage, pushUrls } from '../../../src/contract/push';
import {
  REVIEW_POINTS, staffLogUpdateSchema, staffTaskCreateSchema, taskCommentCreateSchema, taskCommentUpdateSchema, taskMessages,
  type TaskComment, type TaskLog,
} from '../../../src/contract/tasks';
import type { Database } from '../../db/schema';
import { allowedFileType } from '../../../src/contract/file-type';
import { HttpError } from '../../lib/http-errors';
import { laterStamp } from '../../lib/timestamps';
import { uuidv7 } from '../../lib/uuidv7';
import { fieldErrors } from '../../lib/validate';
import type { SignedIn } from '../../plugins/session';
import { staffReachableResident, taskReadable } from '../access';
import { clientIdOf, createdBefore, isUniqueViolation, residentSensitivity } from '../entries/writes';
import { checkImages, checkUploads, isImageMime, Problems, sanitiseName, storeFiles, type CheckedFile } from '../uploads/checks';
import { listField, uploadedFiles } from '../uploads/form-fields';
import { removeRetiredBytes, retireFiles, type RetiredFile } from '../uploads/retire';
import { latestFormVersion } from './forms';
import { appendPoints } from './points';
import { latestTaskLog, showTaskComment, showTaskLog } from './queries';

/**
 * Writes of objectives. A young person comments on their own logs and reviews a completed one
 * (once: +REVIEW_POINTS in the same transaction); staff of their home set objectives, fill and
 * complete logs and comment. Every write moves the log's updated_at (the lists replicate logs),
 * publishes `tasks` (and `points`, `resident` when points moved) and, for staff writes, sends the
 * young person a content-free push.
 */

type Body = Record<string, unknown>;
const bodyOf = (request: FastifyRequest): Body => (request.body && typeof request.body === 'object' ? (request.body as Body) : {});

interface LockedLog {
  id: string;
  status: 'current' | 'completed';
  resident_id: string;
  home_id: string;
  resident_user_id: string;
  form_version_id: string;
  answers: Record<string, unknown>;
}

/** The live log under the access rule; `lock` takes a row lock (for update) inside a transaction. */
async function loadLog(db: FastifyInstance['db'] | Transaction<Database>, auth: SignedIn, logId: string, lock: boolean): Promise<LockedLog> {
  let query = db
    .selectFrom('task_logs as log')
    .innerJoin('tasks as task', 'task.id', 'log.task_id')
    .innerJoin('residents', 'residents.id', 'task.resident_id')
    .select(['log.id', 'log.status', 'log.form_version_id', 'log.answers', 'task.resident_id', 'residents.home_id', 'residents.user_id as resident_user_id'])
    .where('log.tenant_id', '=', auth.tenantId)
    .where('log.id', '=', logId)
    .where('log.deleted_at', 'is', null)
    .where('task.deleted_at', 'is', null)
    .where('residents.deleted_at', 'is', null)
    .where(taskReadable(auth));
  if (lock) query = query.forUpdate('log');
  const row = await query.executeTakeFirst();
  if (!row) throw new HttpError(404, taskMessages.objectiveNotFound);
  return row;
}

const touchLog = (tx: Transaction<Database>, logId: string) => tx.updateTable('task_logs').set({ updated_at: laterStamp('task_logs.updated_at') }).where('id', '=', logId).execute();

/** The young person's push when staff set, fill or comment on an objective: pull `tasks`, open the objective. */
const tasksPush = (app: FastifyInstance, logId: string) => changedPushMessage({ collections: ['tasks'], url: pushUrls.objective(logId) }, app.config.productName);

function announce(app: FastifyInstance, auth: SignedIn, log: LockedLog, topics: ('tasks' | 'points' | 'resident')[]) {
  app.notifier.publish({ tenantId: auth.tenantId, homeId: log.home_id, residentId: log.resident_id }, topics);
  if (log.resident_user_id !== auth.userId) app.push.toUser({ tenantId: auth.tenantId, userId: log.resident_user_id }, tasksPush(app, log.id));
}

/** 422 unless at most maxFiles attachments; the checked files otherwise. */
function commentUploads(request: FastifyRequest, problems: Problems) {
  const uploads = checkUploads(request, problems, { canvas: false });
  if (uploads.attachmentCount > entryLimits.maxFiles) problems.add('files', entryMessages.tooManyFiles);
  return uploads.attachments;
}

/**
 * POST /v1/tasks/logs/comments. The client's `id` is checked first (entries' rules: the same
 * person's comment under it is this create sent again, answered as it is; any other row is 422
 * `id`). A review (`is_review`) is the young person's own, on a completed log, once per log: the
 * comment and the ledger's +REVIEW_POINTS are one transaction that holds the log's row lock, and
 * the partial unique index and unique (reason, source_id) stop a second one whatever the timing.
 */
export async function createTaskComment(app: FastifyInstance, auth: SignedIn, request: FastifyRequest): Promise<TaskComment> {
  const body = bodyOf(request);
  const clientId = clientIdOf(body);
  const again = () => (clientId ? createdBefore(app.db, auth, 'task_log_comments', clientId, () => showTaskComment(app, auth, clientId)) : Promise.resolve(null));
  const before = await again();
  if (before) return before;

  const problems = new Problems();
  const parsed = taskCommentCreateSchema.safeParse(body);
  if (!parsed.success) problems.merge(fieldErrors(parsed.error));
  const files = commentUploads(request, problems);
  problems.throwIfAny();
  const input = parsed.data!;

  const log = await loadLog(app.db, auth, input.task_log_id, false);
  const byResident = log.resident_user_id === auth.userId;
  if (input.is_review) {
    if (!byResident) problems.add('is_review', taskMessages.reviewOnlyYoungPerson);
    else if (log.status !== 'completed') problems.add('is_review', taskMessages.reviewNotCompleted);
    problems.throwIfAny();
  }
  await checkImages(app, files, await residentSensitivity(app.db, log.resident_id), problems);
  problems.throwIfAny();

  const id = clientId ?? uuidv7();
  const stored = await storeFiles(app, auth.tenantId, files);
  let awarded = false;
  let replayed: TaskComment | null = null;
  try {
    await app.db.transaction().execute(async (tx) => {
      const locked = await loadLog(tx, auth, log.id, true);
      // A concurrent copy of this create may have committed while we waited for the lock.
      if (clientId && (await tx.selectFrom('task_log_comments').select('id').where('id', '=', clientId).executeTakeFirst())) {
        replayed = await again();
        if (replayed) return;
      }
      if (input.is_review) {
        const reviewed = await tx.selectFrom('task_log_comments').select('id').where('task_log_id', '=', locked.id).where('is_review', '=', true).where('deleted_at', 'is', null).executeTakeFirst();
        if (reviewed) throw new HttpError(422, taskMessages.reviewTwice, { is_review: [taskMessages.reviewTwice] });
      }
      await tx
        .insertInto('task_log_comments')
        .values({ id, tenant_id: auth.tenantId, task_log_id: locked.id, creator_id: auth.userId, comment: input.comment, is_review: input.is_review })
        .execute();
      const rows = stored.rows('task_comment', id);
      if (rows.length > 0) await tx.insertInto('entry_files').values(rows).execute();
      await touchLog(tx, locked.id);
      if (input.is_review) {
        awarded = await appendPoints(tx, { tenantId: auth.tenantId, residentId: locked.resident_id, delta: REVIEW_POINTS, reason: 'task_log_review', sourceId: locked.id });
      }
    });
  } catch (error) {
    await stored.cleanup();
    if (isUniqueViolation(error)) {
      // Lost a race for the client id or for the log's one review: answer as the winner's copy, or 422.
      const created = await again();
      if (created) return created;
      if (input.is_review) throw new HttpError(422, taskMessages.reviewTwice, { is_review: [taskMessages.reviewTwice] });
    }
    throw error;
  }
  if (replayed) {
    await stored.cleanup();
    return replayed;
  }
  announce(app, auth, log, awarded ? ['tasks', 'points', 'resident'] : ['tasks']);
  return showTaskComment(app, auth, id);
}

/**
 * POST /v1/tasks/logs/comments/{id} with `_method=PUT`: the creator changes the text, drops
 * `remove_files[]`, adds `files[]`. Anyone else, or a comment they cannot read: 404 "Comment not
 * found". A review stays a review (and a comment a comment): `is_review` may be sent unchanged only.
 */
export async function updateTaskComment(app: FastifyInstance, auth: SignedIn, id: string, request: FastifyRequest): Promise<TaskComment> {
  const body = bodyOf(request);
  const found = await app.db
    .selectFrom('task_log_comments as c')
    .select(['c.id', 'c.task_log_id', 'c.is_review', 'c.comment'])
    .where('c.tenant_id', '=', auth.tenantId)
    .where('c.id', '=', id)
    .where('c.creator_id', '=', auth.userId)
    .where('c.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!found) throw new HttpError(404, taskMessages.commentNotFound);
  const log = await loadLog(app.db, auth, found.task_log_id, false).catch((error: unknown) => {
    // The objective is gone or out of reach: so is its comment.
    throw error instanceof HttpError && error.statusCode === 404 ? new HttpError(404, taskMessages.commentNotFound) : error;
  });
  const problems = new Problems();
  // The contract checks the text as sent: an object, a list, null or a boolean is a 422, never its String().
  const parsed = taskCommentUpdateSchema.safeParse({ comment: body.comment, remove_files: listField(body, 'remove_files') });
  if (!parsed.success) problems.merge(fieldErrors(parsed.error));
  if (body.is_review !== undefined) {
    const asked = body.is_review === true || body.is_review === '1' || body.is_review === 'true';
    if (asked !== found.is_review) problems.add('is_review', taskMessages.reviewFixed);
  }
  const removeIds = new Set(parsed.success ? parsed.data.remove_files : []);
  /** The comment's live files, and the problems of this edit against them (unknown remove_files[], more than maxFiles). */
  const filesNow = async (db: FastifyInstance['db'] | Transaction<Database>, into: Problems, uploaded: number) => {
    const existing = await db
      .selectFrom('entry_files')
      .select(['id', 'storage_key'])
      .where('tenant_id', '=', auth.tenantId)
      .where('entry_type', '=', 'task_comment')
      .where('entry_id', '=', found.id)
      .where('deleted_at', 'is', null)
      .execute();
    for (const fid of removeIds) if (!existing.some((f) => f.id === fid)) into.add('remove_files', 'That file is not on this comment');
    if (existing.filter((f) => !removeIds.has(f.id)).length + uploaded > entryLimits.maxFiles) into.add('files', entryMessages.tooManyFiles);
    return existing;
  };
  const uploads = checkUploads(request, problems, { canvas: false });
  await filesNow(app.db, problems, uploads.attachmentCount);
  const files = uploads.attachments;
  problems.throwIfAny();
  await checkImages(app, files, await residentSensitivity(app.db, log.resident_id), problems);
  problems.throwIfAny();

  const comment = parsed.data!.comment ?? found.comment;
  const stored = await storeFiles(app, auth.tenantId, files);
  let dropped: RetiredFile[] = [];
  await app.db
    .transaction()
    .execute(async (tx) => {
      // Concurrent edits of one comment take turns (the row lock) and each counts the files again
      // under it: the check above ran before the lock, so it can be stale (at most maxFiles live).
      const locked = await tx.selectFrom('task_log_comments').select('id').where('id', '=', found.id).where('deleted_at', 'is', null).forUpdate().executeTakeFirst();
      if (!locked) throw new HttpError(404, taskMessages.commentNotFound);
      const again = new Problems();
      const existing = await filesNow(tx, again, files.length);
      again.throwIfAny();
      dropped = existing.filter((f) => removeIds.has(f.id));
      await tx.updateTable('task_log_comments').set({ comment, edited_at: sql`now()`, updated_at: sql`now()` }).where('id', '=', found.id).execute();
      const rows = stored.rows('task_comment', found.id);
      if (rows.length > 0) await tx.insertInto('entry_files').values(rows).execute();
      await retireFiles(tx, dropped);
      await touchLog(tx, found.task_log_id);
    })
    .catch(async (error: unknown) => {
      await stored.cleanup();
      throw error;
    });
  await removeRetiredBytes(app, auth.tenantId, dropped);
  announce(app, auth, log, ['tasks']);
  return showTaskComment(app, auth, found.id);
}

/**
 * Staff: POST /v1/projects/residents/{id}/tasks makes an objective (a task from a form's newest
 * version, and its current log). The client's `id` names the task (a create sent again answers
 * the task's latest log as it is).
 */
export async function createTask(app: FastifyInstance, auth: SignedIn, residentId: string, request: FastifyRequest): Promise<TaskLog> {
  const resident = await staffReachableResident(app, auth, residentId);
  const body = bodyOf(request);
  const clientId = clientIdOf(body);
  const again = () => (clientId ? createdBefore(app.db, auth, 'tasks', clientId, () => latestTaskLog(app, auth, clientId)) : Promise.resolve(null));
  const before = await again();
  if (before) return before;
  const problems = new Problems();
  const parsed = staffTaskCreateSchema.safeParse(body);
  if (!parsed.success) problems.merge(fieldErrors(parsed.error));
  problems.throwIfAny();
  const input = parsed.data!;
  const version = await latestFormVersion(app.db, auth.tenantId, input.form_id);
  if (!version) throw new HttpError(422, chosen.validationFailed, { form_id: [taskMessages.formRequired] });
  let logId: string;
  try {
    logId = await app.db.transaction().execute(async (tx) => {
      const taskRow = await tx
        .insertInto('tasks')
        .values({
          ...(clientId ? { id: clientId } : {}),
          tenant_id: auth.tenantId,
          resident_id: resident.id,
          form_id: input.form_id,
          creator_id: auth.userId,
          title: input.title,
          description: input.description || null,
          task_date: input.task_date,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const logRow = await tx
        .insertInto('task_logs')
        .values({ tenant_id: auth.tenantId, task_id: taskRow.id, form_version_id: version.id, answers: '{}' })
        .returning('id')
        .executeTakeFirstOrThrow();
      return logRow.id;
    });
  } catch (error) {
    if (clientId && isUniqueViolation(error)) {
      const created = await again();
      if (created) return created;
    }
    throw error;
  }
  app.notifier.publish({ tenantId: auth.tenantId, homeId: resident.home_id, residentId: resident.id }, ['tasks']);
  app.push.toUser({ tenantId: auth.tenantId, userId: resident.user_id }, tasksPush(app, logId));
  return showTaskLog(app, auth, logId);
}

const ANSWER_FILE = /^files\[([a-z][a-z0-9_]{0,62})\](\[\d*\])?$/;
const FILE_KINDS = new Set(['image', 'signature', 'embedded_files']);

/**
 * Staff: POST /v1/tasks/logs/{id} with `_method=PUT` fills the log: `answers` merged over the saved
 * ones (null clears), file answers as parts `files[<field id>]` (image and signature: one image;
 * embedded files: added to the list), `status=completed` completes it (every required answer then
 * needed). A completed log no longer changes (422 status). Field errors are `answers.<field id>`.
 * A file of the log that no answer names any more (replaced, cleared, left out) is retired.
 */
export async function updateTaskLog(app: FastifyInstance, auth: SignedIn, logId: string, request: FastifyRequest): Promise<TaskLog> {
  const first = await loadLog(app.db, auth, logId, false);
  await staffReachableResident(app, auth, first.resident_id);
  const body = bodyOf(request);
  const problems = new Problems();
  const parsed = staffLogUpdateSchema.safeParse({ answers: body.answers, status: body.status });
  if (!parsed.success) problems.merge(fieldErrors(parsed.error));
  if (first.status === 'completed') problems.add('status', taskMessages.alreadyCompleted);
  problems.throwIfAny();
  const input = parsed.data!;

  const versionRow = await app.db.selectFrom('form_versions').select('fields').where('id', '=', first.form_version_id).executeTakeFirstOrThrow();
  const fields = readFields(versionRow.fields).flatMap((f) => (f.ok ? [f.field] : []));
  const byId = new Map<string, FormField>(fields.map((f) => [f.id, f]));

  // File answers: checked by content like every upload, images through the image check.
  const uploads: (CheckedFile & { fieldId: string })[] = [];
  for (const upload of uploadedFiles(request)) {
    const match = ANSWER_FILE.exec(upload.field);
    const field = match ? byId.get(match[1]!) : undefined;
    if (!match || !field || !FILE_KINDS.has(field.kind)) {
      problems.add(match ? `answers.${match[1]}` : upload.field, match ? formMessages.notAFile : 'This file was not expected');
      continue;
    }
    const mime = allowedFileType(upload.data, upload.filename);
    if (!mime || (field.kind !== 'embedded_files' && !isImageMime(mime))) {
      problems.add(`answers.${field.id}`, formMessages.wrongAnswer);
      continue;
    }
    uploads.push({ name: sanitiseName(upload.filename), mime, data: upload.data, index: uploads.length, fieldId: field.id });
  }
  problems.throwIfAny();
  const imageProblems = new Problems();
  await checkImages(app, uploads, await residentSensitivity(app.db, first.resident_id), imageProblems);
  for (const [key, messages] of Object.entries(imageProblems.errors)) {
    const index = /^files\.(\d+)$/.exec(key);
    if (index) for (const m of messages) problems.add(`answers.${uploads[Number(index[1])]!.fieldId}`, m);
  }
  problems.throwIfAny();

  const stored = await storeFiles(app, auth.tenantId, uploads);
  const fileRows = stored.rows('task_log', logId);
  let retired: RetiredFile[] = [];
  try {
    await app.db.transaction().execute(async (tx) => {
      const log = await loadLog(tx, auth, logId, true);
      if (log.status === 'completed') throw new HttpError(422, chosen.validationFailed, { status: [taskMessages.alreadyCompleted] });
      // Merged without a prototype (contract ownAnswers): no key sent is anything but an answer.
      const answers = ownAnswers(log.answers);
      for (const [key, value] of Object.entries(input.answers ?? {})) {
        if (value === null) delete answers[key];
        else answers[key] = value;
      }
      fileRows.forEach((row, i) => {
        const field = byId.get(uploads[i]!.fieldId)!;
        const answer = { file_id: row.id };
        answers[field.id] = field.kind === 'embedded_files' ? [...(Array.isArray(answers[field.id]) ? (answers[field.id] as unknown[]) : []), answer] : answer;
      });
      const complete = input.status === 'completed';
      const checked = answersSchemaFor(fields, { complete }).safeParse(answers);
      const errors = new Problems();
      if (!checked.success) {
        for (const [key, messages] of Object.entries(fieldErrors(checked.error))) for (const m of messages) errors.add(key === '_' ? 'answers' : `answers.${key}`, m);
      }
      // File answers must be files of this log; its files no answer names any more are retired.
      const live = await tx.selectFrom('entry_files').select(['id', 'storage_key']).where('tenant_id', '=', auth.tenantId).where('entry_type', '=', 'task_log').where('entry_id', '=', logId).where('deleted_at', 'is', null).execute();
      const known = new Set([...live.map((f) => f.id), ...fileRows.map((r) => r.id)]);
      const named = new Set<string>();
      for (const field of fields) {
        if (!FILE_KINDS.has(field.kind) || answers[field.id] === undefined || errors.errors[`answers.${field.id}`]) continue;
        const list = Array.isArray(answers[field.id]) ? (answers[field.id] as unknown[]) : [answers[field.id]];
        const ids = list.map((a) => fileAnswerSchema.safeParse(a).data?.file_id);
        if (ids.some((id) => id === undefined || !known.has(id))) errors.add(`answers.${field.id}`, formMessages.notAFile);
        for (const id of ids) if (id) named.add(id);
      }
      errors.throwIfAny();
      if (fileRows.length > 0) await tx.insertInto('entry_files').values(fileRows).execute();
      retired = live.filter((f) => !named.has(f.id));
      await retireFiles(tx, retired);
      await tx
        .updateTable('task_logs')
        .set({
          answers: JSON.stringify(answers),
          updated_at: laterStamp('task_logs.updated_at'),
          ...(complete ? { status: 'completed' as const, completed_at: sql`now()`, completed_by: auth.userId } : {}),
        })
        .where('id', '=', logId)
        .execute();
    });
  } catch (error) {
    await stored.cleanup();
    throw error;
  }
  await removeRetiredBytes(app, auth.tenantId, retired);
  announce(app, auth, first, ['tasks']);
  return showTaskLog(app, auth, logId);
}
