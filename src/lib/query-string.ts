/**
 * Builds the query strings of SPEC §7 list endpoints: `filters[i][j]`, `sort[i][j]`, `relations[i]`
 * and plain parameters. Keys and values are percent-encoded; brackets are kept readable
 * (`filters[0][0]=updated_at`), which servers accept either way.
 */
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
