import { readFields, type FormField } from '@/contract/forms';

/** One row of a definition as the renderer shows it: a field of a known kind, or a row it cannot show. */
export type FormRow =
  | { kind: 'field'; key: string; field: FormField }
  | { kind: 'unknown'; key: string; label: string | null };

export interface FormDefinition {
  rows: readonly FormRow[];
  /** The fields that take an answer (known kinds except headings), in order: what the schema is built from. */
  answerable: readonly FormField[];
}

const labelOf = (raw: unknown): string | null => {
  if (typeof raw !== 'object' || raw === null) return null;
  try {
    const label = (raw as { label?: unknown }).label;
    return typeof label === 'string' && label.trim() !== '' ? label.trim().slice(0, 300) : null;
  } catch {
    return null;
  }
};

const readOne = (raw: unknown): FormField | null => {
  try {
    const [read] = readFields([raw]);
    return read?.ok ? read.field : null;
  } catch {
    // A row that even zod cannot look at (a throwing getter, a revoked proxy): shown as unknown, never a crash.
    return null;
  }
};

/**
 * Reads a definition that came over the wire or out of a draft, so it is never trusted: anything
 * that is not a field of a known kind becomes an "unknown" row ("This question can't be shown"),
 * with no answer, so it can never block a submit. A second field with an id already used is
 * unknown too: two controls writing one answer would silently overwrite each other.
 */
export function readDefinition(fields: unknown): FormDefinition {
  if (!Array.isArray(fields)) {
    // The whole definition is unreadable: one row says so, rather than an empty form that looks complete.
    return { rows: [{ kind: 'unknown', key: 'unknown-definition', label: null }], answerable: [] };
  }
  const seen = new Set<string>();
  const rows: FormRow[] = fields.map((raw: unknown, index) => {
    const field = readOne(raw);
    if (!field || seen.has(field.id)) return { kind: 'unknown', key: `unknown-${index}`, label: labelOf(raw) };
    seen.add(field.id);
    return { kind: 'field', key: field.id, field };
  });
  const answerable = rows.flatMap((row) => (row.kind === 'field' && row.field.kind !== 'heading' ? [row.field] : []));
  return { rows, answerable };
}
