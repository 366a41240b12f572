import type { FastifyInstance } from 'fastify';
import { requireAuth } from '../../plugins/session';
import { toTheme } from '../../domain/users/themes';
import { paths } from '../../../src/contract/paths';

/** GET /api/v1/users/types and /api/v1/users/themes: shared lists (allowed during set-up). */
export default async function lookupRoutes(app: FastifyInstance) {
  app.get(paths.userTypes.pattern, async (request) => {
    requireAuth(request, { allowSetup: true });
    const data = await app.db.selectFrom('user_types').select(['id', 'system_name', 'name']).orderBy('id').execute();
    return { success: true as const, data };
  });

  app.get(paths.userThemes.pattern, async (request) => {
    requireAuth(request, { allowSetup: true });
    const rows = await app.db.selectFrom('themes').selectAll().orderBy('id').execute();
    return { success: true as const, data: rows.map(toTheme) };
  });
}
