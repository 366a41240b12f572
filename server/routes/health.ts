import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { chosenMessages as chosen } from '../../src/contract/messages';
import { HttpError } from '../lib/http-errors';
import { paths } from '../../src/contract/paths';

/** GET /api/health: 200 when the database answers, 503 otherwise (for load balancers). */
export default async function healthRoute(app: FastifyInstance) {
  app.get(paths.health.pattern, async (request) => {
    try {
      await sql`select 1`.execute(app.db);
    } catch (error) {
      request.log.error({ err: error }, 'health check: database unreachable');
      throw new HttpError(503, chosen.serverError);
    }
    return { success: true as const };
  });
}
