import { sql, type Expression } from 'kysely';

/**
 * A timestamptz as ISO-8601 UTC with microseconds (contract timestampSchema), formatted by the
 * database so no precision is lost on the way through a JavaScript Date. Checkpoints built from
 * these strings compare at full precision and never skip or repeat rows sharing a millisecond.
 */
export const isoMicros = (expr: Expression<unknown>) =>
  sql<string>`to_char(${expr} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export const isoMicrosOrNull = (expr: Expression<unknown>) =>
  sql<string | null>`to_char(${expr} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** A `time` column as HH:MM (contract rota and calendar rows). */
export const hourMinute = (expr: Expression<unknown>) => sql<string>`to_char(${expr}, 'HH24:MI')`;
export const hourMinuteOrNull = (expr: Expression<unknown>) => sql<string | null>`to_char(${expr}, 'HH24:MI')`;

/**
 * The new `updated_at` of a row that more than one writer changes: now(), but never at or before
 * the stamp it replaces. now() is the start of the writing transaction, so a transaction that began
 * first and wrote the row after another had committed used to stamp it earlier than the copy
 * clients already held: a device keeps the copy with the later `updated_at`, took the newer copy
 * for an older one, and kept the old points or style until the next change. The row's lock makes
 * the second writer read the first one's committed stamp, so a row's stamps follow its commits.
 * Used for the young person's record (pulled whole), entries (domain/entries/conflicts.ts), task
 * logs and feedback threads; the sync horizon (lib/sync-horizon.ts) covers the order of list pulls.
 */
export const laterStamp = <T = string>(column: string) => sql<T>`greatest(now(), ${sql.ref(column)} + interval '1 microsecond')`;
