import { describe, expect, it } from 'vitest';
import { answersSchemaFor, formFieldsSchema, formLimits, formMessages, readFields, type FormFieldInput } from '../../src/contract/forms';

/** The one answer rule of objectives (contract forms.ts), used by the server and the form renderer. */
const FIELDS: FormFieldInput[] = [
  { id: 'title', kind: 'heading', label: 'Section' },
  { id: 'done', kind: 'boolean', label: 'Done', required: true },
  { id: 'ok', kind: 'yes_no', label: 'OK?' },
  { id: 'short', kind: 'text', label: 'Short' },
  { id: 'long', kind: 'large_text', label: 'Long' },
  { id: 'pic', kind: 'image', label: 'Picture' },
  { id: 'sig', kind: 'signature', label: 'Signature' },
  { id: 'level', kind: 'slider', label: 'Level', min: 0, max: 10, step: 2 },
  { id: 'grid', kind: 'table', label: 'Grid', columns: [{ id: 'a', label: 'A' }] },
  { id: 'pick', kind: 'multi_option', label: 'Pick', options: [{ value: 'x', label: 'X' }, { value: 'y', label: 'Y' }] },
  { id: 'one', kind: 'multi_option', label: 'One', options: [{ value: 'x', label: 'X' }], multiple: false },
  { id: 'rel', kind: 'related_forms', label: 'Related', related_form_ids: ['0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b'] },
  { id: 'docs', kind: 'embedded_files', label: 'Docs' },
  { id: 'col', kind: 'colour', label: 'Colour' },
];
const fields = formFieldsSchema.parse(FIELDS);
const errorsOf = (answers: unknown, complete = false) => {
  const r = answersSchemaFor(fields, { complete }).safeParse(answers);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.') || '_', i.message]));
};

describe('answersSchemaFor', () => {
  it('accepts a full set of answers of every kind', () => {
    expect(errorsOf({
      done: true, ok: 'no', short: 'a', long: 'b', pic: { file_id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b' }, sig: { file_id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b' },
      level: 4, grid: [{ a: '1' }], pick: ['x', 'y'], one: ['x'], rel: ['0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b'], docs: [], col: '#00ff00',
    }, true)).toEqual({});
  });
  it('refuses what does not fit, per field', () => {
    expect(errorsOf({ level: 3 })).toEqual({ level: formMessages.offStep(2) });
    expect(errorsOf({ level: 12 })).toEqual({ level: formMessages.outOfRange(0, 10) });
    expect(errorsOf({ col: 'red' })).toEqual({ col: formMessages.notAColour });
    expect(errorsOf({ pick: ['z'] })).toHaveProperty('pick.0');
    expect(errorsOf({ one: ['x', 'x'] })).toHaveProperty('one');
    expect(errorsOf({ grid: [{ b: '1' }] })).toHaveProperty('grid.0');
    // A young person's words too long for a cell or a text answer: the same plain words, not the library's.
    expect(errorsOf({ grid: [{ a: 'x'.repeat(formLimits.cellMaxLength + 1) }] })).toEqual({ 'grid.0.a': formMessages.tooLong(formLimits.cellMaxLength) });
    expect(errorsOf({ short: 'x'.repeat(formLimits.textMaxLength + 1) })).toEqual({ short: formMessages.tooLong(formLimits.textMaxLength) });
    expect(errorsOf({ rel: ['0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c'] })).toEqual({ rel: formMessages.notAnOption });
    expect(errorsOf({ title: 'x' })).toHaveProperty('_');
    expect(errorsOf({ nope: 1 })).toHaveProperty('_');
  });
  it('required answers only when completing', () => {
    expect(errorsOf({})).toEqual({});
    expect(errorsOf({}, true)).toEqual({ done: formMessages.required });
    expect(errorsOf({ done: null }, true)).toEqual({ done: formMessages.required });
  });
});

describe('readFields', () => {
  it('keeps unknown or malformed fields as rows that cannot be shown, never throws', () => {
    const rows = readFields([...FIELDS, { id: 'x', kind: 'hologram', label: 'X' }, 42, { kind: 'slider', id: 's', label: 'S' }]);
    expect(rows.filter((r) => r.ok)).toHaveLength(FIELDS.length);
    expect(rows.filter((r) => !r.ok)).toHaveLength(3);
  });
  it('refuses duplicate field ids in a definition', () => {
    expect(formFieldsSchema.safeParse([FIELDS[1], FIELDS[1]]).success).toBe(false);
  });
});
