import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { messages } from '../../../src/contract/messages';
import type { MfaChallenge } from '../../db/schema';
import { sha256 } from '../../lib/crypto';
import { HttpError } from '../../lib/http-errors';
import { randomToken } from '../../lib/tokens';

/**
 * A two-factor challenge: issued after a correct password, bound to the browser session that
 * gave it, valid 10 minutes. The id handed to the client is a random token; we keep its hash.
 */
export async function createChallenge(
  app: FastifyInstance,
  owner: { tenantId: string; userId: string; sessionId: string },
): Promise<string> {
  const token = randomToken();
  // One live challenge per person and session: a new login replaces the previous one.
  await app.db
    .deleteFrom('mfa_challenges')
    .where('user_id', '=', owner.userId)
    .where('session_id', '=', owner.sessionId)
    .execute();
  await app.db
    .insertInto('mfa_challenges')
    .values({
      tenant_id: owner.tenantId,
      user_id: owner.userId,
      session_id: owner.sessionId,
      token_hash: sha256(token),
      expires_at: new Date(Date.now() + app.limits.challengeMs),
    })
    .execute();
  return token;
}

/** The live challenge for this id and this session, or the matching 422. */
export async function findChallenge(app: FastifyInstance, request: FastifyRequest, twoFactorId: string): Promise<MfaChallenge> {
  const challenge = await app.db
    .selectFrom('mfa_challenges')
    .selectAll()
    .select(sql<boolean>`expires_at <= now()`.as('expired'))
    .where('token_hash', '=', sha256(twoFactorId))
    .executeTakeFirst();
  if (!challenge || !request.session || challenge.session_id !== request.session.id) {
    throw new HttpError(422, messages.invalidMfaSession);
  }
  if (challenge.expired) {
    await app.db.deleteFrom('mfa_challenges').where('id', '=', challenge.id).execute();
    throw new HttpError(422, messages.mfaSessionExpired);
  }
  const { expired: _expired, ...row } = challenge;
  return row;
}
