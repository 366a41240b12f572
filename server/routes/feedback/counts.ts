import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { requireAuth } from '../../plugins/session';
import { feedbackQuery } from '../../domain/feedback/queries';
import { paths } from '../../../src/contract/paths';

/**
 * GET /api/v1/projects/residents/feedback/counts: threads awaiting the young person's response
 * and not locked, per type (what the dashboard badge shows).
 */
export default async function feedbackCountsRoute(app: FastifyInstance) {
  app.get(paths.feedbackCounts.pattern, async (request) => {
    const auth = requireAuth(request);
    const rows = await feedbackQuery(app, auth)
      .select(['resident_feedback.type', sql<string>`count(*)`.as('n')])
      .where('resident_feedback.awaiting_resident_response', '=', true)
      .where('resident_feedback.locked_at', 'is', null)
      .where('resident_feedback.deleted_at', 'is', null)
      .groupBy('resident_feedback.type')
      .execute();
    const counts = { journal: 0, voice: 0 };
    for (const row of rows) counts[row.type] = Number(row.n);
    return { success: true as const, data: counts };
  });
}
