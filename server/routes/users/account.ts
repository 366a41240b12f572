import type { FastifyInstance } from 'fastify';
import type { Account } from '../../../src/contract/users';
import { HttpError } from '../../lib/http-errors';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import { requireAuth } from '../../plugins/session';
import { accountOf } from '../../domain/users/account';
import { paths } from '../../../src/contract/paths';

/** GET /api/v1/auth/user: the signed-in account (allowed while two-factor set-up is pending). */
export default async function accountRoute(app: FastifyInstance) {
  app.get(paths.account.pattern, async (request): Promise<Account> => {
    const auth = requireAuth(request, { allowSetup: true });
    const account = await accountOf(app, auth);
    if (!account) throw new HttpError(401, chosen.unauthenticated);
    return account;
  });
}
