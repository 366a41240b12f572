import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import { appSettingsUpdateSchema, JOURNAL_COLOURS, JOURNAL_PAPERS, JOURNAL_THEME_NOT_FOUND } from '../../../src/contract/residents';
import { idParamsSchema } from '../../../src/contract/users';
import { HttpError } from '../../lib/http-errors';
import { laterStamp } from '../../lib/timestamps';
import { parse } from '../../lib/validate';
import { requireAuth } from '../../plugins/session';
import { reachableResident } from '../../domain/access';
import { loadResidentDetails } from '../../domain/residents/details';
import { paths } from '../../../src/contract/paths';

/**
 * PUT /api/v1/projects/residents/{id}/app-settings (also POST with ?_method=PUT): journal colour,
 * journal paper, theme and the kids_app style. Only the young person changes their own; staff of the
 * home get 403. An unknown colour or paper answers SPEC §8's "personalised_journal theme not found".
 * `kids_style` is the account's kids_app theme (users.theme_id, the `themes` of GET /v1/auth/user).
 */
export default async function appSettingsRoute(app: FastifyInstance) {
  const handler = async (request: FastifyRequest) => {
    const auth = requireAuth(request);
    const { id } = parse(idParamsSchema, request.params);
    const resident = await reachableResident(app, auth, id);
    if (!resident.isSelf) throw new HttpError(403, chosen.forbidden);
    const input = parse(appSettingsUpdateSchema, request.body ?? {});

    const themeErrors: Record<string, string[]> = {};
    if (input.journal_colour !== undefined && !(JOURNAL_COLOURS as readonly string[]).includes(input.journal_colour)) {
      themeErrors.journal_colour = [JOURNAL_THEME_NOT_FOUND];
    }
    if (input.journal_paper !== undefined && !(JOURNAL_PAPERS as readonly string[]).includes(input.journal_paper)) {
      themeErrors.journal_paper = [JOURNAL_THEME_NOT_FOUND];
    }
    if (Object.keys(themeErrors).length > 0) throw new HttpError(422, JOURNAL_THEME_NOT_FOUND, themeErrors);

    await app.db.transaction().execute(async (tx) => {
      if (input.kids_style !== undefined) {
        const theme = await tx
          .selectFrom('themes')
          .select('id')
          .where('system_name', '=', input.kids_style)
          .where('theme_type', '=', 'kids_app')
          .executeTakeFirstOrThrow();
        await tx.updateTable('users').set({ theme_id: theme.id, updated_at: sql`now()` }).where('id', '=', auth.userId).execute();
      }
      // The resident record carries app_settings (kids_style included): its updated_at moves so replicas pull it.
      await tx
        .updateTable('residents')
        .set({
          ...(input.journal_colour !== undefined ? { journal_colour: input.journal_colour } : {}),
          ...(input.journal_paper !== undefined ? { journal_paper: input.journal_paper } : {}),
          ...(input.theme !== undefined ? { theme: input.theme } : {}),
          updated_at: laterStamp('residents.updated_at'),
        })
        .where('tenant_id', '=', auth.tenantId)
        .where('id', '=', resident.id)
        .execute();
    });
    app.notifier.publish({ tenantId: auth.tenantId, homeId: resident.home_id, residentId: resident.id }, ['resident']);
    return { success: true as const, data: await loadResidentDetails(app, auth.tenantId, resident.id) };
  };

  const config = { idempotent: true };
  app.put(paths.appSettings.pattern, { config }, handler);
  app.post(paths.appSettings.pattern, { config }, async (request) => {
    const override = (request.query as Record<string, unknown> | undefined)?._method;
    if (typeof override !== 'string' || override.toUpperCase() !== 'PUT') throw new HttpError(404, chosen.notFound);
    return handler(request);
  });
}
