import type { FastifyInstance } from 'fastify';
import type { StaffChange } from '../../../src/contract/audit';
import { FEATURE_FLAGS, residentFeaturesUpdateSchema, type FeatureFlag, type ResidentDetails } from '../../../src/contract/residents';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import { HttpError } from '../../lib/http-errors';
import { laterStamp } from '../../lib/timestamps';
import { parse } from '../../lib/validate';
import type { SignedIn } from '../../plugins/session';
import { staffReachableResident } from '../access';
import { loadResidentDetails } from './details';

/**
 * Staff switch a young person's journal, voice or rewards on or off (docs/decisions.md "Staff switch
 * a young person's features"): who may is the home move's rule (staffReachableResident: the young
 * person 403, anyone else 404), checked before the body. The flags are on the young person's
 * record, which their device pulls whole on the `resident` topic, so a change moves its `updated_at`
 * and is announced; sending the flags it already has changes nothing and announces nothing. The
 * staff audit (plugins/staff-audit.ts) records the request with the young person, and `report`
 * hands it the flags that changed, read under the row's lock so "before" is the value replaced.
 */
export async function setResidentFeatures(
  app: FastifyInstance, auth: SignedIn, residentId: string, body: unknown, report: (change: StaffChange) => void,
): Promise<ResidentDetails> {
  const resident = await staffReachableResident(app, auth, residentId);
  const flags = parse(residentFeaturesUpdateSchema, fieldsOf(body));
  const changes = await app.db.transaction().execute(async (tx) => {
    const before = await tx
      .selectFrom('residents')
      .select(FEATURE_FLAGS)
      .where('tenant_id', '=', auth.tenantId)
      .where('id', '=', resident.id)
      .forUpdate()
      .executeTakeFirst();
    // Only a record removed outright since the access check (a site's deletion): gone as any unknown id.
    if (!before) throw new HttpError(404, chosen.notFound);
    const changed = (Object.entries(flags) as [FeatureFlag, 0 | 1][]).filter(([flag, value]) => before[flag] !== value);
    if (changed.length > 0) {
      await tx
        .updateTable('residents')
        .set({ ...Object.fromEntries(changed), updated_at: laterStamp('residents.updated_at') })
        .where('tenant_id', '=', auth.tenantId)
        .where('id', '=', resident.id)
        .execute();
    }
    return Object.fromEntries(changed.map(([flag, to]) => [flag, { from: before[flag], to }]));
  });
  report({ features: changes });
  if (Object.keys(changes).length > 0) {
    app.notifier.publish({ tenantId: auth.tenantId, homeId: resident.home_id, residentId: resident.id }, ['resident']);
  }
  return loadResidentDetails(app, auth.tenantId, resident.id);
}

/** An object body without `_method` (a POST's override may travel there: entries/writes.ts requirePutOverride); anything else as sent, for the contract to refuse. */
function fieldsOf(body: unknown): unknown {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) return body;
  const { _method: _override, ...fields } = body as Record<string, unknown>;
  return fields;
}
