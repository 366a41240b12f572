import { z } from 'zod';
import { ENTRY_KINDS } from './entry-kind';
import { envelope } from './envelope';
import { entryLimits, entryMessages } from './entry-messages';
import { personSchema } from './residents';
import { pageSchema, syncedRowSchema, timestampSchema } from './sync';
import { calendarDateSchema, clockTimeSchema, utcTimestampSchema } from './calendar-values';

/**
 * Journal and voice entries (SPEC §3, §5, §7). One machinery, used twice. Limits the spec leaves
 * open are chosen here and in docs/decisions.md.
 */
export { ENTRY_KINDS, isEntryKind, type EntryKind } from './entry-kind';
/** 'journal' | 'voice' as a zod enum (the one definition is ENTRY_KINDS in entry-kind.ts). */
export const entryKindSchema = z.enum(ENTRY_KINDS);

export { ALLOWED_FILE_TYPES, entryLimits, entryMessages, isAllowedMime, type AllowedMime } from './entry-messages';

/**
 * Edit conflicts (issue 12, additive to SPEC §7): an update may say which copy it was made from
 * (`base_updated_at`, the `updated_at` of the server's copy the device last saw) and which device
 * made it (`device_id`, an opaque id the app derives from its own data key; a create may send it
 * too). When the entry's content was changed after that copy by another device, the update is
 * refused with 412 and `errors.base_updated_at`, and the answer's `data` is the entry as it is now.
 * A device's own changes in a row are never a conflict with each other. Without `base_updated_at`
 * an update replaces what is there (SPEC §7 as it was).
 */
export const baseUpdatedAtSchema = utcTimestampSchema().optional();
export const deviceIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'The device id must be 8 to 64 letters, digits, - or _' })
  .optional();

/**
 * Create only: the id the client gave its optimistic copy (a UUID, the write's Idempotency-Key).
 * The server keeps it, so the replica's pending document and the server's row are one document
 * and a pull can never show the entry twice. Absent: the server makes one. Ignored on update.
 */
export const clientIdSchema = z.uuid({ error: 'The id must be a UUID' }).optional();

export const fileSchema = z.object({ id: z.uuid(), name: z.string(), mime: z.string(), size: z.number().int() });
export type EntryFile = z.infer<typeof fileSchema>;

const date = calendarDateSchema();
const time = clockTimeSchema();

/**
 * The text fields of a create or update (multipart per SPEC §5: nulls skipped, `shared_with[]`
 * repeated, files as `files[0]`, `files[1]`..., the drawing as a PNG file part `canvas`, updates as
 * POST with `_method=PUT`). `remove_files[]` lists attachments to drop on update.
 */
export const entryFieldsSchema = z.object({
  id: clientIdSchema,
  description: z.string().max(entryLimits.descriptionMaxLength, { error: entryMessages.descriptionTooLong }).optional(),
  reaction: z.string().max(32).optional(),
  shared_with: z.array(z.uuid()).max(50).default([]),
  shared_with_management: z.enum(['0', '1']).default('0'),
  remove_files: z.array(z.uuid()).max(entryLimits.maxFiles).default([]),
  /** Removes the drawing on update. */
  remove_canvas: z.enum(['0', '1']).default('0'),
  /** Update: the copy it was made from (see baseUpdatedAtSchema). */
  base_updated_at: baseUpdatedAtSchema,
  device_id: deviceIdSchema,
});

export const journalFieldsSchema = entryFieldsSchema.extend({
  /** Local date and time of the entry; not in the future (SPEC §5). */
  entry_date: date.optional(),
  entry_time: time.optional(),
});
export const voiceFieldsSchema = entryFieldsSchema.extend({
  category_id: z.uuid({ error: entryMessages.categoryRequired }),
});

const entryBase = syncedRowSchema.extend({
  resident_id: z.uuid(),
  creator: personSchema,
  description: z.string().nullable(),
  reaction: z.string().nullable(),
  /** The drawing, a PNG attachment viewed through GET /v1/files/view. */
  canvas: fileSchema.nullable(),
  files: z.array(fileSchema),
  shared_with: z.array(z.uuid()),
  shared_with_management: z.boolean(),
  comments_count: z.number().int(),
  locked_at: timestampSchema.nullable(),
  created_at: timestampSchema,
});

export const journalEntrySchema = entryBase.extend({ entry_date: date, entry_time: time });
export type JournalEntry = z.infer<typeof journalEntrySchema>;
export const voiceEntrySchema = entryBase.extend({ category_id: z.uuid() });
export type VoiceEntry = z.infer<typeof voiceEntrySchema>;

export const journalPageSchema = pageSchema(journalEntrySchema);
export const journalEntryResponseSchema = envelope(journalEntrySchema);
export const voicePageSchema = pageSchema(voiceEntrySchema);
export const voiceEntryResponseSchema = envelope(voiceEntrySchema);

// GET /v1/projects/residents/voices/categories
export const voiceCategorySchema = syncedRowSchema.extend({ name: z.string(), description: z.string().nullable() });
export type VoiceCategory = z.infer<typeof voiceCategorySchema>;
export const voiceCategoriesPageSchema = pageSchema(voiceCategorySchema);

// GET /v1/tags/icons/emojis
/** `position`: the order the picker shows them in, the same on every device (ids are random). */
export const emojiSchema = syncedRowSchema.extend({ emoji: z.string(), name: z.string(), position: z.number().int() });
export type Emoji = z.infer<typeof emojiSchema>;
export const emojisPageSchema = pageSchema(emojiSchema);

// GET /v1/projects/residents/journal/entries/{id}/comments and .../voices/entries/{id}/comments
// (list, replicated like every list); create is in comments.ts.

// POST /v1/projects/residents/{id}/photos/nsfw (multipart, one image part `image`)
export const nsfwResultSchema = z.object({
  inappropriate: z.boolean(),
  /** The sensitivity used: the young person's explicit_image_sensitivity setting. */
  sensitivity: z.enum(['low', 'medium', 'high']),
});
export const nsfwResponseSchema = envelope(nsfwResultSchema);

/**
 * GET /v1/files/view?file_id=...&module=journal|voice|comment|task_comment|task_log|reward (bytes);
 * task_comment: a file of an objective's comment, task_log: a file answer of a task log (issue 9);
 * reward: a reward's picture (issue 10).
 */
export const fileModuleSchema = z.enum([...ENTRY_KINDS, 'comment', 'task_comment', 'task_log', 'reward']);
