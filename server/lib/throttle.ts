import { sql, type Kysely } from 'kysely';
import { chosenMessages as chosen } from '../../src/contract/messages';
import type { Database } from '../db/schema';
import { HttpError } from './http-errors';

/**
 * Failure counters kept in the database, so a lock holds across restarts and processes.
 * A key counts failures inside a fixed window; reaching the limit locks the key for lockMs.
 */
export interface ThrottleRule {
  max: number;
  windowMs: number;
  lockMs: number;
}

export const throttleKeys = {
  account: (tenantId: string, username: string) => `password:${tenantId}:${username.trim().toLowerCase()}`,
  ip: (ip: string) => `ip:${ip}`,
  codes: (userId: string) => `codes:${userId}`,
};

export function tooManyAttempts(lockedUntil: Date): HttpError {
  const seconds = Math.max(1, Math.ceil((lockedUntil.getTime() - Date.now()) / 1000));
  return new HttpError(429, chosen.tooManyAttempts(Math.ceil(seconds / 60)), undefined, {
    'retry-after': String(seconds),
  });
}

/** Throws 429 when the key is locked now. */
export async function assertNotLocked(db: Kysely<Database>, key: string): Promise<void> {
  const row = await db
    .selectFrom('auth_throttles')
    .select('locked_until')
    .where('key', '=', key)
    .where('locked_until', '>', sql<Date>`now()`)
    .executeTakeFirst();
  if (row?.locked_until) throw tooManyAttempts(row.locked_until);
}

/** Counts one failure atomically; returns the lock end when this failure reached the limit. */
export async function recordFailure(db: Kysely<Database>, key: string, rule: ThrottleRule): Promise<Date | null> {
  const windowStart = sql<Date>`now() - make_interval(secs => ${rule.windowMs / 1000})`;
  const lockEnd = sql<Date>`now() + make_interval(secs => ${rule.lockMs / 1000})`;
  const row = await db
    .insertInto('auth_throttles')
    .values({ key, failures: 1, window_started_at: sql`now()`, updated_at: sql`now()` })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        failures: sql`case when auth_throttles.window_started_at < ${windowStart} then 1 else auth_throttles.failures + 1 end`,
        window_started_at: sql`case when auth_throttles.window_started_at < ${windowStart} then now() else auth_throttles.window_started_at end`,
        updated_at: sql`now()`,
      }),
    )
    .returning(['failures'])
    .executeTakeFirstOrThrow();
  if (row.failures < rule.max) return null;
  const locked = await db
    .updateTable('auth_throttles')
    .set({ locked_until: lockEnd, failures: 0, window_started_at: sql`now()` })
    .where('key', '=', key)
    .returning('locked_until')
    .executeTakeFirstOrThrow();
  return locked.locked_until;
}

export async function clearFailures(db: Kysely<Database>, key: string): Promise<void> {
  await db.deleteFrom('auth_throttles').where('key', '=', key).execute();
}
