import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import type { CalendarInstance } from '../../../src/contract/calendar';
import { idParamsSchema } from '../../../src/contract/users';
import { applyListQuery, fetchPage, parseListQuery, syncSelect, type ListSpec } from '../../lib/list-query';
import { hourMinuteOrNull } from '../../lib/timestamps';
import { parse } from '../../lib/validate';
import { requireAuth } from '../../plugins/session';
import { reachableResident } from '../../domain/access';
import { paths } from '../../../src/contract/paths';
import { calendarDateSchema } from '../../../src/contract/calendar-values';

/**
 * GET /api/v1/residents/{id}/instances?start_date=yyyy-MM-dd: the young person's calendar.
 * start_date (optional) keeps the entries that have not ended before that day (end_date >=
 * start_date), so an entry that is still going on is included. A row changes when its instance or
 * its event does (`sync_updated_at`), and is a tombstone when either is deleted.
 */
const querySchema = z.object({
  start_date: calendarDateSchema('The date must look like 2026-01-31').optional(),
});

// The newer of the instance's and its event's updated_at, kept on the instance (migration 0012) so an index holds the order.
const updatedAt = sql.ref('event_instances.sync_updated_at');
const deletedAt = sql`coalesce(event_instances.deleted_at, events.deleted_at)`;
const spec: ListSpec = {
  fields: {
    start_date: { expr: sql.ref('event_instances.start_date'), type: 'date' },
    end_date: { expr: sql.ref('event_instances.end_date'), type: 'date' },
  },
  sorts: { start_date: sql.ref('event_instances.start_date'), start_time: sql`event_instances.start_time` },
  defaultSort: [['start_date', 'asc'], ['start_time', 'asc']],
  updatedAt,
  id: sql.ref('event_instances.id'),
  deletedAt,
};

export default async function calendarInstancesRoute(app: FastifyInstance) {
  app.get(paths.calendarInstances.pattern, async (request) => {
    const auth = requireAuth(request);
    const { id } = parse(idParamsSchema, request.params);
    const input = parse(querySchema, request.query ?? {});
    const list = parseListQuery(request.query, spec);
    const resident = await reachableResident(app, auth, id);
    let query = app.db
      .selectFrom('event_instances')
      .innerJoin('events', 'events.id', 'event_instances.event_id')
      .select([
        ...syncSelect(spec),
        'event_instances.resident_id',
        'event_instances.start_date',
        hourMinuteOrNull(sql.ref('event_instances.start_time')).as('start_time'),
        'event_instances.end_date',
        hourMinuteOrNull(sql.ref('event_instances.end_time')).as('end_time'),
        'events.id as event_id',
        'events.title',
        'events.description',
        'events.location',
        'events.event_type_id',
      ])
      .where('event_instances.tenant_id', '=', auth.tenantId)
      .where('events.tenant_id', '=', auth.tenantId)
      .where('event_instances.resident_id', '=', resident.id)
      .where('events.event_type_id', 'is not', null);
    if (input.start_date) query = query.where('event_instances.end_date', '>=', input.start_date);
    const rows = async () => (await applyListQuery(query, list, spec).execute()).map((r): CalendarInstance => ({
      id: r.id,
      updated_at: r.updated_at,
      deleted_at: r.deleted_at,
      resident_id: r.resident_id,
      start_date: r.start_date,
      start_time: r.start_time,
      end_date: r.end_date,
      end_time: r.end_time,
      event: { id: r.event_id, title: r.title, description: r.description, location: r.location, event_type_id: r.event_type_id! },
    }));
    return fetchPage(app.syncHorizon, list, rows);
  });
}
