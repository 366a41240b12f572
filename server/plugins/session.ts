import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { SESSION_COOKIE } from '../../src/contract/app-config';
import { chosenMessages as chosen } from '../../src/contract/messages';
import type { Database, SessionState } from '../db/schema';
import { sha256 } from '../lib/crypto';
import { HttpError } from '../lib/http-errors';
import { randomToken } from '../lib/tokens';
import type { CurrentSession } from '../types';
import { setCsrfCookie } from './csrf';
import { isApiRequest } from '../lib/api-path';
import { compiledOnce } from '../db/compiled-once';

/**
 * Server-side sessions. The cookie holds 32 random bytes; the database keeps only their SHA-256,
 * so a copy of the table cannot be replayed. Lifetimes are in lib/auth-limits.ts.
 */
/** user_types row of young people (migration 0001); every other type is staff. */
export const YOUNG_PERSON_TYPE_ID = 1;

export interface SignedIn {
  sessionId: string;
  tenantId: string;
  userId: string;
  state: Exclude<SessionState, 'guest'>;
}

function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
  });
}

async function createSession(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  owner: { tenantId: string | null; userId: string | null; state: SessionState },
): Promise<CurrentSession> {
  const token = randomToken();
  const tokenHash = sha256(token);
  const now = Date.now();
  const idle = owner.state === 'guest' ? app.limits.guestIdleMs : app.limits.idleMs;
  const absolute = owner.state === 'guest' ? app.limits.guestIdleMs : app.limits.absoluteMs;
  const row = await app.db
    .insertInto('sessions')
    .values({
      token_hash: tokenHash,
      tenant_id: owner.tenantId,
      user_id: owner.userId,
      state: owner.state,
      ip: request.ip,
      user_agent: request.headers['user-agent']?.slice(0, 300) ?? null,
      idle_expires_at: new Date(now + idle),
      absolute_expires_at: new Date(now + absolute),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  setSessionCookie(request, reply, token);
  setCsrfCookie(app, request, reply, tokenHash);
  // A new session's own request is a sign-in under /api/auth, which is never recorded; from the
  // next request on, the loader below reads who the person is.
  const session: CurrentSession = { id: row.id, tokenHash, ...owner, staff: false };
  request.session = session;
  return session;
}

/** The current session, or a new guest one (login needs a session for its CSRF token). */
export async function ensureSession(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<CurrentSession> {
  return request.session ?? createSession(app, request, reply, { tenantId: null, userId: null, state: 'guest' });
}

/** Sign-in always gets a new token (no session fixation); the previous row is deleted. */
export async function startSession(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  owner: { tenantId: string; userId: string; state: 'mfa_setup' | 'full' },
): Promise<CurrentSession> {
  if (request.session) await app.db.deleteFrom('sessions').where('id', '=', request.session.id).execute();
  return createSession(app, request, reply, owner);
}

/**
 * A new token for the current session, in the same row: once the password changed, a copy of the
 * old cookie, stolen from this very browser, no longer works. The caller tells the notifier
 * (`renewedSessionId`): the session's event streams opened with the old token end, a thief's and
 * this browser's alike, and the browser's reconnects with the new cookie.
 * `write` stores the new token's hash (in the caller's transaction); `send` then gives the browser
 * the token and an anti-forgery token bound to it, after that transaction committed.
 */
export function newSessionToken(request: FastifyRequest) {
  const token = randomToken();
  const tokenHash = sha256(token);
  return {
    write: async (db: Kysely<Database>, sessionId: string) => {
      await db.updateTable('sessions').set({ token_hash: tokenHash }).where('id', '=', sessionId).execute();
    },
    send: (app: FastifyInstance, reply: FastifyReply) => {
      setSessionCookie(request, reply, token);
      setCsrfCookie(app, request, reply, tokenHash);
      if (request.session) request.session = { ...request.session, tokenHash };
    },
  };
}

/** Sign-out: the row goes, and the browser gets a fresh guest session and CSRF token. */
export async function endSession(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.session) {
    await app.db.deleteFrom('sessions').where('id', '=', request.session.id).execute();
    if (request.session.tenantId) app.notifier.endSessions({ tenantId: request.session.tenantId, sessionId: request.session.id });
  }
  request.session = null;
  await createSession(app, request, reply, { tenantId: null, userId: null, state: 'guest' });
}

/**
 * The signed-in person, or 401. A session still waiting for two-factor set-up is refused with
 * 403 except on the few routes that pass allowSetup.
 */
export function requireAuth(request: FastifyRequest, options: { allowSetup?: boolean } = {}): SignedIn {
  const session = request.session;
  if (!session || session.state === 'guest' || !session.userId || !session.tenantId) {
    throw new HttpError(401, chosen.unauthenticated);
  }
  if (session.state === 'mfa_setup' && !options.allowSetup) throw new HttpError(403, chosen.mfaSetupRequired);
  return { sessionId: session.id, tenantId: session.tenantId, userId: session.userId, state: session.state };
}

/**
 * The one query every API request with a session cookie runs: the live session of this token and
 * whether its idle expiry is due a push forward. Built and compiled once (db/compiled-once.ts), and
 * prepared on PostgreSQL (db/prepared-statements.ts). Expiry is decided by the database's clock, in the
 * same statement, so a session is valid until the very moment it is not. Nothing is cached between
 * requests: a session ended by sign-out, a password change, a removed account or its expiry is
 * refused on the next request, on whichever process it lands.
 */
const findSession = compiledOnce((db, v: { tokenHash: string; touchEverySeconds: number }) =>
  db
    .selectFrom('sessions')
    .leftJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.id',
      'sessions.token_hash',
      'sessions.tenant_id',
      'sessions.user_id',
      'sessions.state',
      'users.deleted_at as user_deleted_at',
      'users.tenant_id as user_tenant_id',
      'users.user_type_id',
      sql<boolean>`sessions.updated_at < now() - make_interval(secs => ${v.touchEverySeconds})`.as('touch_due'),
    ])
    .where('sessions.token_hash', '=', v.tokenHash)
    .where('sessions.idle_expires_at', '>', sql<Date>`now()`)
    .where('sessions.absolute_expires_at', '>', sql<Date>`now()`),
);

/**
 * Pushes the idle expiry forward, at most once a minute (authLimits.touchEveryMs) per session: the
 * lookup says when it is due, and the update repeats that condition, so of several requests (or
 * processes) that saw it due at once only the first writes; the others match no row. Never past
 * the absolute expiry.
 */
const touchSession = compiledOnce((db, v: { id: string; idleSeconds: number; touchEverySeconds: number }) =>
  db
    .updateTable('sessions')
    .set({
      idle_expires_at: sql`least(now() + make_interval(secs => ${v.idleSeconds}), absolute_expires_at)`,
      updated_at: sql`now()`,
    })
    .where('id', '=', v.id)
    .where(sql<boolean>`updated_at < now() - make_interval(secs => ${v.touchEverySeconds})`),
);

export function registerSessions(app: FastifyInstance): void {
  app.decorateRequest('session', null);
  const touchEverySeconds = app.limits.touchEveryMs / 1000;
  // Sessions this process is touching now: the requests that arrive meanwhile need not try too.
  const touching = new Set<string>();

  app.addHook('onRequest', async (request) => {
    request.session = null;
    if (!isApiRequest(request)) return;
    const token = request.cookies[SESSION_COOKIE];
    if (!token || token.length > 100) return;
    const [row] = await findSession(app.db, { tokenHash: sha256(token), touchEverySeconds });
    if (!row) return;
    // A person removed (or moved) since sign-in no longer has a session.
    if (row.user_id && (row.user_deleted_at !== null || row.user_tenant_id !== row.tenant_id)) return;
    request.session = {
      id: row.id,
      tokenHash: row.token_hash,
      tenantId: row.tenant_id,
      userId: row.user_id,
      state: row.state,
      staff: row.user_type_id !== null && row.user_type_id !== YOUNG_PERSON_TYPE_ID,
    };
    if (row.touch_due && !touching.has(row.id)) {
      touching.add(row.id);
      try {
        const idle = row.state === 'guest' ? app.limits.guestIdleMs : app.limits.idleMs;
        await touchSession(app.db, { id: row.id, idleSeconds: idle / 1000, touchEverySeconds });
      } finally {
        touching.delete(row.id);
      }
    }
  });

  // Expired rows are harmless (every lookup checks expiry) but would pile up; purge them now and then.
  const cleanup = async () => {
    try {
      await app.db
        .deleteFrom('sessions')
        .where((eb) => eb.or([eb('idle_expires_at', '<', sql<Date>`now()`), eb('absolute_expires_at', '<', sql<Date>`now()`)]))
        .execute();
      await app.db.deleteFrom('mfa_challenges').where('expires_at', '<', sql<Date>`now()`).execute();
      await app.db
        .deleteFrom('auth_throttles')
        .where((eb) =>
          eb.and([
            eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', sql<Date>`now()`)]),
            eb('window_started_at', '<', sql<Date>`now() - interval '1 day'`),
          ]),
        )
        .execute();
    } catch (error) {
      app.log.warn({ err: error }, 'session cleanup failed');
    }
  };
  let timer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    timer = setInterval(() => void cleanup(), app.limits.cleanupEveryMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
