import type { Answers } from '@/contract/forms';
import type { XssVector } from '../../support/xss-vectors';
import type { FieldCheck } from './xss-scan';

/**
 * A form whose every staff-written text (heading, help, question, option, column, a related form's
 * name, a row of a kind the app does not know) and every answer (text, long text, a colour that is
 * not a colour, a chosen option, an option no longer offered, a table cell) is an XSS vector: for the
 * objectives' filled forms and the documents' forms (tests/web/xss-objectives.test.tsx,
 * tests/web/xss-documents.test.tsx). The contract allows 50 options, 20 columns and 20 related forms
 * a question, so those come in groups.
 */
const LABEL = { words: 'Words', colour: 'Colour', options: 'Options', gone: 'Not offered', table: 'Table', related: 'Related' } as const;
const chunks = <T>(list: readonly T[], size: number): T[][] => Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, i * size + size));
export const relatedId = (vector: XssVector) => `00000000-0000-4000-8000-${String(90_000 + vector.id).padStart(12, '0')}`;

/** The payloads joined by newlines in groups of at most `max` characters (a single longer one alone). */
function packed(vectors: readonly XssVector[], max: number): string[] {
  const groups: string[] = [];
  let current = '';
  for (const { payload } of vectors) {
    if (current && current.length + 1 + payload.length > max) {
      groups.push(current);
      current = '';
    }
    current = current ? `${current}\n${payload}` : payload;
  }
  if (current) groups.push(current);
  return groups;
}

/**
 * The form and its answers. `perVector`: a question (of each kind) per vector, for the read-only
 * view. Otherwise the vectors are packed into each text up to the contract's lengths (300 for a
 * label, 1,000 for help, 500 for a short answer), which keeps the form within the contract's 100
 * questions: for the form being filled in, which renders every control.
 */
export function hostileForm(vectors: readonly XssVector[], layout: 'perVector' | 'packed' = 'perVector') {
  const fields: Record<string, unknown>[] = [];
  const answers: Record<string, unknown> = {};
  if (layout === 'perVector') {
    for (const v of vectors) {
      fields.push({ id: `h${v.id}`, kind: 'heading', label: v.payload, help_text: v.payload, level: 'section' });
      fields.push({ id: `t${v.id}`, kind: 'text', label: v.payload, help_text: v.payload });
      answers[`t${v.id}`] = v.payload;
      fields.push({ id: `l${v.id}`, kind: 'large_text', label: LABEL.words });
      answers[`l${v.id}`] = v.payload;
      fields.push({ id: `c${v.id}`, kind: 'colour', label: LABEL.colour });
      answers[`c${v.id}`] = v.payload;
      fields.push({ id: `x${v.id}`, kind: 'no_such_kind', label: v.payload });
    }
  } else {
    const labels = packed(vectors, 300);
    const helps = packed(vectors, 1000);
    const shortAnswers = packed(vectors, 500);
    const count = Math.max(labels.length, helps.length, shortAnswers.length);
    for (let i = 0; i < count; i += 1) {
      const label = labels[i] ?? 'More';
      fields.push({ id: `h${i}`, kind: 'heading', label, help_text: helps[i] ?? null, level: 'section' });
      fields.push({ id: `t${i}`, kind: 'text', label, help_text: helps[i] ?? null });
      if (shortAnswers[i]) answers[`t${i}`] = shortAnswers[i];
      if (labels[i]) fields.push({ id: `x${i}`, kind: 'no_such_kind', label });
    }
    packed(vectors, 5000).forEach((text, i) => {
      fields.push({ id: `l${i}`, kind: 'large_text', label: LABEL.words });
      answers[`l${i}`] = text;
    });
    fields.push({ id: 'c0', kind: 'colour', label: LABEL.colour });
    answers.c0 = vectors.map((v) => v.payload).join('\n');
  }
  chunks(vectors, 50).forEach((group, i) => {
    fields.push({ id: `m${i}`, kind: 'multi_option', label: LABEL.options, options: group.map((v) => ({ value: `o${v.id}`, label: v.payload })) });
    answers[`m${i}`] = group.map((v) => `o${v.id}`);
    fields.push({ id: `g${i}`, kind: 'multi_option', label: LABEL.gone, options: [{ value: 'kept', label: 'Kept' }] });
    answers[`g${i}`] = group.map((v) => v.payload);
  });
  chunks(vectors, 20).forEach((group, i) => {
    fields.push({ id: `tb${i}`, kind: 'table', label: LABEL.table, columns: group.map((v) => ({ id: `col${v.id}`, label: v.payload })) });
    answers[`tb${i}`] = [Object.fromEntries(group.map((v) => [`col${v.id}`, v.payload]))];
    fields.push({ id: `r${i}`, kind: 'related_forms', label: LABEL.related, related_form_ids: group.map(relatedId) });
    answers[`r${i}`] = group.map(relatedId);
  });
  /** The forms' names as the replica's lookups give them (what a related_forms question shows). */
  const formNames = vectors.map((v) => ({ id: relatedId(v), name: v.payload }));
  return { fields, answers: answers as Answers, formNames };
}

/** The answer cells of the questions labelled `label`. */
const answersOf = (label: string) => (root: Element) =>
  [...root.querySelectorAll('.form-view__item')].filter((item) => item.querySelector('dt')?.textContent === label).map((item) => item.querySelector('dd')!);
const textAnswers = (root: Element) =>
  [...root.querySelectorAll('.form-view__item')].filter((item) => !Object.values(LABEL).includes(item.querySelector('dt')?.textContent as never)).map((item) => item.querySelector('dd')!);

/** What a filled form shows read-only (FormView), field by field. */
export function formViewChecks(where: string, vectors: readonly XssVector[]): FieldCheck[] {
  return [
    { field: `${where}: heading`, selector: '.form-heading', vectors },
    { field: `${where}: heading help`, selector: '.form-heading__help', vectors },
    { field: `${where}: question`, selector: 'dt.form-view__question', vectors },
    { field: `${where}: unknown row's label`, selector: '.form-unknown__label', vectors },
    { field: `${where}: text answer`, selector: textAnswers, vectors },
    { field: `${where}: long text answer`, selector: answersOf(LABEL.words), vectors },
    { field: `${where}: colour answer that is not a colour`, selector: answersOf(LABEL.colour), vectors },
    { field: `${where}: chosen option`, selector: answersOf(LABEL.options), vectors },
    { field: `${where}: option no longer offered`, selector: answersOf(LABEL.gone), vectors },
    { field: `${where}: table column`, selector: '.form-view__table th', vectors },
    { field: `${where}: table cell`, selector: '.form-view__table td', vectors },
    { field: `${where}: related form's name`, selector: answersOf(LABEL.related), vectors },
  ];
}

/** What a form being filled in shows (FormFill), with the answers as its starting values. */
export function formFillChecks(where: string, vectors: readonly XssVector[]): FieldCheck[] {
  const controls = (label: string, selector: string) => (root: Element) =>
    [...root.querySelectorAll('[data-field-id]')].filter((field) => field.querySelector('.field__label')?.textContent?.startsWith(label)).flatMap((field) => [...field.querySelectorAll(selector)]);
  return [
    { field: `${where}: heading`, selector: '.form-heading', vectors },
    { field: `${where}: heading help`, selector: '.form-heading__help', vectors },
    { field: `${where}: question`, selector: '[data-field-id] .field__label', vectors },
    { field: `${where}: question help`, selector: '[data-field-id] .field__hint', vectors },
    { field: `${where}: unknown row's label`, selector: '.form-unknown__label', vectors },
    { field: `${where}: text answer (field value)`, selector: '[data-field-id^="t"] input', vectors },
    { field: `${where}: long text answer (field value)`, selector: controls(LABEL.words, 'textarea'), vectors },
    { field: `${where}: colour code that is not a colour (field value)`, selector: controls(LABEL.colour, 'input[type="text"]'), vectors },
    { field: `${where}: option`, selector: controls(LABEL.options, 'label'), vectors },
    { field: `${where}: table column`, selector: controls(LABEL.table, 'th, label'), vectors },
    { field: `${where}: table cell (field value)`, selector: controls(LABEL.table, 'input, textarea'), vectors },
    { field: `${where}: related form's name`, selector: controls(LABEL.related, 'label'), vectors },
  ];
}
