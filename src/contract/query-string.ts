/**
 * The bracket query strings of SPEC §7 list endpoints, both sides in one place: the PWA builds them
 * (`filters[i][j]`, `sort[i][j]`, `relations[i]`, `search_term` and other plain parameters) and the
 * server parses them (installed as Fastify's querystringParser; the multipart form bodies use it too).
 * tests/unit/query-string.test.ts checks that what one side writes the other reads back.
 *
 * What a round trip does not keep: every value comes back as a string (`2` → `'2'`, `true` →
 * `'true'`), and null comes back as the empty string (the builder writes `key=`).
 */

// ---------------------------------------------------------------------------------------------
// Building (the PWA). Keys and values are percent-encoded; brackets are kept readable
// (`filters[0][0]=updated_at`), which servers accept either way.

export type QueryValue = string | number | boolean | null | undefined;

export interface ListQuery {
  /** Each filter is a tuple such as `['updated_at', '>', '2024-01-01']` or `['locked_at', null]`. */
  filters?: readonly (readonly QueryValue[])[];
  /** Each sort is a tuple such as `['comment_id', 'desc']`. */
  sort?: readonly (readonly QueryValue[])[];
  relations?: readonly string[];
  /** Any other parameter: skipped when undefined; null becomes an empty value. */
  params?: Readonly<Record<string, QueryValue | readonly QueryValue[]>>;
}

const encodeKey = (key: string): string => encodeURIComponent(key).replace(/%5B/g, '[').replace(/%5D/g, ']');

const encodeValue = (value: QueryValue): string =>
  value === null || value === undefined ? '' : encodeURIComponent(String(value));

const pair = (key: string, value: QueryValue): string => `${encodeKey(key)}=${encodeValue(value)}`;

const matrix = (name: string, rows: readonly (readonly QueryValue[])[] | undefined): string[] =>
  (rows ?? []).flatMap((row, i) => row.map((value, j) => pair(`${name}[${i}][${j}]`, value)));

/** Returns the query string without the leading `?` (empty string when there is nothing). */
export function buildQueryString(query: ListQuery): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query.params ?? {})) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      (value as readonly QueryValue[]).forEach((item, i) => parts.push(pair(`${key}[${i}]`, item)));
    } else {
      parts.push(pair(key, value as QueryValue));
    }
  }
  parts.push(...matrix('filters', query.filters));
  parts.push(...matrix('sort', query.sort));
  (query.relations ?? []).forEach((relation, i) => parts.push(pair(`relations[${i}]`, relation)));
  return parts.join('&');
}

/** `path` plus `?query` when the query is not empty. */
export function withQuery(path: string, query: ListQuery): string {
  const qs = buildQueryString(query);
  if (!qs) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${qs}`;
}

// ---------------------------------------------------------------------------------------------
// Parsing (the server). A qs-style parser (the subset PHP and Laravel clients send): `a[b][0]=x`,
// `list[]=x&list[]=y`, and repeated plain keys become arrays. Fastify's default parser keeps
// brackets in the key names. Guarded: nesting at most 5 deep, array indexes below 1000, no
// prototype keys.

/** A parsed value: a string, a list or a nested object (qs-style). */
export type ParsedQueryValue = string | ParsedQueryValue[] | { [key: string]: ParsedQueryValue };
export type ParsedQuery = Record<string, ParsedQueryValue>;

const MAX_DEPTH = 5;
const MAX_INDEX = 999;
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

function decode(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

function splitKey(key: string): string[] | null {
  const open = key.indexOf('[');
  if (open <= 0) return [key];
  const segments = [key.slice(0, open)];
  const rest = key.slice(open);
  const pattern = /\[([^[\]]*)\]/gy;
  let match: RegExpExecArray | null;
  let consumed = 0;
  while ((match = pattern.exec(rest)) !== null) {
    segments.push(match[1]!);
    consumed = pattern.lastIndex;
  }
  if (consumed !== rest.length) return [key];
  return segments.length - 1 > MAX_DEPTH ? null : segments;
}

const isIndex = (segment: string) => /^\d{1,3}$/.test(segment) && Number(segment) <= MAX_INDEX;

type Container = ParsedQueryValue[] | { [key: string]: ParsedQueryValue };

function assign(root: ParsedQuery, segments: string[], value: string): void {
  if (segments.some((s) => FORBIDDEN.has(s))) return;
  let container: Container = root;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const last = i === segments.length - 1;
    const nextIsArray = !last && (segments[i + 1] === '' || isIndex(segments[i + 1]!));
    if (Array.isArray(container)) {
      if (segment !== '' && !isIndex(segment)) return;
      const index = segment === '' ? container.length : Number(segment);
      if (last) {
        container[index] = value;
        return;
      }
      const existing: ParsedQueryValue | undefined = container[index];
      if (existing === undefined) container[index] = nextIsArray ? [] : {};
      else if (typeof existing === 'string') return;
      container = container[index] as Container;
    } else {
      if (segment === '') return;
      const existing: ParsedQueryValue | undefined = Object.hasOwn(container, segment) ? container[segment] : undefined;
      if (last) {
        if (existing === undefined) container[segment] = value;
        else if (typeof existing === 'string') container[segment] = [existing, value];
        else if (Array.isArray(existing)) existing.push(value);
        return;
      }
      if (existing === undefined) container[segment] = nextIsArray ? [] : {};
      else if (typeof existing === 'string') return;
      container = container[segment] as Container;
    }
  }
}

/** Sparse arrays (`a[0]=x&a[5]=y`) are compacted, as qs does. */
function compact(value: ParsedQueryValue): ParsedQueryValue {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.filter((v) => v !== undefined).map(compact);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, compact(v)]));
}

export function parseQueryString(text: string): ParsedQuery {
  const root: ParsedQuery = {};
  for (const pair of text.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const key = decode(eq === -1 ? pair : pair.slice(0, eq));
    const value = eq === -1 ? '' : decode(pair.slice(eq + 1));
    if (!key) continue;
    const segments = splitKey(key);
    if (segments) assign(root, segments, value);
  }
  return compact(root) as ParsedQuery;
}
