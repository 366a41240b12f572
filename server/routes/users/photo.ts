import type { FastifyInstance } from 'fastify';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import { idParamsSchema } from '../../../src/contract/users';
import { HttpError } from '../../lib/http-errors';
import { parse } from '../../lib/validate';
import { requireAuth } from '../../plugins/session';
import { assertCanSee } from '../../domain/access';
import { paths } from '../../../src/contract/paths';

/**
 * GET /api/v1/users/profile/photo/{id}: the image bytes. Photos may be SVG, so the answer gets a
 * sandboxing CSP and nosniff: opened directly, a hostile SVG could run no script.
 */
export default async function photoRoute(app: FastifyInstance) {
  // Bytes, never compressed per request (plugins/compression.ts).
  app.get(paths.profilePhoto.pattern, { compress: false }, async (request, reply) => {
    const auth = requireAuth(request);
    const { id } = parse(idParamsSchema, request.params);
    await assertCanSee(app, auth, id);
    const photo = await app.db
      .selectFrom('user_photos')
      .select(['mime', 'bytes'])
      .where('user_id', '=', id)
      .where('tenant_id', '=', auth.tenantId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!photo) throw new HttpError(404, chosen.notFound);
    return reply
      .header('content-type', photo.mime)
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
      .header('content-disposition', 'inline')
      .send(Buffer.from(photo.bytes));
  });
}
