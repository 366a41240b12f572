import type { FastifyInstance } from 'fastify';
import { paths } from '../../../src/contract/paths';
import { rewardsQuerySchema } from '../../../src/contract/rewards';
import { idParamsSchema } from '../../../src/contract/users';
import { applyListQuery, fetchPage, parseListQuery } from '../../lib/list-query';
import { parse } from '../../lib/validate';
import { requireAuth } from '../../plugins/session';
import { reachableResident, staffHome } from '../../domain/access';
import { catalogueQuery, catalogueResident, homeRewardsQuery, presentRewards, REWARD_SPEC, STAFF_REWARD_SPEC } from '../../domain/rewards/catalogue';
import { EXCHANGE_SPEC, homeExchangesQuery, presentExchanges, residentExchangesQuery } from '../../domain/rewards/exchanges';

/**
 * Rewards, reads (SPEC §7 Rewards and the staff additions in docs/api.md), all checkpoint lists:
 * - GET /v1/projects/residents/rewards?resident_id=&relations[]=image: the catalogue of that young
 *   person's home (paused and withdrawn rewards are tombstones that carry nothing but the id and
 *   the time, as are, for the young person, the rewards of a home they left; filters match live
 *   rewards only). A static segment: Fastify matches
 *   `rewards` before the `:id` of GET /v1/projects/residents/{id}, so it is never read as an id.
 * - GET /v1/projects/residents/{id}/rewards/history: their exchanges, newest first.
 * - staff: GET /v1/homes/{id}/rewards (paused ones too), GET /v1/homes/{id}/reward-exchanges.
 * The queries and the access rule live in domain/.
 */
export default async function rewardReadRoutes(app: FastifyInstance) {
  app.get(paths.rewards.pattern, async (request) => {
    const auth = requireAuth(request);
    const { resident_id } = parse(rewardsQuerySchema, request.query ?? {});
    const resident = await catalogueResident(app, auth, resident_id);
    const list = parseListQuery(request.query, REWARD_SPEC);
    const page = await fetchPage(app.syncHorizon, list, () => catalogueQuery(app.db, auth.tenantId, resident, list).execute());
    return { ...page, data: await presentRewards(app.db, auth.tenantId, page.data, { blankTombstones: true }) };
  });

  app.get(paths.rewardsHistory.pattern, async (request) => {
    const auth = requireAuth(request);
    const { id } = parse(idParamsSchema, request.params);
    const resident = await reachableResident(app, auth, id);
    const list = parseListQuery(request.query, EXCHANGE_SPEC);
    const page = await fetchPage(app.syncHorizon, list, () => applyListQuery(residentExchangesQuery(app.db, auth, resident.id), list, EXCHANGE_SPEC).execute());
    return { ...page, data: await presentExchanges(app.db, auth.tenantId, page.data) };
  });

  app.get(paths.homeRewards.pattern, async (request) => {
    const auth = requireAuth(request);
    const { id } = parse(idParamsSchema, request.params);
    const homeId = await staffHome(app, auth, id);
    const list = parseListQuery(request.query, STAFF_REWARD_SPEC);
    const page = await fetchPage(app.syncHorizon, list, () => applyListQuery(homeRewardsQuery(app.db, auth.tenantId, homeId, STAFF_REWARD_SPEC), list, STAFF_REWARD_SPEC).execute());
    return { ...page, data: await presentRewards(app.db, auth.tenantId, page.data) };
  });

  app.get(paths.homeRewardExchanges.pattern, async (request) => {
    const auth = requireAuth(request);
    const { id } = parse(idParamsSchema, request.params);
    const homeId = await staffHome(app, auth, id);
    const list = parseListQuery(request.query, EXCHANGE_SPEC);
    const page = await fetchPage(app.syncHorizon, list, () => applyListQuery(homeExchangesQuery(app.db, auth, homeId), list, EXCHANGE_SPEC).execute());
    return { ...page, data: await presentExchanges(app.db, auth.tenantId, page.data) };
  });
}
