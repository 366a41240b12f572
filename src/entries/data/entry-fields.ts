/**
 * Which of a refusal's field errors the entry form shows beside a field of its own (the device's
 * checks and the server's 422 alike). The rest have no field on screen, so they are said above it.
 */
import type { EntryKind } from '@/contract/entry-kind';

/** Request field → its messages (a 422's `errors`, or the device's checks). */
export type FieldErrorList = Readonly<Record<string, readonly string[]>>;

export type EntryField = 'description' | 'canvas' | 'reaction' | 'files' | 'entry_date' | 'category_id' | 'shared_with';

const COMMON: readonly EntryField[] = ['description', 'canvas', 'reaction', 'files', 'shared_with'];
const SHOWN: Record<EntryKind, readonly EntryField[]> = { journal: [...COMMON, 'entry_date'], voice: [...COMMON, 'category_id'] };
/** Request fields whose problems belong to a field the form shows under another name. */
const ALIASES: Readonly<Record<string, EntryField>> = { entry_time: 'entry_date', shared_with_management: 'shared_with', remove_files: 'files', remove_canvas: 'canvas' };

/** The form's field for a request field (`files.2` is `files`), or null when the form has none. */
export function fieldOf(kind: EntryKind, key: string): EntryField | null {
  const base = key.split('.')[0] ?? key;
  const field = ALIASES[base] ?? (base as EntryField);
  return SHOWN[kind].includes(field) ? field : null;
}

/** One message per field the form shows (the first). */
export function fieldErrorsOf(kind: EntryKind, errors: FieldErrorList): Partial<Record<EntryField, string>> {
  const out: Partial<Record<EntryField, string>> = {};
  for (const [key, list] of Object.entries(errors)) {
    const field = fieldOf(kind, key);
    const message = list[0];
    if (field && message && !out[field]) out[field] = message;
  }
  return out;
}

/** The messages of the errors the form has no field for, in the answer's order. */
export function errorsWithoutField(kind: EntryKind, errors: FieldErrorList): string[] {
  return Object.entries(errors).flatMap(([key, list]) => (fieldOf(kind, key) ? [] : list.slice(0, 1)));
}
