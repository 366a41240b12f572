import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { EventType } from '../../../src/contract/calendar';
import { applyListQuery, fetchPage, parseListQuery, syncColumns, syncSelect, type ListSpec } from '../../lib/list-query';
import { requireAuth } from '../../plugins/session';
import { paths } from '../../../src/contract/paths';

/** GET /api/v1/events/types: the site's event types (a lookup list shared by everyone there). */
const spec: ListSpec = {
  fields: { name: { expr: sql.ref('event_types.name'), type: 'text' } },
  sorts: { name: sql.ref('event_types.name') },
  defaultSort: [['name', 'asc']],
  ...syncColumns('event_types'),
};

export default async function eventTypesRoute(app: FastifyInstance) {
  app.get(paths.eventTypes.pattern, async (request) => {
    const auth = requireAuth(request);
    const list = parseListQuery(request.query, spec);
    const query = app.db
      .selectFrom('event_types')
      .select([
        ...syncSelect(spec),
        'event_types.name',
      ])
      .where('event_types.tenant_id', '=', auth.tenantId);
    return fetchPage<EventType>(app.syncHorizon, list, () => applyListQuery(query, list, spec).execute());
  });
}
