import type { FastifyInstance } from 'fastify';
import { requireAuth } from '../../plugins/session';
import { feedbackCounts } from '../../domain/feedback/counts';
import { paths } from '../../../src/contract/paths';

/** GET /api/v1/projects/residents/feedback/counts (domain/feedback/counts.ts). */
export default async function feedbackCountsRoute(app: FastifyInstance) {
  app.get(paths.feedbackCounts.pattern, async (request) => ({ success: true as const, data: await feedbackCounts(app, requireAuth(request)) }));
}
