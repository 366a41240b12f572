import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { EventType } from '../../../src/contract/calendar';
import { applyListQuery, parseListQuery, toPage, type ListSpec } from '../../lib/list-query';
import { isoMicros, isoMicrosOrNull } from '../../lib/timestamps';
import { requireAuth } from '../../plugins/session';

/** GET /api/v1/events/types: the site's event types (a lookup list shared by everyone there). */
const spec: ListSpec = {
  fields: { name: { expr: sql.ref('event_types.name'), type: 'text' } },
  sorts: { name: sql.ref('event_types.name') },
  defaultSort: [['name', 'asc']],
  updatedAt: sql.ref('event_types.updated_at'),
  id: sql.ref('event_types.id'),
  deletedAt: sql.ref('event_types.deleted_at'),
};

export default async function eventTypesRoute(app: FastifyInstance) {
  app.get('/v1/events/types', async (request) => {
    const auth = requireAuth(request);
    const list = parseListQuery(request.query, spec);
    const query = app.db
      .selectFrom('event_types')
      .select([
        'event_types.id',
        isoMicros(sql.ref('event_types.updated_at')).as('updated_at'),
        isoMicrosOrNull(sql.ref('event_types.deleted_at')).as('deleted_at'),
        'event_types.name',
      ])
      .where('event_types.tenant_id', '=', auth.tenantId);
    const rows: EventType[] = await applyListQuery(query, list, spec).execute();
    return toPage(rows, list);
  });
}
