import { z } from 'zod';
import { syncedRowSchema, timestampSchema } from './sync';
import { savable } from './text';
import { groupDigits } from './group-digits';

/**
 * Form definitions (SPEC §3 "form field kinds", issue 9): a form is a named template (its name is
 * the objective's category); each version is an ordered list of fields. A task log keeps the
 * version it was filled against, so answers always match the definition they were given for.
 * Shared by the server (checking answers) and the PWA's form renderer (building its zod schema).
 */
export const FORM_FIELD_KINDS = [
  'boolean',
  'yes_no',
  'text',
  'large_text',
  'image',
  'signature',
  'slider',
  'table',
  'multi_option',
  'related_forms',
  'embedded_files',
  'colour',
  'heading',
] as const;
export type FormFieldKind = (typeof FORM_FIELD_KINDS)[number];

export const formLimits = {
  maxFields: 100,
  textMaxLength: 500,
  largeTextMaxLength: 5000,
  tableMaxRows: 50,
  cellMaxLength: 500,
  maxEmbeddedFiles: 5,
} as const;

export const formMessages = {
  required: 'This question needs an answer',
  tooLong: (max: number) => `This answer can be up to ${groupDigits(max)} characters`,
  notAnOption: 'Please choose from the options given',
  outOfRange: (min: number, max: number) => `Choose a number from ${min} to ${max}`,
  offStep: (step: number) => `Choose a number in steps of ${step}`,
  notAColour: 'Choose a colour like #1a2b3c',
  notAFile: 'This file is not on this objective',
  wrongAnswer: 'This answer does not fit the question',
  unknownField: 'This question is not on the form',
  cannotShow: "This question can't be shown",
  // The form renderer's words (src/components/form-renderer), chosen in issue 9.
  notAnswered: 'Not answered',
  fileNotSaved: 'This file could not be kept. Please try again.',
  notAnImage: 'Choose a photo or a picture',
  tooManyFiles: (max: number) => `You can add up to ${max} files`,
  filesAdded: (count: number, max: number) => `${count} of ${max} files added`,
  savingFile: 'Saving…',
  signatureSaved: 'Signature saved',
  tableFull: (max: number) => `This table can have up to ${max} rows`,
  noRows: 'No rows yet',
  noColour: 'No colour chosen yet',
  noRelatedForms: 'There are no forms to choose from',
} as const;

/** A field id: the key of its answer. */
const fieldId = z.string().regex(/^[a-z][a-z0-9_]{0,62}$/);
const common = {
  id: fieldId,
  label: z.string().min(1).max(300),
  help_text: z.string().max(1000).nullable().default(null),
  required: z.boolean().default(false),
};
const option = z.object({ value: z.string().min(1).max(100), label: z.string().min(1).max(300) });
const column = z.object({ id: fieldId, label: z.string().min(1).max(300) });

export const formFieldSchema = z.discriminatedUnion('kind', [
  z.object({ ...common, kind: z.literal('boolean') }),
  z.object({ ...common, kind: z.literal('yes_no') }),
  z.object({ ...common, kind: z.literal('text') }),
  z.object({ ...common, kind: z.literal('large_text') }),
  z.object({ ...common, kind: z.literal('image') }),
  z.object({ ...common, kind: z.literal('signature') }),
  z.object({ ...common, kind: z.literal('slider'), min: z.number(), max: z.number(), step: z.number().positive().default(1) }),
  z.object({ ...common, kind: z.literal('table'), columns: z.array(column).min(1).max(20) }),
  z.object({ ...common, kind: z.literal('multi_option'), options: z.array(option).min(1).max(50), multiple: z.boolean().default(true) }),
  z.object({ ...common, kind: z.literal('related_forms'), related_form_ids: z.array(z.uuid()).max(20) }),
  z.object({ ...common, kind: z.literal('embedded_files') }),
  z.object({ ...common, kind: z.literal('colour') }),
  /** A section or group heading: no answer. */
  z.object({ ...common, kind: z.literal('heading'), level: z.enum(['section', 'group']).default('section') }),
]);
export type FormField = z.infer<typeof formFieldSchema>;
export type FormFieldInput = z.input<typeof formFieldSchema>;

/** The fields of one version, in order; ids unique. */
export const formFieldsSchema = z
  .array(formFieldSchema)
  .max(formLimits.maxFields)
  .refine((fields) => new Set(fields.map((f) => f.id)).size === fields.length, { error: 'Field ids must be unique' });

/** A file answer (image, signature, each embedded file): a file of the task log, viewed with module `task_log`. */
export const fileAnswerSchema = z.object({ file_id: z.uuid() });
export type FileAnswer = z.infer<typeof fileAnswerSchema>;

/** Answers by field id; a field without an answer is absent or null. */
export const answersSchema = z.record(z.string(), z.unknown());
export type Answers = Record<string, unknown>;

/**
 * Answers as an object without a prototype: its own keys only. Read through it, a field id such as
 * "constructor" is its answer or undefined (never Object's), and written through it, no key
 * ("__proto__" included) sets a prototype. Merge and check answers in one of these.
 */
export function ownAnswers(answers: Readonly<Record<string, unknown>> | null | undefined): Answers {
  const own = Object.create(null) as Answers;
  if (answers) for (const [key, value] of Object.entries(answers)) own[key] = value;
  return own;
}

const HEX_COLOUR = /^#[0-9a-f]{6}$/i;

/** The schema of one field's answer (null allowed: not answered); null for headings. */
export function answerSchemaOf(field: FormField): z.ZodType | null {
  switch (field.kind) {
    case 'boolean':
      return z.boolean({ error: formMessages.wrongAnswer });
    case 'yes_no':
      return z.enum(['yes', 'no'], { error: formMessages.notAnOption });
    case 'text':
      return savable(z.string({ error: formMessages.wrongAnswer }).max(formLimits.textMaxLength, { error: formMessages.tooLong(formLimits.textMaxLength) }));
    case 'large_text':
      return savable(z.string({ error: formMessages.wrongAnswer }).max(formLimits.largeTextMaxLength, { error: formMessages.tooLong(formLimits.largeTextMaxLength) }));
    case 'image':
    case 'signature':
      return fileAnswerSchema;
    case 'embedded_files':
      return z.array(fileAnswerSchema).max(formLimits.maxEmbeddedFiles);
    case 'slider':
      return z
        .number({ error: formMessages.wrongAnswer })
        .min(field.min, { error: formMessages.outOfRange(field.min, field.max) })
        .max(field.max, { error: formMessages.outOfRange(field.min, field.max) })
        .refine((n) => Math.abs((n - field.min) / field.step - Math.round((n - field.min) / field.step)) < 1e-9, { error: formMessages.offStep(field.step) });
    case 'table': {
      const row = z.object(Object.fromEntries(field.columns.map((c) => [c.id, savable(z.string().max(formLimits.cellMaxLength, { error: formMessages.tooLong(formLimits.cellMaxLength) })).optional()]))).strict();
      return z.array(row, { error: formMessages.wrongAnswer }).max(formLimits.tableMaxRows);
    }
    case 'multi_option': {
      const values = field.options.map((o) => o.value) as [string, ...string[]];
      const one = z.enum(values, { error: formMessages.notAnOption });
      return field.multiple ? z.array(one, { error: formMessages.wrongAnswer }).refine((a) => new Set(a).size === a.length, { error: formMessages.wrongAnswer }) : z.array(one).max(1);
    }
    case 'related_forms': {
      const allowed = new Set(field.related_form_ids);
      return z.array(z.uuid()).refine((ids) => ids.every((id) => allowed.has(id)), { error: formMessages.notAnOption });
    }
    case 'colour':
      return z.string().regex(HEX_COLOUR, { error: formMessages.notAColour });
    case 'heading':
      return null;
  }
}

/** Whether an answer counts as given (for `required`). */
export function isAnswered(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

/**
 * The schema of a whole set of answers for these fields: unknown keys are refused; `complete`
 * makes required fields required (a log can be saved half-filled and completed later).
 */
export function answersSchemaFor(fields: readonly FormField[], options: { complete: boolean }) {
  const shape: Record<string, z.ZodType> = {};
  for (const field of fields) {
    const one = answerSchemaOf(field);
    if (!one) continue;
    shape[field.id] = one.nullable().optional();
  }
  // Checked as own keys only (ownAnswers): a field "constructor" is not answered by Object's.
  const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  return z.preprocess(
    // Typed as answers for form libraries (the renderer's resolver); anything else is checked as sent.
    (value: Answers): unknown => (isRecord(value) ? ownAnswers(value) : value),
    z
      .strictObject(shape, { error: formMessages.unknownField })
      .superRefine((answers, ctx) => {
        if (!options.complete) return;
        for (const field of fields) {
          if (field.kind === 'heading' || !field.required) continue;
          const given = Object.hasOwn(answers, field.id) ? (answers as Record<string, unknown>)[field.id] : undefined;
          if (!isAnswered(given)) ctx.addIssue({ code: 'custom', path: [field.id], message: formMessages.required });
        }
      }),
  );
}

/** One form (a category) with its current version's definition. */
export const formSchema = syncedRowSchema.extend({
  name: z.string(),
  description: z.string().nullable(),
  version_id: z.uuid(),
  version: z.number().int(),
  fields: z.array(z.unknown()),
  created_at: timestampSchema,
});
export type Form = z.infer<typeof formSchema>;

/**
 * A field as the renderer receives it: a field of a known kind, or `{ unknown: raw }` for a row
 * that cannot be shown ("This question can't be shown", never a crash).
 */
export function readFields(raw: readonly unknown[]): ({ ok: true; field: FormField } | { ok: false; raw: unknown })[] {
  return raw.map((r) => {
    const parsed = formFieldSchema.safeParse(r);
    return parsed.success ? { ok: true as const, field: parsed.data } : { ok: false as const, raw: r };
  });
}
