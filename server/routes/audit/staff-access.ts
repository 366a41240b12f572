import type { FastifyInstance } from 'fastify';
import { staffAccessMessages } from '../../../src/contract/audit';
import { paths } from '../../../src/contract/paths';
import { HttpError } from '../../lib/http-errors';
import { parseListQuery } from '../../lib/list-query';
import { requireAuth } from '../../plugins/session';
import { audienceOf } from '../../domain/access';
import { staffAccessPage, staffAccessSpec } from '../../domain/audit/staff-access';

/**
 * GET /api/v1/staff/access-log (issue 12, docs/api.md): what the staff of the manager's homes read
 * and changed, newest first (a checkpoint list with filters user_id, resident_id, action, status).
 * A manager only: anyone else signed in gets 403 (it names no young person's data).
 */
export default async function staffAccessRoute(app: FastifyInstance) {
  app.get(paths.staffAccessLog.pattern, async (request) => {
    const auth = requireAuth(request);
    const list = parseListQuery(request.query, staffAccessSpec);
    const audience = await audienceOf(app, auth);
    if (!audience.isManager) throw new HttpError(403, staffAccessMessages.managersOnly);
    return staffAccessPage(app, auth.tenantId, auth.userId, list);
  });
}
