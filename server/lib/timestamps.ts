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
