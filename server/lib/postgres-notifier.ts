import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type pg from 'pg';
import { z } from 'zod';
import { isSyncTopic, type SyncTopic } from '../../src/contract/sync-topics';
import type { Database } from '../db/schema';
import { Notifier, type ChangeScope, type EndedSessions } from './notifier';

/**
 * The change notifier across processes (issue 13): with PostgreSQL the server may run as several
 * processes, on one machine (WORKERS) or several behind a proxy, and a write in one must reach the
 * event streams held by every other. Each process:
 * - delivers what it publishes to its own streams at once (as lib/notifier.ts does), and sends it
 *   with `pg_notify` on one channel per schema; it skips its own messages when they come back;
 * - listens on that channel on a dedicated connection (not one of the pool's: LISTEN belongs to a
 *   session) and delivers what other processes sent to its streams, where the audience rule
 *   (`reaches`) is applied, exactly as for its own writes;
 * - reconnects when that connection is lost (backoff 0.5 s doubling to 15 s; a `select 1` every
 *   30 s finds a connection that died silently), and then tells its streams that anything may have
 *   changed: notifications sent while it was not listening are gone, and a replica that pulls
 *   catches up with whatever they said.
 * A message carries ids and topic names only, never content nor a session's token or its hash (a
 * session that got a new token is named by its id; each stream checks its own token against the
 * row), well below NOTIFY's 8,000 bytes: a scope with many readers (an entry shared with many
 * staff) is split into several messages whose reader lists together make the whole. Notifications
 * are sent after the write committed (the callers publish after their transaction), so a process
 * that hears one and pulls sees the rows (or a session row's new token).
 */
const PAYLOAD_LIMIT = 7_900;
const HEALTH_EVERY_MS = 30_000;
const HEALTH_TIMEOUT_MS = 10_000;
const RECONNECT_FIRST_MS = 500;
const RECONNECT_MAX_MS = 15_000;

// Ids as the database writes them; not z.uuid(), whose version rules would drop a message over a nil id.
const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
const topic = z.string().refine(isSyncTopic);
const messageSchema = z.discriminatedUnion('k', [
  z.object({
    v: z.literal(1),
    o: z.string(),
    k: z.literal('change'),
    s: z.object({
      t: uuid,
      h: uuid.nullable(),
      r: uuid.nullable(),
      u: z.array(uuid).optional(),
      m: z.boolean().optional(),
    }),
    c: z.array(topic),
  }),
  z.object({
    v: z.literal(1),
    o: z.string(),
    k: z.literal('ended'),
    // n: the session that got a new token (EndedSessions.renewedSessionId); an older process ignores it.
    e: z.object({ t: uuid, s: uuid.optional(), u: uuid.optional(), x: uuid.optional(), n: uuid.optional() }),
  }),
]);
type Message = z.infer<typeof messageSchema>;

/** The messages that carry one change: one, or several with the readers split among them. */
export function changeMessages(origin: string, scope: ChangeScope, collections: SyncTopic[], limit = PAYLOAD_LIMIT): string[] {
  const encode = (userIds: readonly string[] | null) =>
    JSON.stringify({
      v: 1,
      o: origin,
      k: 'change',
      s: {
        t: scope.tenantId,
        h: scope.homeId,
        r: scope.residentId,
        ...(scope.readers && userIds ? { u: [...userIds], m: scope.readers.managers } : {}),
      },
      c: collections,
    } satisfies Message);
  const split = (userIds: readonly string[]): string[] => {
    const one = encode(userIds);
    if (Buffer.byteLength(one) <= limit) return [one];
    if (userIds.length <= 1) throw new Error(`a change notification does not fit in ${limit} bytes`);
    const half = Math.ceil(userIds.length / 2);
    return [...split(userIds.slice(0, half)), ...split(userIds.slice(half))];
  };
  if (!scope.readers) {
    const one = encode(null);
    if (Buffer.byteLength(one) > limit) throw new Error(`a change notification does not fit in ${limit} bytes`);
    return [one];
  }
  return split(scope.readers.userIds);
}

export function endedMessage(origin: string, ended: EndedSessions): string {
  return JSON.stringify({
    v: 1,
    o: origin,
    k: 'ended',
    e: {
      t: ended.tenantId,
      ...(ended.sessionId ? { s: ended.sessionId } : {}),
      ...(ended.userId ? { u: ended.userId } : {}),
      ...(ended.exceptSessionId ? { x: ended.exceptSessionId } : {}),
      ...(ended.renewedSessionId ? { n: ended.renewedSessionId } : {}),
    },
  } satisfies Message);
}

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface PostgresNotifierOptions {
  /** Sends notifications (any pooled connection will do). */
  db: Kysely<Database>;
  /** A new, not yet connected client configured like the pool's connections (db/database.ts). */
  connect: () => pg.Client;
  log: Log;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

export class PostgresNotifier extends Notifier {
  /** Tells this process's own messages from the others'. */
  private readonly origin = randomUUID();
  private channel: string | null = null;
  private client: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  private health: NodeJS.Timeout | null = null;
  private closed = false;
  /** Listening has worked once: a later connection follows a gap in which messages were lost. */
  private everConnected = false;
  /** Ends the reconnect loop's wait at once (close). */
  private wake: (() => void) | null = null;

  constructor(private readonly options: PostgresNotifierOptions) {
    super();
  }

  /** Connects and listens; resolves once notifications from other processes are coming in. */
  async start(): Promise<void> {
    await this.listen();
    this.health = setInterval(() => void this.checkHealth(), HEALTH_EVERY_MS);
    this.health.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.health) clearInterval(this.health);
    this.wake?.();
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  /** The listening connection's backend (tests cut it to prove the reconnect). */
  get listenerPid(): number | null {
    return (this.client as unknown as { processID?: number } | null)?.processID ?? null;
  }

  override publish(scope: ChangeScope, collections: SyncTopic[]): void {
    const unique = [...new Set(collections)];
    this.deliver(scope, unique);
    for (const payload of changeMessages(this.origin, scope, unique)) this.send(payload);
  }

  override endSessions(ended: EndedSessions): void {
    this.deliverEnded(ended);
    this.send(endedMessage(this.origin, ended));
  }

  private send(payload: string): void {
    if (!this.channel) throw new Error('postgres notifier: publish before start');
    sql`select pg_notify(${this.channel}, ${payload})`
      .execute(this.options.db)
      .catch((error: unknown) => this.options.log.error({ err: error }, 'change notification not sent'));
  }

  private receive(message: pg.Notification): void {
    if (message.channel !== this.channel || !message.payload) return;
    let parsed: Message;
    try {
      const checked = messageSchema.safeParse(JSON.parse(message.payload));
      if (!checked.success) throw checked.error;
      parsed = checked.data;
    } catch (error) {
      this.options.log.warn({ err: error }, 'unreadable change notification ignored');
      return;
    }
    if (parsed.o === this.origin) return;
    if (parsed.k === 'change') {
      const { s } = parsed;
      const readers = s.u !== undefined ? { userIds: s.u, managers: s.m ?? false } : undefined;
      this.deliver({ tenantId: s.t, homeId: s.h, residentId: s.r, ...(readers ? { readers } : {}) }, parsed.c as SyncTopic[]);
    } else {
      const { e } = parsed;
      this.deliverEnded({ tenantId: e.t, sessionId: e.s, userId: e.u, exceptSessionId: e.x, renewedSessionId: e.n });
    }
  }

  /** One attempt: a new connection that listens on the channel. */
  private async listen(): Promise<void> {
    const client = this.options.connect();
    client.on('notification', (message) => this.receive(message));
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, null));
    try {
      await client.connect();
      // One channel per schema: test files share a database, one schema each (db/database.ts).
      const { rows } = await client.query<{ schema: string }>('select current_schema() as schema');
      const channel = `hearth_changes:${rows[0]?.schema ?? 'public'}`;
      await client.query(`listen ${quoteIdent(channel)}`);
      this.channel = channel;
    } catch (error) {
      client.removeAllListeners('end');
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    const reconnected = this.client === null && this.everConnected;
    this.client = client;
    this.everConnected = true;
    if (reconnected) this.deliverEverything();
  }

  private lost(client: pg.Client, error: Error | null): void {
    if (this.client !== client) return;
    this.client = null;
    client.removeAllListeners('notification');
    void client.end().catch(() => undefined);
    if (this.closed) return;
    this.options.log.warn({ err: error ?? undefined }, 'change feed connection lost; reconnecting');
    this.reconnect();
  }

  private reconnect(): void {
    if (this.connecting || this.closed) return;
    this.connecting = (async () => {
      let delay = RECONNECT_FIRST_MS;
      while (!this.closed && this.client === null) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          this.wake = () => (clearTimeout(timer), resolve());
        });
        this.wake = null;
        if (this.closed) break;
        try {
          await this.listen();
          this.options.log.info({}, 'change feed listening again');
        } catch (error) {
          this.options.log.warn({ err: error }, 'change feed reconnect failed');
          delay = Math.min(delay * 2, RECONNECT_MAX_MS);
        }
      }
    })().finally(() => {
      this.connecting = null;
    });
  }

  private async checkHealth(): Promise<void> {
    const client = this.client;
    if (!client) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('change feed health check timed out')), HEALTH_TIMEOUT_MS);
    });
    try {
      await Promise.race([client.query('select 1'), timeout]);
    } catch (error) {
      this.lost(client, error instanceof Error ? error : new Error(String(error)));
    } finally {
      clearTimeout(timer);
    }
  }
}
