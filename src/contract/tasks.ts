import { z } from 'zod';
import { clientIdSchema, fileSchema } from './entries';
import { envelope } from './envelope';
import { answersSchema, type FormFieldInput } from './forms';
import { personSchema } from './residents';
import { pageSchema, syncedRowSchema, timestampSchema } from './sync';
import { calendarDateSchema } from './calendar-values';
import { rules } from './rules';
import { groupDigits } from './group-digits';
import { parseJsonText } from './json-text';
import { chosenMessages } from './messages';

/**
 * Objectives (SPEC §3 Task, Task log, Task comment; §7 Tasks; issue 9). A task is one objective
 * for a young person on a date, made from a form (form.name is its category); its task log is the
 * record of how it went: the filled form (answers against one form version), the comment thread,
 * and its status. The young person reviews a completed log once (a comment with is_review) and
 * earns REVIEW_POINTS in the points ledger.
 */
export const TASK_LOG_STATUSES = ['current', 'completed'] as const;
export type TaskLogStatus = (typeof TASK_LOG_STATUSES)[number];

/** SPEC §9: reviewing a log earns 20 reward points. */
export const REVIEW_POINTS = rules.reviewLogRewardPoints;

export const TASK_COMMENT_MAX_LENGTH = 5000;
export const TASK_TITLE_MAX_LENGTH = 200;

export const taskMessages = {
  /** SPEC §8. */
  fetchCurrentFailed: 'Failed to fetch current tasks',
  fetchCompletedFailed: 'Failed to fetch completed tasks',
  postCommentFailed: 'There was an error posting your comment.',
  updateCommentFailed: 'There was an error updating your comment.',
  commentNotFound: 'Comment not found',
  objectiveNotFound: 'Objective not found',
  /** Chosen (docs/decisions.md). */
  commentRequired: 'Comment is required',
  commentTooLong: `Your comment can be up to ${groupDigits(TASK_COMMENT_MAX_LENGTH)} characters`,
  taskLogRequired: 'Objective is required',
  reviewNotCompleted: 'You can review this objective once it is completed',
  reviewTwice: 'You have already reviewed this objective',
  reviewOnlyYoungPerson: 'Only the young person can review their objective',
  reviewFixed: 'A review cannot be turned into a comment, or a comment into a review',
  staffOnly: 'Only staff can do that',
  formRequired: 'Please choose a form',
  titleRequired: 'Please give the objective a title',
  titleTooLong: `The title can be up to ${TASK_TITLE_MAX_LENGTH} characters`,
  dateRequired: 'Please choose a date',
  alreadyCompleted: 'This objective is already completed',
  /** The app (docs/decisions.md, "Objectives (issue 9): client"). */
  commentStillSending: 'This comment is still being sent. Please try again in a moment.',
  reviewPointsOffline: `You are offline. Your review is saved on this device and will be sent when you are back online. Your ${REVIEW_POINTS} points arrive when it is sent.`,
} as const;

/**
 * The young person's review of a completed objective, as a form (filled in with the shared form
 * renderer): its text is the review comment, its photos the comment's files.
 */
export const REVIEW_TEXT_FIELD = 'how_it_went';
export const REVIEW_PHOTOS_FIELD = 'photos';
export const REVIEW_FORM_FIELDS = [
  { id: REVIEW_TEXT_FIELD, kind: 'large_text', label: 'How do you think it went?', help_text: null, required: true },
  { id: REVIEW_PHOTOS_FIELD, kind: 'embedded_files', label: 'Add photos', help_text: 'If you like, add up to 5 photos.', required: false },
] as const satisfies readonly FormFieldInput[];

/** A calendar date YYYY-MM-DD that exists (2026-02-30 does not). */
const date = calendarDateSchema(taskMessages.dateRequired);

/** One comment of a task log's thread. `is_review`: the young person's review (at most one per log). */
export const taskCommentSchema = syncedRowSchema.extend({
  task_log_id: z.uuid(),
  comment: z.string(),
  is_review: z.boolean(),
  created_at: timestampSchema,
  edited_at: timestampSchema.nullable(),
  creator: personSchema,
  files: z.array(fileSchema),
});
export type TaskComment = z.infer<typeof taskCommentSchema>;
export const taskCommentResponseSchema = envelope(taskCommentSchema);

/** The form a task was made from: its category is `name`. */
export const taskFormSchema = z.object({ id: z.uuid(), name: z.string(), description: z.string().nullable() });

/** GET /v1/tasks/{id}. */
export const taskSchema = syncedRowSchema.extend({
  resident_id: z.uuid(),
  title: z.string(),
  description: z.string().nullable(),
  task_date: date,
  form: taskFormSchema,
  creator: personSchema,
  /** The newest log of the task (GET /v1/tasks/{id}/logs/latest). */
  latest_log_id: z.uuid().nullable(),
  created_at: timestampSchema,
});
export type Task = z.infer<typeof taskSchema>;
export const taskResponseSchema = envelope(taskSchema);

/**
 * A task log as every Tasks endpoint answers it: its task (with the form's name, the category), the
 * definition of the form version it is filled against, the answers, and the comments newest first
 * (SPEC §4: a new comment goes to the front).
 */
export const taskLogSchema = syncedRowSchema.extend({
  task_id: z.uuid(),
  resident_id: z.uuid(),
  status: z.enum(TASK_LOG_STATUSES),
  answers: answersSchema,
  completed_at: timestampSchema.nullable(),
  /** The young person has reviewed this log (its review comment is in `comments`). */
  reviewed: z.boolean(),
  task: z.object({
    id: z.uuid(),
    title: z.string(),
    description: z.string().nullable(),
    task_date: date,
    form: taskFormSchema,
  }),
  form_version: z.object({ id: z.uuid(), version: z.number().int(), fields: z.array(z.unknown()) }),
  comments: z.array(taskCommentSchema),
  created_at: timestampSchema,
});
export type TaskLog = z.infer<typeof taskLogSchema>;
export const taskLogResponseSchema = envelope(taskLogSchema);
export const taskLogPageSchema = pageSchema(taskLogSchema);

/**
 * POST /v1/tasks/logs/comments (multipart: these fields and `files[]`; JSON without files too).
 * `is_review` is '1'/'true' (multipart) or a boolean (JSON).
 */
const flag = z
  .union([z.boolean(), z.enum(['0', '1', 'true', 'false'])])
  .optional()
  .transform((v) => v === true || v === '1' || v === 'true');
export const taskCommentCreateSchema = z.object({
  id: clientIdSchema,
  task_log_id: z.uuid({ error: taskMessages.taskLogRequired }),
  comment: z.string({ error: taskMessages.commentRequired }).trim().min(1, { error: taskMessages.commentRequired }).max(TASK_COMMENT_MAX_LENGTH, { error: taskMessages.commentTooLong }),
  is_review: flag,
});
export type TaskCommentCreate = z.input<typeof taskCommentCreateSchema>;

/**
 * POST /v1/tasks/logs/comments/{id} with `_method=PUT`: the new text, `remove_files[]`, new `files[]`.
 * The text is text: an object, a list, null or a boolean is refused (422 `comment`), never stored as its String().
 */
export const taskCommentUpdateSchema = z.object({
  comment: z.string({ error: taskMessages.commentRequired }).trim().min(1, { error: taskMessages.commentRequired }).max(TASK_COMMENT_MAX_LENGTH, { error: taskMessages.commentTooLong }).optional(),
  remove_files: z.array(z.uuid()).max(20).default([]),
});

/** Staff (addition, docs/api.md): POST /v1/projects/residents/{id}/tasks makes a task and its current log. */
export const staffTaskCreateSchema = z.object({
  id: clientIdSchema,
  form_id: z.uuid({ error: taskMessages.formRequired }),
  title: z.string({ error: taskMessages.titleRequired }).trim().min(1, { error: taskMessages.titleRequired }).max(TASK_TITLE_MAX_LENGTH, { error: taskMessages.titleTooLong }),
  description: z.string().trim().max(2000).nullable().optional(),
  task_date: date,
});
export type StaffTaskCreate = z.input<typeof staffTaskCreateSchema>;

/**
 * Staff (addition): POST /v1/tasks/logs/{id} with `_method=PUT` fills the log. `answers` (JSON
 * object, or a JSON string in a multipart form) are merged over the saved ones (null clears one);
 * file answers are uploaded as parts `files[<field id>]`; `status=completed` completes the log,
 * which then needs every required answer. A "__proto__" key in the JSON text is refused (json-text.ts).
 */
export const staffLogUpdateSchema = z.object({
  answers: z
    .preprocess((value, ctx) => {
      if (typeof value !== 'string') return value;
      const parsed = parseJsonText(value);
      if (parsed.ok && parsed.value && typeof parsed.value === 'object' && !Array.isArray(parsed.value)) return parsed.value;
      ctx.addIssue({ code: 'custom', message: !parsed.ok && parsed.problem === 'reserved_key' ? chosenMessages.reservedJsonKey : 'Answers must be a JSON object' });
      return z.NEVER;
    }, answersSchema)
    .optional(),
  status: z.enum(TASK_LOG_STATUSES).optional(),
});

/** The points ledger (append-only): GET /v1/projects/residents/{id}/points. */
/**
 * Why the balance moved: `reward_exchange` (-cost when the young person asks; source_id = the
 * exchange) and `reward_refund` (+cost when staff deny it; the same source_id) since issue 10.
 */
export const POINTS_REASONS = ['opening_balance', 'task_log_review', 'reward_exchange', 'reward_refund', 'adjustment'] as const;
export const pointsEntrySchema = syncedRowSchema.extend({
  resident_id: z.uuid(),
  delta: z.number().int(),
  reason: z.string(),
  source_id: z.uuid().nullable(),
  created_at: timestampSchema,
});
export type PointsEntry = z.infer<typeof pointsEntrySchema>;
export const pointsPageSchema = pageSchema(pointsEntrySchema).extend({
  /** The balance now: the sum of every entry, never below zero. */
  balance: z.number().int().min(0),
});
