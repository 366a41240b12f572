import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { StaffChange } from '../../src/contract/audit';
import { paths } from '../../src/contract/paths';
import { recordStaffAccess } from '../domain/audit/staff-access';

/**
 * Issue 12, staff access audit: every request a signed-in member of staff makes to the data API
 * (`/api/v1/...`) is recorded as its answer leaves, whatever the answer: who, the route and its
 * parameters, when, the status. Recorded before the answer is sent (onSend, not onResponse), so
 * no member of staff has seen anything the log does not hold yet; it costs staff requests one insert. A young person's own requests are never recorded. Left out: the
 * staff member's own account and devices, and the log itself (reading it is not a young person's data).
 * The body is not kept: a write whose route does not say what it changed (a young person's flags,
 * their home) reports the change with noteStaffChange once it has committed, and the row holds it.
 */
const API = '/api';
const OWN = new Set([paths.account, paths.changePassword, paths.pushSubscribe, paths.pushUnsubscribe, paths.mfaMethod, paths.recoveryCodes, paths.staffAccessLog].map((route) => `${API}${route.pattern}`));

declare module 'fastify' {
  interface FastifyRequest {
    /** What this request's write changed, for the staff access log (noteStaffChange). */
    staffChange: StaffChange | null;
  }
}

/**
 * A committed write's change, for this request's log row. Called only after the commit, so a
 * refused request (4xx, always refused before anything changes) and an idempotent replay (the
 * handler does not run) carry none.
 */
export function noteStaffChange(request: FastifyRequest, change: StaffChange): void {
  request.staffChange = change;
}

export function registerStaffAudit(app: FastifyInstance): void {
  app.decorateRequest('staffChange', null);
  app.addHook('onSend', async (request, reply, payload) => {
    const session = request.session;
    if (!session?.staff || session.state !== 'full' || !session.userId || !session.tenantId) return payload;
    const route = request.routeOptions.url;
    if (!route?.startsWith(`${API}/v1/`) || OWN.has(route)) return payload;
    try {
      await recordStaffAccess(app, {
        tenantId: session.tenantId,
        userId: session.userId,
        method: request.method,
        route: route.slice(API.length),
        params: request.params,
        query: request.query,
        status: reply.statusCode,
        detail: request.staffChange,
      });
    } catch (error) {
      // Refusing the answer would not undo the work behind it; a lost record must at least be visible to whoever runs the site.
      request.log.error({ err: error, route }, 'staff access not recorded');
    }
    return payload;
  });
}
