import type { FastifyInstance } from 'fastify';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import { HttpError } from '../../lib/http-errors';
import type { SignedIn } from '../../plugins/session';
import { confirmCurrentPassword } from '../users/current-password';

/**
 * Step-up (issue 12 finding 11): a signed-in session must give the password again before it starts
 * a two-factor method, so whoever picks up a tablet left signed in can't bind their own email or
 * authenticator (and read the recovery codes). A wrong password counts towards the same lock as a
 * failed sign-in; none at all is a 422 on `current`, which the app reads as "ask for it".
 */
export async function stepUp(app: FastifyInstance, auth: SignedIn, password: string | undefined): Promise<void> {
  if (password === undefined || password === '') {
    throw new HttpError(422, chosen.validationFailed, { current: [chosen.currentPasswordRequired] });
  }
  if (!(await confirmCurrentPassword(app, auth, password))) throw new HttpError(401, chosen.unauthenticated);
}

/**
 * A two-factor change: every address this person has (their account's email, the addresses of
 * their email codes, and `alsoTell`, say an address just removed) hears of it, except `skip` (an
 * address just added, which got its own code), so a change they did not make does not go unseen.
 * Content-light: no code, no secret; what changed and what to do.
 */
export async function tellAddresses(app: FastifyInstance, auth: SignedIn, change: string, options: { skip?: string | null; alsoTell?: string | null } = {}): Promise<void> {
  const user = await app.db.selectFrom('users').select(['email']).where('id', '=', auth.userId).where('tenant_id', '=', auth.tenantId).executeTakeFirst();
  const methods = await app.db
    .selectFrom('mfa_methods')
    .select(['email'])
    .where('tenant_id', '=', auth.tenantId)
    .where('user_id', '=', auth.userId)
    .where('method', '=', 'email')
    .where('confirmed_at', 'is not', null)
    .where('deleted_at', 'is', null)
    .execute();
  const skip = options.skip?.trim().toLowerCase();
  const addresses = new Map<string, string>();
  for (const address of [user?.email, ...methods.map((row) => row.email), options.alsoTell]) {
    const key = address?.trim().toLowerCase();
    if (address && key && key !== skip) addresses.set(key, address.trim());
  }
  const product = app.config.productName;
  for (const to of addresses.values()) {
    await app.mailer
      .send({
        to,
        subject: `Two-factor sign-in changed on your ${product} account`,
        text: `${change} for your ${product} account.\n\nIf this was you, there is nothing to do. If it was not, tell a member of staff you trust today.`,
      })
      .catch((error: unknown) => app.log.warn({ err: error }, 'two-factor change notice not sent'));
  }
}

const METHOD_WORDS = { authenticator: 'an authenticator app', email: 'codes sent by email' } as const;

/** A method was turned on: the other addresses hear of it (the new one got its own code). */
export function tellOtherAddresses(app: FastifyInstance, auth: SignedIn, method: 'authenticator' | 'email', newAddress: string | null): Promise<void> {
  return tellAddresses(app, auth, `Two-factor sign-in with ${METHOD_WORDS[method]} was just turned on`, { skip: newAddress });
}

/** A method was turned off: every address hears of it, the removed one too. */
export function tellMethodRemoved(app: FastifyInstance, auth: SignedIn, method: 'authenticator' | 'email', removedAddress: string | null): Promise<void> {
  return tellAddresses(app, auth, `Two-factor sign-in with ${METHOD_WORDS[method]} was just turned off`, { alsoTell: removedAddress });
}
