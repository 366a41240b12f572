import { formLimits, isAnswered, type Answers, type FileAnswer, type FormField } from '@/contract/forms';

/**
 * The two shapes of an answer. The form's own values are what the controls hold (a checkbox is
 * always true or false, a text box always a string, a table keeps its empty rows while being
 * typed in). `normaliseAnswer` turns them into the wire's answers: an unanswered field is null,
 * so a caller that sends them all clears a cleared answer (the server merges answers, null clears).
 */

export type TableRow = Record<string, string>;

export const isFileAnswer = (value: unknown): value is FileAnswer =>
  typeof value === 'object' && value !== null && typeof (value as { file_id?: unknown }).file_id === 'string';

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
const unique = (values: readonly string[]): string[] => [...new Set(values)];

/**
 * What a control starts with, from a restored draft or saved answers that may not fit the
 * definition any more (an older version, a hand-edited draft). Anything a control could not show
 * is dropped rather than kept invisibly: an option that no longer exists could never be unticked
 * and would block the submit for good.
 */
export function initialValueOf(field: FormField, value: unknown): unknown {
  switch (field.kind) {
    case 'boolean':
      return value === true;
    case 'yes_no':
      return value === 'yes' || value === 'no' ? value : null;
    case 'text':
    case 'large_text':
    case 'colour':
      return typeof value === 'string' ? value : '';
    case 'image':
    case 'signature':
      return isFileAnswer(value) ? { file_id: value.file_id } : null;
    case 'embedded_files':
      return Array.isArray(value) ? value.filter(isFileAnswer).map((f) => ({ file_id: f.file_id })).slice(0, formLimits.maxEmbeddedFiles) : [];
    case 'slider':
      return typeof value === 'number' && Number.isFinite(value) ? value : null;
    case 'table':
      return (Array.isArray(value) ? value : []).slice(0, formLimits.tableMaxRows).map((row: unknown) =>
        Object.fromEntries(field.columns.map((c) => {
          const cell = typeof row === 'object' && row !== null ? (row as Record<string, unknown>)[c.id] : undefined;
          return [c.id, typeof cell === 'string' ? cell : ''];
        })),
      );
    case 'multi_option': {
      const known = new Set(field.options.map((o) => o.value));
      const chosen = unique(strings(value).filter((v) => known.has(v)));
      return field.multiple ? chosen : chosen.slice(0, 1);
    }
    case 'related_forms': {
      const known = new Set(field.related_form_ids);
      return unique(strings(value).filter((v) => known.has(v)));
    }
    case 'heading':
      return null;
  }
}

/** The form's starting values: one per answerable field, nothing else (answers to unknown rows are left out). */
export function initialValues(fields: readonly FormField[], answers: Answers | undefined): Answers {
  const source = typeof answers === 'object' && answers !== null ? answers : {};
  return Object.fromEntries(fields.map((f) => [f.id, initialValueOf(f, Object.hasOwn(source, f.id) ? source[f.id] : undefined)]));
}

/** A control's value as an answer for the wire: null when not answered (isAnswered, the contract's rule). */
export function normaliseAnswer(field: FormField, raw: unknown): unknown {
  switch (field.kind) {
    case 'boolean':
      // A required checkbox must be ticked (as HTML's `required` means): unticked is "not answered"
      // then. An optional one is a plain no.
      return raw === true ? true : field.required ? null : false;
    case 'yes_no':
      return raw === 'yes' || raw === 'no' ? raw : null;
    case 'text':
    case 'large_text':
      return typeof raw === 'string' && isAnswered(raw) ? raw : null;
    case 'colour':
      // Kept as typed when it is not a colour yet: the schema then says "Choose a colour like #1a2b3c".
      return typeof raw === 'string' && isAnswered(raw) ? raw.trim() : null;
    case 'image':
    case 'signature':
      return isFileAnswer(raw) ? { file_id: raw.file_id } : null;
    case 'embedded_files': {
      const list = Array.isArray(raw) ? raw.filter(isFileAnswer).map((f) => ({ file_id: f.file_id })) : [];
      return list.length > 0 ? list : null;
    }
    case 'slider':
      return typeof raw === 'number' && Number.isFinite(raw) ? raw : null;
    case 'table': {
      // Empty cells are left out (the schema's cells are optional) and rows with nothing in them are dropped.
      const rows = (Array.isArray(raw) ? raw : []).map((row: unknown) => {
        const cells: TableRow = {};
        for (const c of field.columns) {
          const cell = typeof row === 'object' && row !== null ? (row as Record<string, unknown>)[c.id] : undefined;
          if (typeof cell === 'string' && isAnswered(cell)) cells[c.id] = cell;
        }
        return cells;
      });
      const filled = rows.filter((r) => Object.keys(r).length > 0);
      return filled.length > 0 ? filled : null;
    }
    case 'multi_option':
    case 'related_forms': {
      const list = strings(raw);
      return list.length > 0 ? list : null;
    }
    case 'heading':
      return null;
  }
}

/** Every answerable field's answer (null when unanswered), in definition order. */
export function normaliseAnswers(fields: readonly FormField[], values: Answers): Answers {
  return Object.fromEntries(fields.map((f) => [f.id, normaliseAnswer(f, values[f.id])]));
}

/** The field id a server error key names: `answers.<id>` (as the server sends it, maybe with a deeper path) or `<id>`. */
export function fieldIdOfErrorKey(key: string): string {
  const path = key.startsWith('answers.') ? key.slice('answers.'.length) : key;
  return path.split('.')[0] ?? path;
}
