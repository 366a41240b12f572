import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CSRF_COOKIE, CSRF_HEADER } from '../../src/contract/app-config';
import { chosenMessages as chosen } from '../../src/contract/messages';
import { hmac, safeEqual } from '../lib/crypto';
import { HttpError } from '../lib/http-errors';
import { randomToken } from '../lib/tokens';
import '../types';
import { isApiRequest } from '../lib/api-path';

/**
 * Double-submit token bound to the session: `<random>.<HMAC(key, sessionHash.random)>`. A page on
 * another origin can neither read the cookie nor mint a token that verifies against our session.
 */
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function setCsrfCookie(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, sessionHash: string): void {
  const random = randomToken(18);
  const token = `${random}.${hmac(app.keys.csrf, `${sessionHash}.${random}`)}`;
  reply.setCookie(CSRF_COOKIE, token, {
    path: '/',
    sameSite: 'lax',
    httpOnly: false,
    secure: request.protocol === 'https',
  });
}

function tokenMatchesSession(app: FastifyInstance, token: string, sessionHash: string): boolean {
  const [random, mac, extra] = token.split('.');
  if (!random || !mac || extra !== undefined) return false;
  return safeEqual(mac, hmac(app.keys.csrf, `${sessionHash}.${random}`));
}

export function registerCsrf(app: FastifyInstance): void {
  // Runs after the session hook (registered earlier), before the body is parsed.
  app.addHook('onRequest', async (request) => {
    if (!UNSAFE.has(request.method) || !isApiRequest(request)) return;
    const header = request.headers[CSRF_HEADER.toLowerCase()];
    const cookie = request.cookies[CSRF_COOKIE];
    const ok =
      typeof header === 'string' &&
      typeof cookie === 'string' &&
      request.session !== null &&
      safeEqual(header, cookie) &&
      tokenMatchesSession(app, header, request.session.tokenHash);
    if (!ok) throw new HttpError(419, chosen.csrfMissing);
  });
}
