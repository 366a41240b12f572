import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { isoMicros } from './timestamps';

interface Taken {
  horizon: string;
  /** Stamps after this are in the future (a clock set back, rows written with a stamp of their own). */
  future: string;
}

/**
 * The checkpoint gap (issue 13) and how it is closed; docs/decisions.md "Scale out (issue 13)".
 *
 * Rows are stamped `updated_at = now()`, and now() is the moment their transaction began, not the
 * moment it commits. A pull that runs while such a transaction is open does not see its row, but
 * may see rows stamped later by transactions that committed sooner; a checkpoint past those would
 * skip the first row for ever once it commits. The horizon is a moment before which every stamp a
 * pull could still miss is impossible: the start of the oldest transaction this server has open
 * (pg_stat_activity.xact_start, the very value its now() returns), or the present when none is,
 * less a small margin for a transaction that has begun but is not yet listed. Any transaction
 * still open, or begun later, stamps its rows at or after it. A horizon stays true once taken, so
 * a recent one may be reused (it is only more cautious), and one must be taken before the list
 * query runs.
 *
 * A page that walks checkpoints (lib/list-query.ts fetchPage) holds only rows stamped before a
 * horizon taken before its query; for newer rows it waits until the transactions begun before
 * them have ended (milliseconds, normally), and asks again.
 *
 * The embedded database has one connection that a transaction holds until it ends: no pull can
 * run while a write is open, there is no gap, and no horizon (`null`).
 */
export interface SyncHorizon {
  /** A recent horizon (ISO-8601 UTC, microseconds, as the rows' updated_at), or null: no limit. */
  current(): Promise<string | null>;
  /** Polls until the horizon is after `stamp`, at most `timeoutMs`; resolves with the last horizon. */
  waitPast(stamp: string, timeoutMs: number): Promise<string | null>;
}

export const NO_HORIZON: SyncHorizon = {
  current: async () => null,
  waitPast: async () => null,
};

/** A horizon this old is refreshed (in the background: one query serves every pull meanwhile)... */
const REUSE_MS = 50;
/** ...and one this old (an idle process) is not used: the pull waits for a fresh one. */
const STALE_MS = 1_000;
/**
 * A transaction is listed in pg_stat_activity a few microseconds after the moment its now() names
 * (PostgreSQL takes it when the first message arrives, and lists the transaction as it starts it);
 * the margin covers a process paused in between, at the price of a page waiting that long for rows
 * written just before it.
 */
const MARGIN_MS = 20;
/** A stamp this far past the database's clock is not an open transaction's: waiting will not help. */
const FUTURE_MS = 1_000;
const POLL_MS = 20;

export class PostgresSyncHorizon implements SyncHorizon {
  private last: { value: string; takenAt: number } | null = null;
  private pending: Promise<Taken> | null = null;
  private databaseId: number | null = null;

  constructor(private readonly db: Kysely<Database>) {}

  /**
   * The last horizon without waiting when it is recent (a request never waits for this query while
   * a process is busy), refreshed in the background once it is REUSE_MS old; an older one is only
   * more cautious (rows after it take fetchPage's waiting path, which asks for a fresh one).
   */
  async current(): Promise<string> {
    const age = this.last ? performance.now() - this.last.takenAt : Number.POSITIVE_INFINITY;
    if (age > STALE_MS) return (await this.take()).horizon;
    if (age > REUSE_MS) this.take().catch(() => undefined);
    return this.last!.value;
  }

  async waitPast(stamp: string, timeoutMs: number): Promise<string> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const { horizon, future } = await this.take();
      if (horizon > stamp || stamp > future || performance.now() >= deadline) return horizon;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** A fresh horizon; concurrent callers share one query (begun before any of them asked: still true). */
  private take(): Promise<Taken> {
    this.pending ??= (async () => {
      const takenAt = performance.now();
      try {
        const taken = await this.query();
        if (!this.last || takenAt > this.last.takenAt) this.last = { value: taken.horizon, takenAt };
        return taken;
      } finally {
        this.pending = null;
      }
    })();
    return this.pending;
  }

  /**
   * Only this server's sessions count (same database, same application_name, db/database.ts): a
   * backup, a report or another schema's tests do not hold its checkpoints back. Writes to
   * Hearth's tables from elsewhere must carry the same application_name (docs/deployment.md).
   * pg_stat_get_activity rather than the pg_stat_activity view: the view's joins cost ten times
   * more than the question (0.3 against 2 ms here), and this runs for every pull at most 20 times
   * a second per process.
   */
  private async query(): Promise<Taken> {
    this.databaseId ??= (await sql<{ oid: number }>`select oid from pg_database where datname = current_database()`.execute(this.db)).rows[0]!.oid;
    const { rows } = await sql<Taken>`
      select
        ${isoMicros(sql`(least(clock_timestamp(), (
          select min(a.xact_start) from pg_stat_get_activity(null) a
          where a.datid = ${this.databaseId} and a.application_name = current_setting('application_name')
        )) - make_interval(secs => ${MARGIN_MS / 1000}))`)} as horizon,
        ${isoMicros(sql`(clock_timestamp() + make_interval(secs => ${FUTURE_MS / 1000}))`)} as future`.execute(this.db);
    return rows[0]!;
  }
}
