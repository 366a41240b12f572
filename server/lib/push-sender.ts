import { Agent } from 'node:https';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import webpush from 'web-push';
import type { PushMessage } from '../../src/contract/push';
import type { VapidKeys } from '../config';
import type { Database } from '../db/schema';
import { publicOnlyLookup } from './push-endpoints';

/** A stored browser subscription, in the shape web-push (and PushSubscription.toJSON()) uses. */
export interface PushTarget {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** The push service's HTTP status (201 delivered, 404/410 gone, anything else a failure). */
export interface PushSendResult {
  statusCode: number;
}

/**
 * One delivery to a browser's push service. Resolves with the push service's status; rejects only
 * when it could not be reached (network, timeout, a subscription it cannot encrypt for).
 * `app.pushSender`: tests replace it, as nothing here may reach a real push service.
 */
export type PushSender = (target: PushTarget, payload: string) => Promise<PushSendResult>;

/** Per delivery: a slow push service never holds anything up for long. */
const PUSH_TIMEOUT_MS = 5000;
/** A message not delivered within a day is dropped: the next start re-syncs anyway. */
const PUSH_TTL_SECONDS = 24 * 60 * 60;

/**
 * The real sender: web-push with the server's VAPID keys (RFC 8030, RFC 8291 aes128gcm). Its https
 * agent connects only to public addresses (lib/push-endpoints.ts publicOnlyLookup) and verifies
 * certificates as usual. `agent` replaces it: only tests do that (a local push service with its own
 * certificate authority).
 */
export function createWebPushSender(vapid: VapidKeys, options: { agent?: Agent } = {}): PushSender {
  const agent = options.agent ?? new Agent({ lookup: publicOnlyLookup });
  return async (target, payload) => {
    try {
      const result = await webpush.sendNotification(target, payload, {
        vapidDetails: { subject: vapid.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
        agent,
        TTL: PUSH_TTL_SECONDS,
        timeout: PUSH_TIMEOUT_MS,
        urgency: 'normal',
        // Messages with the same topic replace each other while undelivered: one "changed" is enough.
        topic: 'hearth-changed',
      });
      return { statusCode: result.statusCode };
    } catch (error) {
      if (error instanceof webpush.WebPushError) return { statusCode: error.statusCode };
      throw error;
    }
  };
}

/** Only the push service's origin reaches the log: the endpoint's path is a bearer capability. */
function pushServiceOf(endpoint: string): string {
  try {
    return new URL(endpoint).origin;
  } catch {
    return '(invalid endpoint)';
  }
}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

export interface PushDispatchDeps {
  db: Kysely<Database>;
  log: FastifyBaseLogger;
  /** Read at each delivery, so a test can swap `app.pushSender` after start. */
  sender: () => PushSender;
  /**
   * Whether an endpoint may still be called (the allowlist as configured now): a subscription
   * stored before it was set, or before it changed, is skipped, not deleted.
   */
  allowed?: (endpoint: string) => boolean;
  timeoutMs?: number;
}

/**
 * Fire-and-forget pushes to every subscription of a person: never throws into a request, drops
 * subscriptions the push service says are gone (404, 410), logs other failures at warn without the
 * endpoint's secret path. `settled()` waits for deliveries in flight (app close, tests).
 */
export class PushDispatch {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly deps: PushDispatchDeps) {}

  toUser(target: { tenantId: string; userId: string }, message: PushMessage): void {
    const delivery = this.deliver(target, message)
      .catch((error: unknown) => this.deps.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'push: could not send'))
      .finally(() => this.pending.delete(delivery));
    this.pending.add(delivery);
  }

  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private async deliver(target: { tenantId: string; userId: string }, message: PushMessage): Promise<void> {
    const { db, log } = this.deps;
    const rows = await db
      .selectFrom('push_subscriptions')
      .select(['id', 'endpoint', 'p256dh', 'auth'])
      .where('tenant_id', '=', target.tenantId)
      .where('user_id', '=', target.userId)
      .execute();
    if (rows.length === 0) return;
    const payload = JSON.stringify(message);
    const send = this.deps.sender();
    const timeoutMs = this.deps.timeoutMs ?? PUSH_TIMEOUT_MS + 1000;
    await Promise.all(
      rows.map(async (row) => {
        const service = pushServiceOf(row.endpoint);
        if (this.deps.allowed && !this.deps.allowed(row.endpoint)) {
          log.warn({ push_service: service }, 'push: not an allowed push service, skipped');
          return;
        }
        try {
          const { statusCode } = await withDeadline(send({ endpoint: row.endpoint, keys: { p256dh: row.p256dh, auth: row.auth } }, payload), timeoutMs);
          if (statusCode === 404 || statusCode === 410) {
            // Gone for good (unsubscribed, expired, app data cleared): never try it again.
            await db.deleteFrom('push_subscriptions').where('id', '=', row.id).where('endpoint', '=', row.endpoint).execute();
            log.info({ push_service: service, status: statusCode }, 'push: subscription gone, removed');
          } else if (statusCode < 200 || statusCode >= 300) {
            log.warn({ push_service: service, status: statusCode }, 'push: not accepted');
          }
        } catch (error) {
          log.warn({ push_service: service, err: error instanceof Error ? error.message : String(error) }, 'push: could not send');
        }
      }),
    );
  }
}
