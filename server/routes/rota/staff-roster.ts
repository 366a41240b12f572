import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import type { RosterItem } from '../../../src/contract/rota';
import { HttpError } from '../../lib/http-errors';
import { applyListQuery, fetchPage, parseListQuery, syncSelect, type ListSpec } from '../../lib/list-query';
import { hourMinute } from '../../lib/timestamps';
import { parse } from '../../lib/validate';
import { requireAuth } from '../../plugins/session';
import { homeIdsOf, ownResidentId } from '../../domain/access';
import { homesLivedIn, perHomeSync } from '../../domain/residents/home-stays';
import { paths } from '../../../src/contract/paths';
import { calendarDateSchema } from '../../../src/contract/calendar-values';

/**
 * GET /api/v1/rotas/staff-roster?date=yyyy-MM-dd&parent_project_ids[0]=<home id>&with[0]=user
 * The shifts of one day in the homes the person belongs to (a young person: their own home).
 * parent_project_ids narrows to some of those homes; a home outside them is a 404. The user
 * relation is always included; `with` accepts only "user". A young person who moved also gets a
 * blank tombstone for each shift of that day in a home they left (domain/residents/home-stays.ts).
 */
const oneOrMany = <T extends z.ZodType>(item: T) => z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(item).max(50));

const querySchema = z.object({
  date: calendarDateSchema('The date must look like 2026-01-31'),
  parent_project_ids: oneOrMany(z.uuid()).optional(),
  with: oneOrMany(z.literal('user')).optional(),
});

const sync = perHomeSync('lived', { updatedAt: sql.ref('rota_shifts.updated_at'), deletedAt: sql.ref('rota_shifts.deleted_at'), createdAt: sql.ref('rota_shifts.created_at') });
const spec: ListSpec = {
  fields: {
    shift_date: { expr: sql.ref('rota_shifts.shift_date'), type: 'date' },
    home_id: { expr: sql.ref('rota_shifts.home_id'), type: 'uuid' },
    user_id: { expr: sql.ref('rota_shifts.user_id'), type: 'uuid' },
  },
  sorts: { starts_at: sql.ref('rota_shifts.starts_at'), shift_date: sql.ref('rota_shifts.shift_date') },
  defaultSort: [['starts_at', 'asc']],
  updatedAt: sync.updatedAt,
  id: sql.ref('rota_shifts.id'),
  deletedAt: sync.deletedAt,
};

const NIL_UUID = '00000000-0000-0000-0000-000000000000';
const nobody = { id: NIL_UUID, first_name: '', last_name: '', has_photo: false };

export default async function staffRosterRoute(app: FastifyInstance) {
  app.get(paths.staffRoster.pattern, async (request) => {
    const auth = requireAuth(request);
    const input = parse(querySchema, request.query ?? {});
    const list = parseListQuery(request.query, spec);
    const mine = await homeIdsOf(app, auth.tenantId, auth.userId);
    const asked = input.parent_project_ids ?? mine;
    if (asked.some((id) => !mine.includes(id))) throw new HttpError(404, chosen.notFound);
    if (asked.length === 0) return fetchPage<RosterItem>(app.syncHorizon, list, async () => []);
    const own = await ownResidentId(app, auth);

    const query = app.db
      .selectFrom('rota_shifts')
      .leftJoin(homesLivedIn(app.db, auth.tenantId, own, true).as('lived'), 'lived.home_id', 'rota_shifts.home_id')
      .innerJoin('users', 'users.id', 'rota_shifts.user_id')
      .leftJoin('user_photos', (join) => join.onRef('user_photos.user_id', '=', 'users.id').on('user_photos.deleted_at', 'is', null))
      .select([
        ...syncSelect(spec),
        'rota_shifts.home_id',
        'rota_shifts.user_id',
        'rota_shifts.shift_date',
        hourMinute(sql.ref('rota_shifts.starts_at')).as('starts_at'),
        hourMinute(sql.ref('rota_shifts.ends_at')).as('ends_at'),
        'users.first_name',
        'users.last_name',
        sql<boolean>`user_photos.id is not null`.as('has_photo'),
        sql<boolean>`lived.left_at is not null`.as('left_home'),
      ])
      .where('rota_shifts.tenant_id', '=', auth.tenantId)
      .where((eb) => eb.or([eb('rota_shifts.home_id', 'in', asked), eb('lived.left_at', 'is not', null)]))
      .where(sync.known)
      .where('rota_shifts.shift_date', '=', input.date);
    const rows = async () => (await applyListQuery(query, list, spec).execute()).map(({ first_name, last_name, has_photo, left_home, ...shift }): RosterItem =>
      left_home
        ? { ...shift, home_id: NIL_UUID, user_id: NIL_UUID, starts_at: '00:00', ends_at: '00:00', user: nobody }
        : { ...shift, user: { id: shift.user_id, first_name, last_name, has_photo } },
    );
    return fetchPage(app.syncHorizon, list, rows);
  });
}
