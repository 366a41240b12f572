/**
 * A qs-style query string parser (the subset PHP and Laravel clients send): `a[b][0]=x`,
 * `list[]=x&list[]=y`, and repeated plain keys become arrays. Fastify's default parser keeps
 * brackets in the key names. Installed as Fastify's querystringParser in app.ts.
 * Guarded: nesting at most 5 deep, array indexes below 1000, no prototype keys.
 */
export type QueryValue = string | QueryValue[] | { [key: string]: QueryValue };
export type Query = Record<string, QueryValue>;

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

type Container = QueryValue[] | { [key: string]: QueryValue };

function assign(root: Query, segments: string[], value: string): void {
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
      const existing: QueryValue | undefined = container[index];
      if (existing === undefined) container[index] = nextIsArray ? [] : {};
      else if (typeof existing === 'string') return;
      container = container[index] as Container;
    } else {
      if (segment === '') return;
      const existing: QueryValue | undefined = Object.hasOwn(container, segment) ? container[segment] : undefined;
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
function compact(value: QueryValue): QueryValue {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.filter((v) => v !== undefined).map(compact);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, compact(v)]));
}

export function parseQueryString(text: string): Query {
  const root: Query = {};
  for (const pair of text.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const key = decode(eq === -1 ? pair : pair.slice(0, eq));
    const value = eq === -1 ? '' : decode(pair.slice(eq + 1));
    if (!key) continue;
    const segments = splitKey(key);
    if (segments) assign(root, segments, value);
  }
  return compact(root) as Query;
}
