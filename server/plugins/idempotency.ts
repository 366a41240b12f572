import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { chosenMessages as chosen } from '../../src/contract/messages';
import { IDEMPOTENCY_HEADER, IDEMPOTENT_REPLAY_HEADER } from '../../src/contract/sync';
import { sha256 } from '../lib/crypto';
import { HttpError } from '../lib/http-errors';
import { requireAuth } from './session';

/**
 * Idempotent writes (contract sync.ts). On a route with `config: { idempotent: true }`, a request
 * carrying `Idempotency-Key` (1 to 100 characters) first claims (tenant, user, key) with an
 * insert that the unique constraint lets only one request win:
 * - the winner runs the handler; its 2xx or 4xx answer is stored, a 5xx frees the key again;
 * - a repeat with the same method, path and body gets the stored status and body back with
 *   `Idempotent-Replayed: true`, without running the handler; if the first is still running it
 *   waits up to 10 s for it (then 409, which the client retries);
 * - the same key with a different method, path or body is a 422.
 * Keys expire after 24 hours. A claim left unanswered for a minute (a crashed process) is taken
 * over by the next repeat: the one window in which a write could run twice. On the embedded
 * database only one process ever runs, so at start every unanswered claim is a dead process's:
 * server/main.ts frees them at once (`releaseAbandonedClaims`), and a resend after a crash is
 * answered straight away instead of with a minute of 409s.
 */
const IDEMPOTENCY_TTL_HOURS = 24;
const WAIT_MS = 10_000;
const POLL_MS = 40;
const STALE_SECONDS = 60;
const MAX_KEY_LENGTH = 100;
const PURGE_EVERY_MS = 60 * 60 * 1000;

const headerName = IDEMPOTENCY_HEADER.toLowerCase();

/** JSON with object keys sorted, so the same body always hashes the same. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  if (Buffer.isBuffer(value)) return JSON.stringify(sha256(value.toString('base64')));
  return JSON.stringify(value ?? null);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Frees every claim that has no answer. Only where no other process can be mid-request (PGlite). */
export async function releaseAbandonedClaims(db: Kysely<Database>): Promise<number> {
  const freed = await db.deleteFrom('idempotency_keys').where('status', 'is', null).executeTakeFirst();
  return Number(freed.numDeletedRows);
}

export function registerIdempotency(app: FastifyInstance): void {
  app.decorateRequest('idempotencyClaim', null);

  app.addHook('preHandler', async (request, reply) => {
    if (!request.routeOptions.config.idempotent) return;
    const key = request.headers[headerName];
    if (key === undefined) return;
    if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH) {
      throw new HttpError(422, chosen.validationFailed, { [IDEMPOTENCY_HEADER]: [`${IDEMPOTENCY_HEADER} must be 1 to ${MAX_KEY_LENGTH} characters`] });
    }
    const auth = requireAuth(request);
    const owner = { tenant_id: auth.tenantId, user_id: auth.userId, key };
    const method = request.method;
    const path = request.url;
    const requestHash = sha256(stableJson(request.body ?? null));
    const deadline = Date.now() + WAIT_MS;

    for (;;) {
      await app.db
        .deleteFrom('idempotency_keys')
        .where('tenant_id', '=', owner.tenant_id)
        .where('user_id', '=', owner.user_id)
        .where('key', '=', key)
        .where('created_at', '<', sql<Date>`now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`)
        .execute();
      const claimed = await app.db
        .insertInto('idempotency_keys')
        .values({ ...owner, method, path, request_hash: requestHash, status: null, body: null })
        .onConflict((oc) => oc.columns(['tenant_id', 'user_id', 'key']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (claimed) {
        request.idempotencyClaim = { id: claimed.id };
        return;
      }
      const stored = await app.db
        .selectFrom('idempotency_keys')
        .select(['id', 'method', 'path', 'request_hash', 'status', 'body', sql<boolean>`created_at < now() - make_interval(secs => ${STALE_SECONDS})`.as('stale')])
        .where('tenant_id', '=', owner.tenant_id)
        .where('user_id', '=', owner.user_id)
        .where('key', '=', key)
        .executeTakeFirst();
      if (!stored) continue;
      if (stored.method !== method || stored.path !== path || stored.request_hash !== requestHash) {
        throw new HttpError(422, `This ${IDEMPOTENCY_HEADER} was already used for a different request`, {
          [IDEMPOTENCY_HEADER]: [`This ${IDEMPOTENCY_HEADER} was already used for a different request`],
        });
      }
      if (stored.status !== null) {
        return reply.code(stored.status).header(IDEMPOTENT_REPLAY_HEADER, 'true').type('application/json; charset=utf-8').send(stored.body);
      }
      if (stored.stale) {
        const taken = await app.db
          .updateTable('idempotency_keys')
          .set({ created_at: sql`now()` })
          .where('id', '=', stored.id)
          .where('status', 'is', null)
          .where(sql<boolean>`created_at < now() - make_interval(secs => ${STALE_SECONDS})`)
          .returning('id')
          .executeTakeFirst();
        if (taken) {
          request.idempotencyClaim = { id: taken.id };
          return;
        }
        continue;
      }
      if (Date.now() > deadline) throw new HttpError(409, `A request with this ${IDEMPOTENCY_HEADER} is still being processed`);
      await sleep(POLL_MS);
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const claim = request.idempotencyClaim;
    if (!claim) return payload;
    request.idempotencyClaim = null;
    const storable = reply.statusCode < 500 && typeof payload === 'string';
    if (storable) {
      await app.db
        .updateTable('idempotency_keys')
        .set({ status: reply.statusCode, body: sql<string>`cast(${payload || 'null'} as jsonb)` })
        .where('id', '=', claim.id)
        .execute();
    } else {
      await app.db.deleteFrom('idempotency_keys').where('id', '=', claim.id).execute();
    }
    return payload;
  });

  // An answer that never went out (the connection died first) frees its key.
  app.addHook('onResponse', async (request) => {
    const claim = request.idempotencyClaim;
    if (!claim) return;
    request.idempotencyClaim = null;
    await app.db.deleteFrom('idempotency_keys').where('id', '=', claim.id).where('status', 'is', null).execute();
  });

  let timer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      app.db
        .deleteFrom('idempotency_keys')
        .where('created_at', '<', sql<Date>`now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`)
        .execute()
        .catch((error: unknown) => app.log.warn({ err: error }, 'idempotency key purge failed'));
    }, PURGE_EVERY_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
