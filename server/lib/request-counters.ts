import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

/**
 * A store for @fastify/rate-limit that counts in PostgreSQL (migration 0011, request_counters):
 * with several server processes, on one machine or many, the coarse per-IP ceiling of
 * plugins/rate-limit.ts is one count, not one per process (which would let n processes take n
 * times the ceiling). A fixed window per key, as the plugin's own in-memory store keeps it; one
 * upsert per counted request (only /api/auth/* is counted). Expired counters are purged by
 * `purgeRequestCounters`.
 */
type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;
/** What the plugin passes to a store and its children: its options, merged (the types say RouteOptions). */
type Limits = { timeWindow?: unknown; max?: unknown };

/** The store class the plugin instantiates (it passes only options, so the database is closed over). */
export function databaseRateLimitStore(db: Kysely<Database>): FastifyRateLimitStoreCtor {
  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    /** Limiters with different windows or ceilings (plugin children) count apart: the same in every process. */
    private readonly namespace: string;

    constructor(options: object) {
      const { timeWindow, max } = options as Limits;
      this.namespace = `rate:${typeof timeWindow === 'number' ? timeWindow : ''}:${typeof max === 'number' ? max : ''}`;
    }

    incr(key: string, callback: Callback, timeWindow: number): void {
      const window = sql`make_interval(secs => ${timeWindow / 1000})`;
      sql<{ count: number; ttl: number }>`
        insert into request_counters (key, count, window_ends_at) values (${`${this.namespace}:${key}`}, 1, now() + ${window})
        on conflict (key) do update set
          count = case when request_counters.window_ends_at <= now() then 1 else request_counters.count + 1 end,
          window_ends_at = case when request_counters.window_ends_at <= now() then now() + ${window} else request_counters.window_ends_at end
        returning count, cast(ceil(extract(epoch from (window_ends_at - now())) * 1000) as integer) as ttl`
        .execute(db)
        .then(({ rows }) => callback(null, { current: rows[0]!.count, ttl: Math.max(0, rows[0]!.ttl) }), (error: Error) => callback(error));
    }

    read(key: string, callback: Callback): void {
      db.selectFrom('request_counters')
        .select(['count', sql<number>`cast(ceil(extract(epoch from (window_ends_at - now())) * 1000) as integer)`.as('ttl')])
        .where('key', '=', `${this.namespace}:${key}`)
        .where('window_ends_at', '>', sql<Date>`now()`)
        .executeTakeFirst()
        .then((row) => callback(null, row ? { current: row.count, ttl: row.ttl } : { current: 0, ttl: 0 }), (error: Error) => callback(error));
    }

    child(routeOptions: object): FastifyRateLimitStore {
      return new DatabaseRateLimitStore(routeOptions);
    }
  }
  return DatabaseRateLimitStore;
}

/** Deletes counters whose window ended (they count from 1 again anyway). */
export async function purgeRequestCounters(db: Kysely<Database>): Promise<void> {
  await db.deleteFrom('request_counters').where('window_ends_at', '<', sql<Date>`now()`).execute();
}
