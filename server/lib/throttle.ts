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

/**
 * A success forgets the key's failures; a lock in force stays (a guess that failed alongside may
 * have set it, and it still holds for everyone else).
 */
export async function clearFailures(db: Kysely<Database>, key: string): Promise<void> {
  await db
    .deleteFrom('auth_throttles')
    .where('key', '=', key)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', sql<Date>`now()`)]))
    .execute();
}

/**
 * One guess (a password, a two-factor code) claimed before it is checked. A lock checked first and
 * a failure counted after let guesses sent at once all be checked before any was counted: twenty
 * passwords of one account, not five. So the window's counter goes up as the guess is claimed, and
 * a guess is only checked while the guesses claimed in the window, failed or still in flight, stay
 * within the rule; its outcome then locks the key (`failedAttempt`) or takes the count back
 * (`refundAttempt`). One at a time, this is the rule as before: a failure counts one, a success none.
 */
export interface Attempt {
  key: string;
  rule: ThrottleRule;
  /** The counter with this guess in it. */
  count: number;
}

/** Claims a guess on `key`; 429 while the key is locked or the guesses of its window are spent. */
export async function claimAttempt(db: Kysely<Database>, key: string, rule: ThrottleRule): Promise<Attempt> {
  const windowStart = sql<Date>`now() - make_interval(secs => ${rule.windowMs / 1000})`;
  const row = await db
    .insertInto('auth_throttles')
    .values({ key, failures: 1, window_started_at: sql`now()`, updated_at: sql`now()` })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet({
          failures: sql`case when auth_throttles.window_started_at < ${windowStart} then 1 else auth_throttles.failures + 1 end`,
          window_started_at: sql`case when auth_throttles.window_started_at < ${windowStart} then now() else auth_throttles.window_started_at end`,
          updated_at: sql`now()`,
        })
        .where((eb) => eb.or([eb('auth_throttles.locked_until', 'is', null), eb('auth_throttles.locked_until', '<=', sql<Date>`now()`)])),
    )
    .returning(['failures'])
    .executeTakeFirst();
  if (!row) {
    const locked = await db.selectFrom('auth_throttles').select('locked_until').where('key', '=', key).executeTakeFirst();
    throw tooManyAttempts(locked?.locked_until ?? new Date(Date.now() + rule.lockMs));
  }
  const attempt: Attempt = { key, rule, count: row.failures };
  if (row.failures > rule.max) {
    // The window's guesses are all claimed by requests still running: this one is not checked.
    await refundAttempt(db, attempt);
    throw tooManyAttempts(new Date(Date.now() + rule.lockMs));
  }
  return attempt;
}

/** The claimed guess was wrong (it is counted already): the lock's end when it reached the limit. */
export async function failedAttempt(db: Kysely<Database>, attempt: Attempt): Promise<Date | null> {
  if (attempt.count < attempt.rule.max) return null;
  const lock = { locked_until: sql<Date>`now() + make_interval(secs => ${attempt.rule.lockMs / 1000})`, failures: 0, window_started_at: sql<Date>`now()`, updated_at: sql<Date>`now()` };
  // An upsert: a success alongside may have removed the row meanwhile.
  const locked = await db
    .insertInto('auth_throttles')
    .values({ key: attempt.key, ...lock })
    .onConflict((oc) => oc.column('key').doUpdateSet(lock))
    .returning('locked_until')
    .executeTakeFirstOrThrow();
  return locked.locked_until ?? new Date(Date.now() + attempt.rule.lockMs);
}

/** The claimed guess does not count (it was right, or was never checked). */
export async function refundAttempt(db: Kysely<Database>, attempt: Attempt): Promise<void> {
  await db
    .updateTable('auth_throttles')
    .set({ failures: sql`greatest(auth_throttles.failures - 1, 0)` })
    .where('key', '=', attempt.key)
    .execute();
}
