import { maxHeaderSize, request as httpRequest } from 'node:http';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

/**
 * The pieces of the route fuzz (tests/server/fuzz-routes.test.ts, issue 12): the routes read from
 * Fastify's own table, the field names and values read from the shared contract, the hostile
 * values, the request generators (fast-check) and a raw HTTP sender that neither normalises paths
 * nor refuses odd bytes, so what is generated is what the server receives.
 */

// ---------------------------------------------------------------------------------------------
// Routes: Fastify's table, so a route added later is fuzzed without anyone listing it.

export interface TableRoute {
  /** The Fastify pattern with its prefix, e.g. `/api/v1/users/:id`, `/*`. */
  pattern: string;
  /** The methods registered on it, HEAD included. */
  methods: string[];
}

/**
 * Every path with at least one method, read from `printRoutes({ commonPrefix: false })` the way
 * tests/server/routes-table.test.ts reads it: four characters of indent per level, a branch
 * (`├── ` or `└── `), the path piece below its parent, the methods in brackets.
 */
export function routeTable(app: FastifyInstance): TableRoute[] {
  const stack: string[] = [];
  const found: TableRoute[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:│ {3}| {4})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    stack.length = match[1]!.length / 4;
    stack.push(match[2]!);
    if (!match[3]) continue;
    const joined = stack.join('');
    // The top-level catch-all prints as `*` below `/`.
    const pattern = joined.replace(/^\/\//, '/');
    found.push({ pattern, methods: match[3].split(',').map((m) => m.trim()) });
  }
  return found;
}

/** The `:name` and `*` pieces of a pattern, in order. */
export const patternParams = (pattern: string): string[] => pattern.match(/:[A-Za-z_]+|\*/g) ?? [];

// ---------------------------------------------------------------------------------------------
// The contract's vocabulary: every object key and every enum or literal string of every zod
// schema exported by src/contract/*.ts, walked at test start (no list of routes or schemas).

export interface Vocabulary {
  keys: string[];
  values: string[];
  /** The enum and literal strings a key of some object schema takes (`module` → journal, voice...). */
  valuesByKey: Record<string, string[]>;
}

type Def = Record<string, unknown> & { type: string };
const defOf = (schema: z.ZodType) => schema._zod.def as unknown as Def;

/** The enum and literal strings of a schema, through optional, nullable, default, arrays, pipes and unions. */
function enumStrings(schema: unknown, depth = 0): string[] {
  if (!(schema instanceof z.ZodType) || depth > 6) return [];
  const def = defOf(schema);
  if (def.type === 'enum') return Object.values(def.entries as object).filter((v): v is string => typeof v === 'string');
  if (def.type === 'literal') return (def.values as unknown[]).filter((v): v is string => typeof v === 'string');
  const inner = [def.innerType, def.element, def.in, def.out, ...((def.options as unknown[] | undefined) ?? [])];
  return inner.flatMap((child) => enumStrings(child, depth + 1));
}

export function contractVocabulary(modules: Record<string, Record<string, unknown>>): Vocabulary {
  const keys = new Set<string>();
  const values = new Set<string>();
  const valuesByKey: Record<string, string[]> = {};
  const seen = new WeakSet<object>();
  const walk = (value: unknown, depth: number): void => {
    if (value === null || (typeof value !== 'object' && typeof value !== 'function') || depth > 60 || seen.has(value)) return;
    seen.add(value);
    if (value instanceof z.ZodType) {
      const def = defOf(value);
      if (def.type === 'object') {
        for (const [key, field] of Object.entries(def.shape as Record<string, unknown>)) {
          keys.add(key);
          const options = listFor(valuesByKey, key);
          for (const option of enumStrings(field)) if (!options.includes(option)) options.push(option);
        }
      }
      for (const option of enumStrings(value)) values.add(option);
      for (const child of Object.values(def)) walk(child, depth + 1);
    } else if (Array.isArray(value)) {
      for (const child of value) walk(child, depth + 1);
    } else if (Object.getPrototypeOf(value) === Object.prototype) {
      for (const child of Object.values(value)) walk(child, depth + 1);
    }
  };
  for (const exports of Object.values(modules)) for (const exported of Object.values(exports)) walk(exported, 0);
  return {
    keys: [...keys].sort(),
    values: [...values].sort(),
    valuesByKey,
  };
}

// ---------------------------------------------------------------------------------------------
// Hostile values.

/** A megabyte of text: under the 1 MiB body limit on its own, over it twice. */
export const ONE_MB = 'x'.repeat(1_000_000);

export const HOSTILE_STRINGS: readonly string[] = [
  '', ' ', '\u0000', 'a\u0000b', '\ud800', 'x\udc00y', 'half \ud83d', '🥞', '\ufeff', '\u202eevil', 'e\u0301', '\r\n', '\u001b[2J',
  '%00', '%', '..', '../../etc/passwd', '..\\..\\boot.ini', '/etc/passwd', 'file:///etc/passwd', 'http://169.254.169.254/latest/meta-data',
  'javascript:alert(1)', '<script>alert(1)</script>', '<img src=x onerror=alert(1)>', "' OR '1'='1", "'; DROP TABLE users; --", '"', '\\',
  '${jndi:ldap://x/a}', '{{7*7}}', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty',
  'NaN', 'Infinity', '-0', '1e309', '9'.repeat(400), '-1', '0', '0x10', '1.5', 'true', 'null', 'undefined', '[]', '{}',
  '2026-02-30', '0000-01-01', '9999-12-31T23:59:59.999999Z', '2026-13-45T99:99:99Z', '24:00', '99:99', '-271821-04-20',
  '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', 'a'.repeat(5001), 'y'.repeat(70_000),
];

/** Raw path segments (sent as they are: the sender never normalises). */
export const HOSTILE_SEGMENTS: readonly string[] = [
  '..%2F..%2Fetc%2Fpasswd', '%2e%2e%2f%2e%2e%2f', '..', '.', '%00', 'a%00b', '%ED%A0%80', '%FF', '%', '%zz', '%C0%AE%C0%AE',
  'x'.repeat(3000), 'not-a-uuid', '0', '-1', '1e3', '%20', 'null', 'undefined', '00000000-0000-0000-0000-000000000000',
  'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF', ';x=1', '%3B', '%2F', '%23', '%3F', '\u00ff', '..;', '*', '%F0%9F%A5%9E', "'", '"', '__proto__',
  'constructor', '[object%20Object]',
];

/** Paths for the catch-all (`/*`): the PWA's files, traversals, odd encodings. */
const WILDCARD_TRICKS: readonly string[] = [
  '../../../../etc/passwd', '..%2f..%2f..%2fetc%2fpasswd', '%2e%2e/%2e%2e/etc/passwd', '/etc/passwd', 'assets/../../package.json',
  'assets/..%2f..%2fpackage.json', 'assets/index-abc123.js', 'assets/index-abc123.js%00.html', 'sw.js', 'manifest.webmanifest', 'index.html',
  'index.html/', 'api', 'api/../api/v1/auth/user', 'api/%2e%2e/server/app.ts', '%ff', `${'a/'.repeat(500)}b`, '.env', 'data/app.key',
  '\\..\\..\\windows\\win.ini', 'assets/%00', 'assets/', '~', '.git/config',
];

/** Idempotency keys: fresh, repeated (a replay with another body) and malformed. */
const REPEATED_KEY = '7d4a4c38-8f0e-4a7e-9b3e-0c5d1f2a6b11';

// ---------------------------------------------------------------------------------------------
// Encoding.

/** Percent-encodes like encodeURIComponent, but a lone surrogate becomes its WTF-8 bytes instead of throwing. */
export function percent(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      out += encodeURIComponent(text.slice(i, i + 2));
      i++;
    } else if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    } else {
      out += encodeURIComponent(text[i]!);
    }
  }
  return out;
}

/** JSON text for a string, lone surrogates escaped (JSON.stringify does that since ES2019). */
const jsonString = (text: string) => JSON.stringify(text);

// ---------------------------------------------------------------------------------------------
// Generated requests.

export interface FuzzRequest {
  method: string;
  /** Path and query exactly as sent. */
  path: string;
  headers: Record<string, string>;
  body: Buffer | null;
  /** What kind of body this is (for the report). */
  kind: string;
}

export interface FuzzPools {
  vocabulary: Vocabulary;
  /** Ids the personas can see (fetched through the API). */
  ownIds: string[];
  /** Ids of another home and another site. */
  otherIds: string[];
  /** Values the server's own answers hold, as JSON text, by key (observe()). */
  seen: Record<string, string[]>;
  /** Ids by the path segment they likely follow (`entries` → entry ids; fileIds()). */
  idsBySegment: Record<string, string[]>;
  /** Field names each route named in its 422 (a write's body fields, a GET's query fields), by `METHOD pattern`. */
  routeFields: Record<string, string[]>;
  /** File contents for multipart parts: a PNG, a JPEG, a PDF, a PNG claiming 30,000 × 30,000 pixels... */
  files: Buffer[];
}

/** A record's own list for a key, or none (the keys here include `constructor` and `__proto__`). */
const own = (record: Record<string, string[]>, key: string): string[] => (Object.hasOwn(record, key) ? record[key]! : []);

/** A record's own list for a key, made when missing (as an own property, even for `__proto__`). */
function listFor(record: Record<string, string[]>, key: string): string[] {
  if (!Object.hasOwn(record, key)) Object.defineProperty(record, key, { value: [], enumerable: true, writable: true, configurable: true });
  return record[key]!;
}

/** Records the values of every key of a JSON answer (at most 6 short ones per key) into `seen`. */
export function observe(value: unknown, seen: Record<string, string[]>): void {
  if (value === null || typeof value !== 'object') return;
  for (const [key, child] of Array.isArray(value) ? value.map((v) => ['', v] as const) : Object.entries(value)) {
    if (key) {
      const text = JSON.stringify(child);
      const list = listFor(seen, key);
      if (text !== undefined && text.length <= 400 && list.length < 6 && !list.includes(text)) list.push(text);
    }
    observe(child, seen);
  }
}

const IS_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The path segment a key's ids would follow: `resident` → residents, `entry` → entries, `reward_exchange` → reward-exchanges. */
const segmentOf = (key: string) => {
  const name = key.replace(/_/g, '-');
  return name.endsWith('s') ? name : name.endsWith('y') ? `${name.slice(0, -1)}ies` : `${name}s`;
};

function addId(into: Record<string, string[]>, segment: string, id: string): void {
  const list = listFor(into, segment);
  if (!list.includes(id.toLowerCase())) list.push(id.toLowerCase());
}

/**
 * Files the ids of a JSON answer under the path segments they would follow, by REST naming alone:
 * an `id` under `resident` goes to `residents`, a `reward_id` to `rewards`, the rows of a list
 * (`data`) to the route's own last segments (`/entries` → entries).
 */
export function fileIds(value: unknown, listSegments: string[], into: Record<string, string[]>, parentKey = 'data'): void {
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) fileIds(item, listSegments, into, parentKey);
    return;
  }
  for (const [key, child] of Object.entries(value)) {
    if (typeof child === 'string' && IS_UUID.test(child)) {
      if (key === 'id') for (const segment of parentKey === 'data' ? listSegments : [segmentOf(parentKey)]) addId(into, segment, child);
      else if (key.endsWith('_id')) addId(into, segmentOf(key.slice(0, -3)), child);
    } else {
      // A map keyed by ids (`{ "<uuid>": {...} }`) says nothing of where they go.
      fileIds(child, listSegments, into, IS_UUID.test(key) ? parentKey : key);
    }
  }
}

/** The literal segments a list route's rows belong to: its last, or all after its last parameter. */
export function listSegments(pattern: string): string[] {
  const segments = pattern.split('/').filter(Boolean);
  const lastParam = segments.findLastIndex((s) => s.startsWith(':'));
  return lastParam === -1 ? segments.slice(-1) : segments.slice(lastParam + 1);
}

/** For each parameter of a pattern, the ids filed under the segment before it (empty when none). */
export function paramCandidates(pattern: string, idsBySegment: Record<string, string[]>): string[][] {
  const segments = pattern.split('/');
  return segments.flatMap((segment, i) => (segment.startsWith(':') ? [own(idsBySegment, segments[i - 1] ?? '')] : []));
}

/** A body of the fields with the first value the server answered for each (or its first enum value), as JSON text. */
export function plausibleBody(fields: string[], pools: Pick<FuzzPools, 'seen' | 'vocabulary'>): string {
  return objectText(fields.flatMap((key) => {
    const value = own(pools.seen, key)[0] ?? own(pools.vocabulary.valuesByKey, key).map(jsonString)[0];
    return value === undefined ? [] : [[key, value] as const];
  }));
}

/** Every key of the contract as a two-item list (`k[0]=a&k[1]=b`): a route's 422 to it names the query fields it reads. */
export const queryProbe = (vocabulary: Vocabulary) =>
  vocabulary.keys
    .filter((key) => !['_method', '__proto__', 'constructor', 'prototype'].includes(key))
    .map((key) => `${percent(key)}[0]=a&${percent(key)}[1]=b`)
    .join('&');

/** The field names of a 422's `errors` (`answers.x` counts as `answers`). */
export function errorFields(excerpt: string): string[] {
  try {
    const errors = (JSON.parse(excerpt) as { errors?: Record<string, unknown> }).errors ?? {};
    return Object.keys(errors).map((key) => key.split('.')[0]!);
  } catch {
    return [];
  }
}

const ANY_WORDS = ['_method', 'id', 'file_id', 'module', 'resident_id', '__proto__', 'constructor', 'prototype'];
const NO_BODY = { contentType: null, body: null, kind: 'no body' } as const;
type Body = { contentType: string | null; body: Buffer | null; kind: string };

/** An object as JSON text from [key, value text] pairs: `__proto__` stays an own key, duplicates stay duplicated. */
const objectText = (pairs: readonly (readonly [string, string])[]) => `{${pairs.map(([k, v]) => `${jsonString(k)}:${v}`).join(',')}}`;

/**
 * The request generators over one set of pools. Bodies favour the fields a route named when asked
 * (`routeFields`) with values the server itself answered for those keys (`seen`) or the contract's
 * enum values for them, so many requests pass validation but one field; the rest is hostile.
 */
export function createFuzzer(pools: FuzzPools) {
  /** A string value: hostile, from the contract's enums, an id, arbitrary text, or the megabyte (rarely). */
  const textValue: fc.Arbitrary<string> = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
    { weight: 4, arbitrary: fc.constantFrom(...pools.vocabulary.values) },
    { weight: 3, arbitrary: fc.constantFrom(...pools.ownIds, ...pools.otherIds) },
    { weight: 2, arbitrary: fc.string({ maxLength: 30 }) },
    { weight: 1, arbitrary: fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 12 }) },
    { weight: 1, arbitrary: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()) },
    { weight: 1, arbitrary: fc.constant(ONE_MB) },
  );

  /** A field name: the contract's keys first, then hostile and arbitrary ones. */
  const fieldName: fc.Arbitrary<string> = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...pools.vocabulary.keys) },
    { weight: 2, arbitrary: fc.constantFrom(...ANY_WORDS) },
    { weight: 1, arbitrary: fc.constantFrom('k\u0000', '\ud800', '', 'a.b', 'a[b]', 'x'.repeat(2000)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  );

  /** One JSON value as text, hostile leaves, nested at most three deep. */
  const leaf = fc.oneof(
    { weight: 6, arbitrary: textValue.map(jsonString) },
    { weight: 2, arbitrary: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, -1, 1e308, -1e308, 2 ** 53 + 1, 0.5, 1e-300)).map(String) },
    { weight: 1, arbitrary: fc.constantFrom('true', 'false', 'null', '[]', '{}') },
  );
  const { jsonText } = fc.letrec<{ jsonText: string }>((tie) => ({
    jsonText: fc.oneof(
      { depthSize: 'small', maxDepth: 3 },
      { weight: 5, arbitrary: leaf },
      { weight: 1, arbitrary: fc.array(tie('jsonText'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`) },
      { weight: 1, arbitrary: fc.array(fc.tuple(fieldName, tie('jsonText')), { maxLength: 5 }).map(objectText) },
    ),
  }));

  /** A value for this key, as JSON text: one the server answered for it, one of its enum values, or anything. */
  const valueCache = new Map<string, fc.Arbitrary<string>>();
  const valueFor = (key: string): fc.Arbitrary<string> => {
    let arbitrary = valueCache.get(key);
    if (!arbitrary) {
      const seen = own(pools.seen, key);
      const enums = own(pools.vocabulary.valuesByKey, key);
      arbitrary = fc.oneof(
        { weight: 4, arbitrary: jsonText },
        ...(seen.length ? [{ weight: 6, arbitrary: fc.constantFrom(...seen) }] : []),
        ...(enums.length ? [{ weight: 3, arbitrary: fc.constantFrom(...enums).map(jsonString) }] : []),
      );
      valueCache.set(key, arbitrary);
    }
    return arbitrary;
  };

  /** [key, JSON text] pairs: some of the route's own fields, and a few others. */
  const fieldsOf = (fields: string[]): fc.Arbitrary<(readonly [string, string])[]> => {
    const named = fc.subarray(fields).chain((keys) => fc.tuple(...keys.map((key) => valueFor(key).map((v) => [key, v] as const))));
    const others = fc.array(fieldName.chain((key) => valueFor(key).map((v) => [key, v] as const)), { maxLength: fields.length ? 2 : 6 });
    return fc.tuple(named, others).map(([a, b]) => [...a, ...b]);
  };

  /** Every field the route named, each with a value the server answered for it where there is one, then at most one made hostile. */
  const nearlyValid = (fields: string[]): fc.Arbitrary<(readonly [string, string])[]> => {
    const plausible = (key: string) => {
      const seen = own(pools.seen, key);
      const enums = own(pools.vocabulary.valuesByKey, key);
      return seen.length ? fc.constantFrom(...seen) : enums.length ? fc.constantFrom(...enums).map(jsonString) : valueFor(key);
    };
    return fc
      .tuple(fc.tuple(...fields.map((key) => plausible(key).map((v) => [key, v] as const))), fc.option(fc.tuple(fc.nat(), jsonText), { freq: 2 }))
      .map(([pairs, spoil]) => (spoil && pairs.length ? pairs.map((pair, i) => (i === spoil[0] % pairs.length ? ([pair[0], spoil[1]] as const) : pair)) : pairs));
  };

  /** A query: bracket keys, the route's own query fields (`fields`, for a GET) with plausible values, hostile ones; `_method` on POST. */
  function queryString(method: string, fields: string[]): fc.Arbitrary<string> {
    const key = fc.oneof(
      { weight: 4, arbitrary: fieldName.map(percent) },
      {
        weight: 4,
        arbitrary: fc.constantFrom(
          'filters[0][0]', 'filters[0][1]', 'filters[0][2]', 'filters[1][0]', 'filters[0][]', 'sort[0][0]', 'sort[0][1]', 'relations[]', 'relations[0]',
          'checkpoint[updated_at]', 'checkpoint[id]', 'checkpoint', 'checkpoint[]', 'search_term', 'with_trashed', 'per_page', 'resident_id', 'file_id',
          'module', 'start_date', 'end_date', 'date', 'status', '__proto__[polluted]', 'constructor[prototype][polluted]', 'a[__proto__]',
          'filters[999999]', 'filters[-1]', 'filters[0][0][0][0][0][0][0]', 'relations[0][x]', 'filters', 'sort', 'answers[x]',
        ),
      },
      { weight: 2, arbitrary: fc.tuple(fieldName, fieldName).map(([a, b]) => `${percent(a)}[${percent(b)}]`) },
      { weight: 1, arbitrary: fc.integer({ min: 6, max: 80 }).map((n) => `a${'[b]'.repeat(n)}`) },
    );
    const value = fc.oneof(
      { weight: 6, arbitrary: textValue.filter((v) => v.length < 100_000).map(percent) },
      { weight: 2, arbitrary: fc.constantFrom(...Object.values(pools.seen).flat()).map((text) => percent(plainText(text))) },
      { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%E0%A4%A', '%ED%A0%80', '%C0%AE', '%u0000', '+', '==', '%26', 'a&b', '%FF%FE') },
    );
    const named = fields.length ? [{ weight: 6, arbitrary: fc.constantFrom(...fields).chain((k) => valueFor(k).map((v) => `${percent(k)}=${percent(plainText(v))}`)) }] : [];
    const pair = fc.oneof({ weight: 8, arbitrary: fc.tuple(key, value).map(([k, v]) => `${k}=${v}`) }, { weight: 1, arbitrary: key }, ...named);
    const overrides: fc.Arbitrary<string | null> =
      method === 'POST'
        ? fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 2, arbitrary: fc.constant('PUT') }, { weight: 1, arbitrary: fc.constantFrom('put', 'DELETE', 'PATCH', 'GET', '', 'PUT%00', 'POST') })
        : fc.constant(null);
    const pairs = fc.oneof({ weight: 1, arbitrary: fc.constant<string[]>([]) }, { weight: 1, arbitrary: fc.array(pair, { minLength: 1, maxLength: 6 }) });
    return fc.tuple(pairs, overrides, fc.boolean()).map(([list, override, leading]) => {
      const all = override === null ? list : leading ? [`_method=${override}`, ...list] : [...list, `_method=${override}`];
      return all.join('&');
    });
  }

  /** A path for the pattern: each parameter an id or a hostile segment, the catch-all a path trick. */
  const ids = pools.ownIds;
  const segment = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...ids) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...ids), fc.constantFrom('x', '%00', '/', '%2F..', '.json', '/..', '%20')).map(([id, tail]) => id + tail) },
    { weight: 1, arbitrary: fc.constantFrom(...ids).map((id) => id.toUpperCase()) },
    { weight: 2, arbitrary: fc.constantFrom(...pools.otherIds) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS) },
    { weight: 1, arbitrary: fc.constantFrom(...pools.vocabulary.values).map(percent) },
    { weight: 1, arbitrary: textValue.filter((v) => v.length < 5000).map(percent) },
  );
  const wildcard = fc.oneof(fc.constantFrom(...WILDCARD_TRICKS), fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => s.join('/')));
  /** Each parameter: often an id filed under the segment before it (a real entry for `entries/:id`), else any segment. */
  const pathFor = (pattern: string): fc.Arbitrary<string> => {
    const candidates = paramCandidates(pattern, pools.idsBySegment);
    let param = 0;
    const parts = patternParams(pattern).map((p) => {
      if (p === '*') return wildcard;
      const likely = candidates[param++] ?? [];
      return likely.length ? fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...likely) }, { weight: 1, arbitrary: segment }) : segment;
    });
    return fc.tuple(...parts).map((values) => {
      let i = 0;
      return pattern.replace(/:[A-Za-z_]+|\*/g, () => values[i++]!);
    });
  };

  /** A multipart body: well formed with hostile parts, or broken in one of the ways busboy meets. */
  function multipartBody(fields: string[]): fc.Arbitrary<Body> {
    const name = fc.oneof(
      { weight: 6, arbitrary: fieldName },
      { weight: 2, arbitrary: fc.constantFrom('files[0]', 'files[1]', 'files[]', 'files', 'canvas', 'image', 'file', 'files[cover]', 'files[../x]', 'answers', 'shared_with[]', '_method') },
      { weight: 1, arbitrary: fc.constantFrom(...ids).map((id) => `answers[${id}]`) },
      { weight: 1, arbitrary: fc.constantFrom('a"b', 'a\r\nContent-Type: text/html', '__proto__', 'constructor[prototype]', '') },
    );
    const fileName = fc.constantFrom('a.png', 'a.jpg', 'a.pdf', '../../etc/passwd', 'a\u0000.png', '', '.png', 'a.PNG.exe', `${'n'.repeat(1000)}.png`, 'é.png', 'a".png', 'a.svg', 'a.html');
    const fileType = fc.constantFrom('image/png', 'image/jpeg', 'application/pdf', 'text/html', 'image/svg+xml', 'application/x-msdownload', null, 'image/png; charset=x');
    const fileData = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...pools.files) },
      { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)) },
      { weight: 1, arbitrary: fc.constantFrom(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), Buffer.from('\x89PNG\r\n\x1a\n'), Buffer.alloc(0), Buffer.from('%PDF-')) },
    );
    const file = fc.record({ name, value: fc.record({ filename: fileName, type: fileType, data: fileData }) });
    const text = fc.record({ name, value: fc.oneof({ weight: 4, arbitrary: textValue }, { weight: 1, arbitrary: jsonText }) });
    const textParts = (fields.length ? fc.oneof(fieldsOf(fields), nearlyValid(fields)) : fieldsOf(fields)).map((pairs) => pairs.map(([key, value]): Part => ({ name: key, value: plainText(value) })));
    const boundary = fc.constantFrom('----fuzz7MA4YWxkTrZu0gW', 'XyZ', 'b'.repeat(70), 'b'.repeat(200), 'a b', '"quoted"');
    return fc
      .record({
        fieldParts: textParts,
        parts: fc.array(fc.oneof({ weight: 1, arbitrary: text }, { weight: 2, arbitrary: file }), { maxLength: 4 }),
        boundary,
        breakage: fc.constantFrom('none', 'none', 'none', 'none', 'none', 'no-boundary', 'other-boundary', 'truncated', 'no-closing', 'empty', 'many-parts'),
        cut: fc.nat(),
      })
      .map(({ fieldParts, parts, boundary: b, breakage, cut }) => {
        const bare = b.replace(/^"|"$/g, '');
        const list: Part[] = [...(breakage === 'many-parts' ? Array.from({ length: 130 }, (_, i) => ({ name: `f${i}`, value: 'v' })) : []), ...fieldParts, ...parts];
        const chunks: Buffer[] = [];
        for (const p of list) {
          const disposition = typeof p.value === 'string' ? `form-data; name="${p.name}"` : `form-data; name="${p.name}"; filename="${p.value.filename}"`;
          const type = typeof p.value === 'string' || p.value.type === null ? '' : `Content-Type: ${p.value.type}${CRLF}`;
          chunks.push(Buffer.from(`--${bare}${CRLF}Content-Disposition: ${disposition}${CRLF}${type}${CRLF}`, 'utf8'));
          chunks.push(typeof p.value === 'string' ? Buffer.from(p.value, 'utf8') : p.value.data);
          chunks.push(Buffer.from(CRLF));
        }
        if (breakage !== 'no-closing') chunks.push(Buffer.from(`--${bare}--${CRLF}`));
        let body = Buffer.concat(chunks);
        if (breakage === 'truncated' && body.length > 1) body = body.subarray(0, cut % body.length);
        if (breakage === 'empty') body = Buffer.alloc(0);
        const contentType =
          breakage === 'no-boundary' ? 'multipart/form-data' : breakage === 'other-boundary' ? 'multipart/form-data; boundary=somethingelse' : `multipart/form-data; boundary=${b}`;
        return { contentType, body, kind: `multipart/${breakage} (${list.length} parts)` };
      });
  }

  /** A body for a method that takes one: JSON of every shape, broken JSON, other content types, multipart. */
  function bodyFor(fields: string[]): fc.Arbitrary<Body> {
    const json = (kind: string, text: fc.Arbitrary<string>) => text.map((t): Body => ({ contentType: 'application/json', body: Buffer.from(t, 'utf8'), kind }));
    return fc.oneof(
      { weight: 1, arbitrary: fc.constant(NO_BODY) },
      { weight: 6, arbitrary: json('json object of the route’s and the contract’s fields', fieldsOf(fields).map(objectText)) },
      ...(fields.length ? [{ weight: 4, arbitrary: json('json object of the route’s fields, nearly valid', nearlyValid(fields).map(objectText)) }] : []),
      { weight: 1, arbitrary: json('json value', fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? 'null')) },
      {
        weight: 1,
        arbitrary: json(
          'deeply nested json',
          fc.tuple(fc.integer({ min: 30, max: 250 }), fc.boolean(), fieldName).map(([depth, arrays, k]) => (arrays ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${`{${jsonString(k)}:`.repeat(depth)}1${'}'.repeat(depth)}`)),
        ),
      },
      {
        weight: 1,
        arbitrary: json(
          'a megabyte field',
          fc.tuple(fields.length ? fc.constantFrom(...fields) : fieldName, fc.constantFrom(1, 2)).map(([k, n]) => objectText(Array.from({ length: n }, (_, i) => [`${k}${i || ''}`, jsonString(ONE_MB)] as const))),
        ),
      },
      {
        weight: 1,
        arbitrary: json(
          'broken or prototype json',
          fc.constantFrom('{', '{"a":', 'nul', '[1,]', '{"a":1}}', '"\\ud800"', '\u0000', '{"__proto__":{"isAdmin":true}}', '{"constructor":{"prototype":{"x":1}}}', '', '   ', '1e999', '{"a":1,"a":2}', '\ufeff{}'),
        ),
      },
      {
        weight: 1,
        arbitrary: fieldsOf(fields).map(
          (pairs): Body => ({ contentType: 'application/x-www-form-urlencoded', body: Buffer.from(pairs.map(([k, v]) => `${percent(k)}=${percent(plainText(v))}`).join('&'), 'latin1'), kind: 'url-encoded' }),
        ),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(
            fc.constantFrom('text/plain', 'application/xml', 'application/json; charset=utf-16', 'application/json, text/plain', 'multipart/mixed; boundary=x', 'application/octet-stream', '', 'application/vnd.api+json'),
            fieldsOf(fields).map(objectText),
          )
          .map(([contentType, t]): Body => ({ contentType, body: Buffer.from(t, 'utf8'), kind: `other content type (${contentType || 'empty'})` })),
      },
      { weight: 4, arbitrary: multipartBody(fields) },
    );
  }

  /** Requests for one method of one route. */
  function requestFor(route: { pattern: string; method: string; alsoHead: boolean; key: string }): fc.Arbitrary<FuzzRequest> {
    const fields = own(pools.routeFields, route.key);
    const method = route.alsoHead ? fc.constantFrom(route.method, route.method, route.method, 'HEAD') : fc.constant(route.method);
    const body =
      route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH'
        ? bodyFor(fields)
        : route.method === 'DELETE'
          ? fc.oneof({ weight: 3, arbitrary: fc.constant(NO_BODY) }, { weight: 1, arbitrary: bodyFor(fields) })
          : fc.constant(NO_BODY);
    const headers = fc.record(
      {
        accept: fc.constantFrom('application/json', 'application/json', 'text/html', '*/*', 'text/event-stream', 'application/json;q=0, */*;q=0.1'),
        'accept-encoding': fc.constantFrom('br, gzip', 'gzip', 'identity;q=0', 'deflate', 'x'),
        'idempotency-key': fc.oneof(
          { weight: 6, arbitrary: fc.uuid() },
          { weight: 1, arbitrary: fc.constant(REPEATED_KEY) },
          { weight: 1, arbitrary: fc.constantFrom('x', 'k'.repeat(600), '\u00ff\u00fe', '00000000-0000-0000-0000-000000000000') },
        ),
        range: fc.constantFrom('bytes=0-', 'bytes=-1', 'bytes=999999999-', 'bytes=5-1', 'bytes=0-1,2-3', 'bytes=abc', 'items=0-1'),
        'if-none-match': fc.constantFrom('*', '"x"', 'W/"'),
        'if-modified-since': fc.constantFrom('garbage', 'Thu, 01 Jan 1970 00:00:00 GMT'),
      },
      { requiredKeys: ['accept'] },
    );
    return fc
      .record({ method, path: pathFor(route.pattern), query: queryString(route.method, route.method === 'GET' ? fields : []), body, headers })
      .map(({ method: m, path, query, body: b, headers: h }): FuzzRequest => {
        const all: Record<string, string> = { ...h };
        if (b.contentType !== null) all['content-type'] = b.contentType;
        return { method: m, path: query ? `${path}?${query}` : path, headers: all, body: b.body, kind: b.kind };
      });
  }

  return { requestFor };
}

/** A JSON text as a form sends it: a string as itself, anything else as its JSON. */
function plainText(text: string): string {
  return text.startsWith('"') ? (JSON.parse(text) as string) : text;
}

const CRLF = '\r\n';

interface Part {
  name: string;
  value: string | { filename: string; type: string | null; data: Buffer };
}

/** The request as fast-check prints it in a counterexample (short: the megabytes as `.repeat`). */
export function withShortPrint(req: FuzzRequest): FuzzRequest {
  return Object.assign(req, { [fc.toStringMethod]: () => `${req.method} ${shorten(req.path)} [${req.kind}]` });
}

// ---------------------------------------------------------------------------------------------
// Sending.

export interface Answer {
  status: number;
  /** The start of the answer (2 KB unless asked for more). */
  excerpt: string;
}

/**
 * Sends the request as it is (node:http: no path normalisation, latin-1 bytes allowed) with the
 * persona's cookie and CSRF headers, each on its own connection (a connection the server closed
 * after a 413 or a 431 is never reused). An event stream is closed once its headers arrive.
 * Rejects when no answer comes within `timeoutMs` or the connection ends without one.
 */
export function send(base: URL, req: FuzzRequest, auth: Record<string, string>, timeoutMs: number, keepBytes = 2048): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const outgoing = httpRequest(
      // Content-Length always: node:http sends a DELETE body without one, and the server reads it as the next request.
      { host: base.hostname, port: base.port, method: req.method, path: req.path, headers: { ...req.headers, ...auth, ...(req.body ? { 'content-length': String(req.body.length) } : {}) }, agent: false },
      (res) => {
        answered = true;
        const status = res.statusCode ?? 0;
        if ((res.headers['content-type'] ?? '').includes('text/event-stream')) {
          res.destroy();
          resolve({ status, excerpt: '(event stream)' });
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < keepBytes) chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () => resolve({ status, excerpt: Buffer.concat(chunks).toString('utf8').slice(0, keepBytes) }));
        res.on('error', () => resolve({ status, excerpt: '(answer cut off)' }));
      },
    );
    outgoing.setTimeout(timeoutMs, () => outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    outgoing.on('error', (error) => {
      if (answered) return;
      // A request head over the server's limit is answered 431 and the connection closed, which a
      // client still writing its body may see first as a reset.
      const head = req.path.length + Object.entries(req.headers).reduce((sum, [k, v]) => sum + k.length + v.length + 4, 0);
      const reset = 'code' in error && (error.code === 'ECONNRESET' || error.code === 'EPIPE');
      if (reset && head > maxHeaderSize) resolve({ status: 431, excerpt: '(connection closed: request head too large)' });
      else reject(error);
    });
    outgoing.end(req.body ?? undefined);
  });
}

// ---------------------------------------------------------------------------------------------
// Reporting.

/** Long runs (`xxxx…`, `[[[[…`, `{"a":{"a":…`) as `.repeat` so a report stays readable and exact. */
export function jsExpression(text: string): string {
  const pieces: string[] = [];
  let literal = '';
  let i = 0;
  while (i < text.length) {
    let best: { unit: string; count: number } | null = null;
    for (let length = 1; length <= 12 && !best; length++) {
      const unit = text.slice(i, i + length);
      let count = 1;
      while (text.startsWith(unit, i + count * length)) count++;
      if (count * length >= 64 && count > 2) best = { unit, count };
    }
    if (best) {
      if (literal) pieces.push(JSON.stringify(literal));
      literal = '';
      pieces.push(`${JSON.stringify(best.unit)}.repeat(${best.count})`);
      i += best.unit.length * best.count;
    } else {
      literal += text[i];
      i++;
    }
  }
  if (literal || pieces.length === 0) pieces.push(JSON.stringify(literal));
  return pieces.join(' + ');
}

function shorten(text: string, max = 300): string {
  const expression = jsExpression(text);
  return expression.length > max ? `${expression.slice(0, max)}… (${text.length} chars)` : expression;
}

/** A node:http snippet that sends exactly this request again (cookies and CSRF token left to fill in). */
export function replaySnippet(base: URL, req: FuzzRequest, persona: string): string {
  const signedIn = persona === 'anonymous' ? '' : `, cookie: '<${persona}'s cookies>', 'x-xsrf-token': '<${persona}'s XSRF-TOKEN>'`;
  const headers = JSON.stringify({ ...req.headers, ...(req.body ? { 'content-length': String(req.body.length) } : {}) }).slice(0, -1) + signedIn + '}';
  const body = req.body === null ? '' : `Buffer.from(${jsExpression(req.body.toString('latin1'))}, 'latin1')`;
  return [
    `// as ${persona}`,
    `const r = require('node:http').request({ host: '${base.hostname}', port: ${base.port}, method: '${req.method}', path: ${jsExpression(req.path)}, headers: ${headers} },`,
    `  (res) => { console.log(res.statusCode); res.pipe(process.stdout); });`,
    `r.end(${body});`,
  ].join('\n');
}
