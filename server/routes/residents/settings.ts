import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import { EXPLICIT_IMAGE_SENSITIVITY } from '../../../src/contract/residents';
import { HttpError } from '../../lib/http-errors';
import { parse } from '../../lib/validate';
import { requireAuth } from '../../plugins/session';
import { reachableResident } from '../../domain/access';
import { paths } from '../../../src/contract/paths';

/** Settings a young person's project has, with the value used when none is stored. */
const SETTING_DEFAULTS: Record<string, string | null> = {
  [EXPLICIT_IMAGE_SENSITIVITY]: 'medium',
};

const paramsSchema = z.object({ id: z.uuid(), name: z.string().min(1).max(100) });

/** GET /api/v1/projects/{id}/settings/{name}: the project is the young person (id = resident id). */
export default async function projectSettingRoute(app: FastifyInstance) {
  app.get(paths.projectSetting.pattern, async (request) => {
    const auth = requireAuth(request);
    const { id, name } = parse(paramsSchema, request.params);
    const resident = await reachableResident(app, auth, id);
    if (!Object.hasOwn(SETTING_DEFAULTS, name)) throw new HttpError(404, chosen.notFound);
    const row = await app.db
      .selectFrom('resident_settings')
      .select('value')
      .where('tenant_id', '=', auth.tenantId)
      .where('resident_id', '=', resident.id)
      .where('name', '=', name)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return { success: true as const, data: { name, value: row ? row.value : (SETTING_DEFAULTS[name] ?? null) } };
  });
}
