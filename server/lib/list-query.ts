import { sql, type Expression, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { compiledOnce } from '../db/compiled-once';
import type { Database } from '../db/schema';
import type { FieldErrors } from '../../src/contract/envelope';
import { chosenMessages as chosen } from '../../src/contract/messages';
import { FILTER_OPERATORS, listQuerySchema, type Checkpoint } from '../../src/contract/sync';
import { HttpError } from './http-errors';
import type { SyncHorizon } from './sync-horizon';
import { isoMicros, isoMicrosOrNull } from './timestamps';
import { isCalendarDate } from '../../src/contract/calendar-values';

/**
 * The list parameters every replicated collection takes (contract sync.ts): whitelisted filters,
 * sort, relations, tombstones with with_trashed=1, per_page (default 50, at most MAX_PAGE_SIZE, 1,000) and a
 * checkpoint. With a checkpoint the page is the rows strictly after (updated_at, id), in that
 * order, whatever sort was asked for: that is how a replica walks a collection exactly once.
 * A page in that order holds no row that a transaction still open could precede (fetchPage,
 * lib/sync-horizon.ts), so a checkpoint never passes a row that is yet to commit.
 */
const DEFAULT_PAGE_SIZE = 50;

export type FieldType = 'text' | 'uuid' | 'date' | 'timestamp' | 'boolean' | 'integer';
type Operator = (typeof FILTER_OPERATORS)[number];

export interface ListField {
  expr: Expression<unknown>;
  type: FieldType;
}

/** The replication columns of a list: what its checkpoint walks and what marks a tombstone. */
export interface SyncColumns {
  updatedAt: Expression<unknown>;
  id: Expression<unknown>;
  deletedAt: Expression<unknown>;
}

/** `updated_at`, `id` and `deleted_at` of a table alias, for a ListSpec: `{ ...syncColumns('entry'), fields, ... }`. */
export function syncColumns(alias: string): SyncColumns {
  return { updatedAt: sql.ref(`${alias}.updated_at`), id: sql.ref(`${alias}.id`), deletedAt: sql.ref(`${alias}.deleted_at`) };
}

/**
 * The three select expressions every replicated row starts with: `id`, and `updated_at` and
 * `deleted_at` as microsecond ISO strings (lib/timestamps.ts). Pass the ListSpec (or syncColumns).
 */
export function syncSelect(columns: SyncColumns) {
  return [
    sql<string>`${columns.id}`.as('id'),
    isoMicros(columns.updatedAt).as('updated_at'),
    isoMicrosOrNull(columns.deletedAt).as('deleted_at'),
  ] as const;
}

export interface ListSpec extends SyncColumns {
  /** Filterable fields; updated_at and id are always filterable. */
  fields: Record<string, ListField>;
  /**
   * Sortable fields; updated_at and id always are (a first pull sorts by updated_at asc, id asc).
   * A name may stand for several expressions, ordered one after the other in the asked direction.
   */
  sorts: Record<string, Expression<unknown> | readonly Expression<unknown>[]>;
  defaultSort: [string, 'asc' | 'desc'][];
  /** Accepted relation names (everything is always included; unknown names are refused). */
  relations?: readonly string[];
}

export interface ListRequest {
  where: Expression<SqlBool>[];
  order: [Expression<unknown>, 'asc' | 'desc'][];
  checkpoint: Checkpoint | null;
  withTrashed: boolean;
  perPage: number;
  relations: string[];
  /** The page walks (updated_at, id): checkpoint mode, or sorted by updated_at ascending as a first pull is. */
  walksCheckpoints: boolean;
}

const CAST: Record<FieldType, string> = {
  text: 'text',
  uuid: 'uuid',
  date: 'date',
  timestamp: 'timestamptz',
  boolean: 'boolean',
  integer: 'integer',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A date, or a date and time with an optional offset, each part in its range (2026-02-30 or 24:00 are 422, not a 500). */
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})(?:[T ]([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.\d{1,6})?)?(?:Z|[+-](?:0\d|1[0-4])(?::?[0-5]\d)?)?)?$/;
const isFilterTimestamp = (raw: string) => {
  const match = TIMESTAMP.exec(raw);
  return Boolean(match && isCalendarDate(match[1]!));
};

/** The value as the database should see it, or null when it does not fit the field's type. */
function valueFor(type: FieldType, raw: string): string | null {
  switch (type) {
    case 'text':
      // PostgreSQL cannot hold NUL in text: such a value matches nothing and is refused (422), never a 500.
      return raw.length <= 500 && !raw.includes('\u0000') ? raw : null;
    case 'uuid':
      return UUID.test(raw) ? raw.toLowerCase() : null;
    case 'date':
      return isCalendarDate(raw) ? raw : null;
    case 'timestamp':
      return isFilterTimestamp(raw) ? raw : null;
    case 'boolean':
      return raw === '1' || raw === 'true' ? 'true' : raw === '0' || raw === 'false' ? 'false' : null;
    case 'integer':
      return /^-?\d{1,9}$/.test(raw) ? raw : null;
  }
}

const typed = (type: FieldType, value: string) => sql`cast(${value} as ${sql.raw(CAST[type])})`;

function condition(field: ListField, op: Operator, raw: string | undefined): Expression<SqlBool> | string {
  if (op === 'null') return sql<SqlBool>`${field.expr} is null`;
  if (op === 'not_null') return sql<SqlBool>`${field.expr} is not null`;
  if (raw === undefined) return `needs a value`;
  if (op === 'in') {
    const parts = raw.split(',').map((v) => valueFor(field.type, v.trim()));
    if (parts.length === 0 || parts.length > 100 || parts.some((p) => p === null)) return `has a value of the wrong kind`;
    return sql<SqlBool>`${field.expr} in (${sql.join(parts.map((p) => typed(field.type, p!)))})`;
  }
  if (field.type === 'boolean' && op !== '=' && op !== '!=') return `cannot use ${op}`;
  const value = valueFor(field.type, raw);
  if (value === null) return `has a value of the wrong kind`;
  return sql<SqlBool>`${field.expr} ${sql.raw(op === '!=' ? '<>' : op)} ${typed(field.type, value)}`;
}

/** Keys such as "filters.0.1" are reported under their parameter ("filters"). */
function groupErrors(errors: FieldErrors): FieldErrors {
  const grouped: FieldErrors = {};
  for (const [key, messages] of Object.entries(errors)) {
    const top = key.split('.')[0]!;
    const name = ['filters', 'sort', 'relations', 'checkpoint'].includes(top) ? top : key;
    grouped[name] ??= messages;
  }
  return grouped;
}

export function parseListQuery(query: unknown, spec: ListSpec): ListRequest {
  const parsed = listQuerySchema.safeParse(query ?? {});
  if (!parsed.success) {
    const errors: FieldErrors = {};
    for (const issue of parsed.error.issues) {
      const key = issue.path.map(String).join('.') || '_';
      errors[key] ??= [issue.message];
    }
    throw new HttpError(422, chosen.validationFailed, groupErrors(errors));
  }
  const input = parsed.data;
  const errors: FieldErrors = {};
  const fail = (key: string, message: string) => (errors[key] ??= []).push(message);
  const fields: Record<string, ListField> = {
    updated_at: { expr: spec.updatedAt, type: 'timestamp' },
    id: { expr: spec.id, type: 'uuid' },
    ...spec.fields,
  };

  const where: Expression<SqlBool>[] = [];
  (input.filters ?? []).forEach((filter, i) => {
    const [name, op, raw] = filter;
    const field = Object.hasOwn(fields, name) ? fields[name] : undefined;
    if (!field) return fail('filters', `Filter ${i}: unknown field "${name}"`);
    if (!(FILTER_OPERATORS as readonly string[]).includes(op)) return fail('filters', `Filter ${i}: unknown operator "${op}"`);
    const result = condition(field, op as Operator, raw);
    if (typeof result === 'string') return fail('filters', `Filter ${i}: "${name}" ${result}`);
    where.push(result);
  });

  const order: [Expression<unknown>, 'asc' | 'desc'][] = [];
  const sortable: ListSpec['sorts'] = { updated_at: spec.updatedAt, id: spec.id, ...spec.sorts };
  for (const [name, direction] of input.sort ?? spec.defaultSort) {
    const expr = Object.hasOwn(sortable, name) ? sortable[name] : undefined;
    if (!expr) fail('sort', `Cannot sort by "${name}"`);
    else for (const one of Array.isArray(expr) ? expr : [expr]) order.push([one, direction]);
  }
  order.push([spec.id, 'asc']);

  const relations = input.relations ?? [];
  for (const relation of relations) {
    if (!(spec.relations ?? []).includes(relation)) fail('relations', `Unknown relation "${relation}"`);
  }

  if (input.checkpoint && !UUID.test(input.checkpoint.id)) fail('checkpoint', 'The checkpoint id is not valid');
  if (Object.keys(errors).length > 0) throw new HttpError(422, chosen.validationFailed, errors);

  const checkpoint = input.checkpoint ?? null;
  return {
    where,
    order,
    checkpoint,
    withTrashed: input.with_trashed === '1',
    perPage: input.per_page ?? DEFAULT_PAGE_SIZE,
    relations,
    walksCheckpoints: checkpoint !== null || (order[0]?.[0] === spec.updatedAt && order[0][1] === 'asc'),
  };
}

/** Adds the filters, tombstone rule, checkpoint, order and limit (per_page + 1, see toPage). */
export function applyListQuery<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  list: ListRequest,
  spec: ListSpec,
): SelectQueryBuilder<DB, TB, O> {
  return withListClauses(query, list, spec, list.perPage + 1);
}

function withListClauses<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  list: ListRequest,
  spec: ListSpec,
  limit: number,
): SelectQueryBuilder<DB, TB, O> {
  let q = query;
  for (const condition of list.where) q = q.where(condition);
  if (!list.withTrashed) q = q.where(sql<SqlBool>`${spec.deletedAt} is null`);
  if (list.checkpoint) {
    const { updated_at, id } = list.checkpoint;
    q = q
      .where(sql<SqlBool>`(${spec.updatedAt}, ${spec.id}) > (cast(${updated_at} as timestamptz), cast(${id} as uuid))`)
      .orderBy(spec.updatedAt, 'asc')
      .orderBy(spec.id, 'asc');
  } else {
    for (const [expr, direction] of list.order) q = q.orderBy(expr, direction);
  }
  return q.limit(limit);
}

/**
 * The replica's pull (src/data/replication/pull.ts): checkpoint mode with tombstones and no filter. Every
 * such request of a list runs the same statement but for its values, so it need not be built and
 * compiled again each time (issue 13, server throughput).
 */
export function isReplicaPull(list: ListRequest): list is ListRequest & { checkpoint: Checkpoint } {
  return list.checkpoint !== null && list.withTrashed && list.where.length === 0;
}

/**
 * A list's replica pull built and compiled once (db/compiled-once.ts): `build` makes the list's query
 * from stand-ins for its values (the signed-in person's ids, say), and the checkpoint and the limit are
 * values too. Run it with the values and the list request; the rows are applyListQuery's.
 */
export function replicaPullQuery<V extends Record<string, unknown>, DB, TB extends keyof DB, O>(
  spec: ListSpec,
  build: (db: Kysely<Database>, values: V) => SelectQueryBuilder<DB, TB, O>,
) {
  const query = compiledOnce((db, v: V & { checkpointUpdatedAt: string; checkpointId: string; limit: number }) => {
    const list: ListRequest = { where: [], order: [], checkpoint: { updated_at: v.checkpointUpdatedAt, id: v.checkpointId }, withTrashed: true, perPage: 0, relations: [], walksCheckpoints: true };
    return withListClauses(build(db, v), list, spec, v.limit);
  });
  return (db: Kysely<Database>, values: V, list: ListRequest & { checkpoint: Checkpoint }): Promise<O[]> =>
    query(db, { ...values, checkpointUpdatedAt: list.checkpoint.updated_at, checkpointId: list.checkpoint.id, limit: list.perPage + 1 });
}

export interface Page<T> {
  success: true;
  data: T[];
  meta: { per_page: number; has_more: boolean; checkpoint: Checkpoint | null };
}

/** The page answer; rows must carry updated_at (microseconds, lib/timestamps.ts) and id. */
function toPage<T extends { id: string; updated_at: string }>(rows: T[], list: ListRequest): Page<T> {
  const hasMore = rows.length > list.perPage;
  const data = hasMore ? rows.slice(0, list.perPage) : rows;
  const last = data[data.length - 1];
  return {
    success: true,
    data,
    meta: { per_page: list.perPage, has_more: hasMore, checkpoint: last ? { updated_at: last.updated_at, id: last.id } : null },
  };
}

/** How long a page waits for the transactions begun before its rows (normally a few milliseconds). */
const HORIZON_WAIT_MS = 2_000;

/**
 * Runs `rows` (the list query, per_page + 1 rows as applyListQuery limits it, whatever shaping
 * follows) and answers the page. A page that walks checkpoints holds only rows stamped before
 * the horizon (lib/sync-horizon.ts), taken before the query: no row a transaction still open
 * could precede. When the page would hold newer rows, it waits for the transactions begun before
 * them to end (at most HORIZON_WAIT_MS), takes a new horizon and runs the query again; rows
 * still too new then (written meanwhile, or behind a transaction open longer than that) are left
 * for the next pull: the page ends before them, `has_more` says more is waiting, and the writes
 * that made them tell their readers to pull. So a checkpoint never skips a row, and no row comes
 * twice. Other lists (another sort) and the embedded database (no horizon) answer at once.
 */
export async function fetchPage<T extends { id: string; updated_at: string }>(horizon: SyncHorizon, list: ListRequest, rows: () => Promise<T[]>): Promise<Page<T>> {
  if (!list.walksCheckpoints) return toPage(await rows(), list);
  const first = await horizon.current();
  const page = toPage(await rows(), list);
  if (first === null || page.data.every((row) => row.updated_at < first)) return page;
  const newest = page.data.reduce((max, row) => (row.updated_at > max ? row.updated_at : max), '');
  const next = await horizon.waitPast(newest, HORIZON_WAIT_MS);
  return before(toPage(await rows(), list), next);
}

/** The page cut before the first row at or after the horizon (rows are in checkpoint order). */
function before<T extends { id: string; updated_at: string }>(page: Page<T>, horizon: string | null): Page<T> {
  if (horizon === null) return page;
  const cut = page.data.findIndex((row) => row.updated_at >= horizon);
  if (cut === -1) return page;
  const data = page.data.slice(0, cut);
  const last = data.at(-1);
  return { ...page, data, meta: { ...page.meta, has_more: true, checkpoint: last ? { updated_at: last.updated_at, id: last.id } : null } };
}
