/**
 * JSON that a client sends as text in a form field: an objective's or a form document's `answers`,
 * a book, a gallery's `items`. `JSON.parse` keeps a key "__proto__" as an own property, and code
 * that copies such an object on with `copy[key] = value` replaces the copy's prototype instead:
 * answers that pass a check by inheritance and vanish when stored. The JSON body parser
 * (secure-json-parse) and the query-string parser (query-string.ts) refuse such keys; so does
 * this, at any depth. ("constructor" and "prototype" may be field ids, `^[a-z][a-z0-9_]*$`: they
 * stay ordinary keys, and answers are read and merged as objects without a prototype, forms.ts
 * `ownAnswers`.)
 */
export const RESERVED_JSON_KEY = '__proto__';

export type JsonText = { ok: true; value: unknown } | { ok: false; problem: 'not_json' | 'reserved_key' };

/** Whether an object anywhere in a parsed JSON value has an own "__proto__" key (no recursion: any depth). */
export function hasReservedKey(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (Object.hasOwn(v, RESERVED_JSON_KEY)) return true;
    for (const child of Object.values(v)) stack.push(child);
  }
  return false;
}

/** JSON text parsed, or why not: not JSON, or a "__proto__" key somewhere in it. */
export function parseJsonText(text: string): JsonText {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return { ok: false, problem: 'not_json' };
  }
  return hasReservedKey(value) ? { ok: false, problem: 'reserved_key' } : { ok: true, value };
}
