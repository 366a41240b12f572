import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { isSavableText, printableKey } from '../../../src/contract/text';
import type { StaffAccessRow, StaffChange } from '../../../src/contract/audit';
import { applyListQuery, fetchPage, syncSelect, type ListRequest, type ListSpec } from '../../lib/list-query';
import { homeIdsOf } from '../access';

/**
 * Issue 12, staff access audit. Every request a member of staff makes to the data API is recorded
 * after it is answered (plugins/staff-audit.ts), refused ones too: a reviewer wants the attempts.
 * A manager reads the rows of the staff who work in their homes (themselves included).
 */
export interface StaffAccess {
  tenantId: string;
  userId: string;
  method: string;
  /** The route's pattern below the API base. */
  route: string;
  params: unknown;
  query: unknown;
  status: number;
  /** What the write changed, as its domain reported it after the commit (plugins/staff-audit.ts noteStaffChange). */
  detail: StaffChange | null;
}

const MAX_TEXT = 200;
const MAX_DEPTH = 4;
const MAX_KEYS = 30;

/** What of a request's parameters the log keeps: short, savable text (the edge refuses the rest with a 422, which is logged too). */
function kept(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return isSavableText(value) ? value.slice(0, MAX_TEXT) : '[unsavable text]';
  if (value === null || typeof value !== 'object') return typeof value === 'number' || typeof value === 'boolean' ? value : null;
  if (depth >= MAX_DEPTH) return '[nested]';
  if (Array.isArray(value)) return value.slice(0, MAX_KEYS).map((item) => kept(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value)
      .slice(0, MAX_KEYS)
      .map(([key, item]) => [isSavableText(key) ? printableKey(key).slice(0, MAX_TEXT) : '[unsavable key]', kept(item, depth + 1)]),
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The young person a route names: `/residents/:id/...` or a `resident_id` in the query. */
function namedResident(route: string, params: unknown, query: unknown): string | null {
  const fromPath = route.includes('/residents/:id') ? (params as Record<string, unknown> | null)?.id : undefined;
  const candidate = fromPath ?? (query as Record<string, unknown> | null)?.resident_id;
  return typeof candidate === 'string' && UUID.test(candidate) ? candidate : null;
}

export async function recordStaffAccess(app: FastifyInstance, access: StaffAccess): Promise<void> {
  const resident = namedResident(access.route, access.params, access.query);
  await app.db
    .insertInto('staff_access_log')
    .values({
      tenant_id: access.tenantId,
      user_id: access.userId,
      // Only a young person of this site: an id that names nobody here is kept in `target` alone.
      resident_id: resident ? sql<string | null>`(select id from residents where id = ${resident} and tenant_id = ${access.tenantId})` : null,
      action: access.method === 'GET' || access.method === 'HEAD' ? 'read' : 'write',
      method: access.method,
      route: access.route,
      target: JSON.stringify({ params: kept(access.params ?? {}), query: kept(access.query ?? {}) }),
      status: access.status,
      detail: access.detail ? JSON.stringify(access.detail) : null,
    })
    .execute();
}

export const staffAccessSpec: ListSpec = {
  fields: {
    user_id: { expr: sql.ref('log.user_id'), type: 'uuid' },
    resident_id: { expr: sql.ref('log.resident_id'), type: 'uuid' },
    action: { expr: sql.ref('log.action'), type: 'text' },
    status: { expr: sql.ref('log.status'), type: 'integer' },
  },
  sorts: { at: sql.ref('log.at') },
  defaultSort: [['at', 'desc']],
  updatedAt: sql.ref('log.at'),
  id: sql.ref('log.id'),
  deletedAt: sql`null`,
};

/** The rows a manager may review: the requests of staff who work in one of their homes. */
export async function staffAccessPage(app: FastifyInstance, tenantId: string, managerId: string, list: ListRequest) {
  const homes = await homeIdsOf(app, tenantId, managerId);
  if (homes.length === 0) return fetchPage<StaffAccessRow>(app.syncHorizon, list, async () => []);
  const query = app.db
    .selectFrom('staff_access_log as log')
    .innerJoin('users', 'users.id', 'log.user_id')
    .select([
      ...syncSelect(staffAccessSpec),
      'log.user_id',
      'users.first_name',
      'users.last_name',
      'log.resident_id',
      'log.action',
      'log.method',
      'log.route',
      'log.target',
      'log.status',
      'log.detail',
    ])
    .where('log.tenant_id', '=', tenantId)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('home_staff as hs')
          .select('hs.id')
          .whereRef('hs.user_id', '=', 'log.user_id')
          .where('hs.tenant_id', '=', tenantId)
          .where('hs.home_id', 'in', homes)
          .where('hs.deleted_at', 'is', null),
      ),
    );
  return fetchPage<StaffAccessRow>(app.syncHorizon, list, async () =>
    (await applyListQuery(query, list, staffAccessSpec).execute()).map((row) => ({
      id: row.id,
      updated_at: row.updated_at,
      deleted_at: null,
      user: { id: row.user_id, first_name: row.first_name, last_name: row.last_name },
      resident_id: row.resident_id,
      action: row.action,
      method: row.method,
      route: row.route,
      target: row.target as StaffAccessRow['target'],
      status: row.status,
      detail: row.detail as StaffChange | null,
    })),
  );
}
