import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';

/**
 * Server-side prepared statements on PostgreSQL (issue 13, server throughput). Kysely sends every
 * query as an unnamed statement, so PostgreSQL parses and plans it again each time: for the journal
 * pull that was most of the database's work (planning 0.5 ms against 0.1 ms of execution). Here every
 * statement gets a name from its SQL text, so each pooled connection parses it once and PostgreSQL may
 * settle on a generic plan after five runs (plan_cache_mode auto: only when it costs no more).
 *
 * The SQL text is Kysely's, with every value a parameter, so the set of texts is the set of query shapes
 * the code builds. A list's filters can still make many shapes (`in` lists of any length), so each
 * connection prepares at most MAX_PER_CONNECTION of them and sends the rest unnamed, as before, and the
 * process names at most NAMES_MAX: memory stays bounded whatever a client asks for, and nothing
 * changes but the speed.
 */
export const MAX_PER_CONNECTION = 200;

/**
 * Only a text run a second time in this process gets a name. The slots are first come, first served,
 * and the statements a start runs once (migrations, the demo seed: 185 of its 248 texts) took all
 * 200 on the connection that ran them, which the pool then handed to request after request: on it,
 * the journal pull ran unnamed, x1.5-1.7 slower than on a fresh connection (bench j, found in stop 39).
 * A text the app runs on a request (the session lookup, a pull) comes again within moments.
 */
const seenOnce = new Set<string>();
/** Bounds on what the process keeps: texts seen once (forgotten all at once when full), and names. */
export const SEEN_ONCE_MAX = 5_000;
export const NAMES_MAX = 2_000;

/** One name per distinct SQL text, process-wide (pg refuses one name for two texts on a connection). */
const names = new Map<string, string>();

/** The text's name, or null while it is not worth one (run once so far, or no names left). */
function nameOf(text: string): string | null {
  const known = names.get(text);
  if (known !== undefined) return known;
  if (!seenOnce.has(text)) {
    if (seenOnce.size >= SEEN_ONCE_MAX) seenOnce.clear();
    seenOnce.add(text);
    return null;
  }
  if (names.size >= NAMES_MAX) return null;
  seenOnce.delete(text);
  const name = `hearth_${names.size.toString(36)}`;
  names.set(text, name);
  return name;
}

function preparing(client: pg.PoolClient): PostgresPoolClient {
  const prepared = new Set<string>();
  function query<R>(sqlOrCursor: string | PostgresCursor<R>, parameters?: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof sqlOrCursor !== 'string') return client.query(sqlOrCursor as never) as PostgresCursor<R>;
    const name = nameOf(sqlOrCursor);
    const named = name !== null && (prepared.has(name) || (prepared.size < MAX_PER_CONNECTION && prepared.add(name)));
    const values = parameters as unknown[];
    return client.query(named ? { name, text: sqlOrCursor, values } : { text: sqlOrCursor, values }) as unknown as Promise<PostgresQueryResult<R>>;
  }
  return { query: query as PostgresPoolClient['query'], release: () => client.release() };
}

/** The pool as Kysely's PostgresDialect takes it, handing out connections that prepare what they run. */
export function preparingPool(pool: pg.Pool): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrapped.get(client);
      if (!wrapper) {
        wrapper = preparing(client);
        wrapped.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}
