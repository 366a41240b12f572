import { describe, expect, it } from 'vitest';
import { answersSchemaFor, formFieldsSchema, formMessages, ownAnswers } from '../../src/contract/forms';
import { parseJsonText } from '../../src/contract/json-text';

/**
 * The answer rule the server checks objectives' and form documents' answers with (contract
 * forms.ts), with keys that mean something to a plain object. No seeded form has a field called
 * "constructor" or "prototype" (forms are not made over the API), but the field id pattern allows
 * them: they must be ordinary answers. "__proto__" (never a field id) is refused in JSON text
 * (tasks.test.ts, documents-submissions.test.ts, documents.test.ts go through the endpoints).
 */
const fields = formFieldsSchema.parse([
  { id: 'constructor', kind: 'text', label: 'Who built it', required: true },
  { id: 'prototype', kind: 'yes_no', label: 'A first try?' },
  { id: 'to_string', kind: 'text', label: 'Words' },
]);
const errorsOf = (answers: unknown, complete: boolean) => {
  const r = answersSchemaFor(fields, { complete }).safeParse(answers);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.') || '_', i.message]));
};

describe('answers keys are own keys only', () => {
  it('a required field "constructor" is not answered by Object.prototype.constructor', () => {
    expect(errorsOf({}, true)).toEqual({ constructor: formMessages.required });
    expect(errorsOf({}, false)).toEqual({});
    expect(errorsOf({ constructor: 'Sam', prototype: 'yes' }, true)).toEqual({});
    expect(errorsOf({ constructor: 42 }, true)).toHaveProperty('constructor');
    expect(errorsOf(JSON.parse('{"constructor": "Sam", "__proto__": {"to_string": "x"}}'), true)).toHaveProperty('_');
  });

  it('ownAnswers merges any key as an answer, never as a prototype', () => {
    const merged = ownAnswers({ constructor: 'Sam' });
    for (const [key, value] of Object.entries(JSON.parse('{"__proto__": {"polluted": true}, "prototype": "no"}') as Record<string, unknown>)) merged[key] = value;
    expect(Object.getPrototypeOf(merged)).toBeNull();
    expect(Object.keys(merged).sort()).toEqual(['__proto__', 'constructor', 'prototype']);
    expect((merged as { polluted?: unknown }).polluted).toBeUndefined();
    expect(JSON.stringify(merged)).toContain('"__proto__":{"polluted":true}');
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('parseJsonText refuses "__proto__" at any depth and parses everything else', () => {
    expect(parseJsonText('{"__proto__": {}}')).toEqual({ ok: false, problem: 'reserved_key' });
    expect(parseJsonText('[[{"a": [{"__proto__": 1}]}]]')).toEqual({ ok: false, problem: 'reserved_key' });
    expect(parseJsonText('{oops')).toEqual({ ok: false, problem: 'not_json' });
    expect(parseJsonText('{"constructor": {"prototype": 1}, "proto": "__proto__"}')).toEqual({ ok: true, value: { constructor: { prototype: 1 }, proto: '__proto__' } });
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(parseJsonText(deep).ok).toBe(true);
  });
});
