import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { ChangeEvent } from '../../../src/contract/sync';
import { requireAuth } from '../../plugins/session';
import { audienceOf } from '../../domain/access';
import { paths } from '../../../src/contract/paths';

/**
 * GET /api/v1/sync/stream: server-sent events telling the signed-in person's replica what to pull
 * again. `event: change` with data `{"collections":[...]}` (contract SYNC_TOPICS) whenever a row
 * they can see changes; a `: ping` comment every 25 s keeps proxies from closing the connection.
 * The stream ends when the session ends: at once on logout or a password change (the notifier says
 * so, or, when that came while the stream was opening, the check after subscribing), at the next
 * ping when it expired; and when the server closes. It also ends when its session
 * gets a new token (a password change) and it was opened with the old one: at once, each stream
 * checking the session row, and at the next ping should that notice be lost.
 * Notifications come from lib/notifier.ts: this process's own writes, and on PostgreSQL every
 * other process's too (lib/postgres-notifier.ts), filtered here by the one audience rule.
 */
const PING_EVERY_MS = 25_000;

export default async function syncStreamRoute(app: FastifyInstance) {
  const open = new Set<ServerResponse>();
  // Before the server waits for connections to finish: an event stream never finishes by itself.
  app.addHook('preClose', async () => {
    for (const res of open) res.end();
    open.clear();
  });

  // Never compressed: a compressor would hold events back until its buffer fills (plugins/compression.ts).
  app.get(paths.syncStream.pattern, { compress: false }, async (request, reply) => {
    const auth = requireAuth(request);
    const audience = await audienceOf(app, auth);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
      connection: 'keep-alive',
    });
    // HEAD gets the headers and ends: Node drops a HEAD answer's writes and sends nothing, not even
    // the headers, until it ends, so a HEAD held open here never answered (found by the route fuzz).
    if (request.method === 'HEAD') {
      res.end();
      return;
    }
    res.write('retry: 5000\n: connected\n\n');
    open.add(res);

    const unsubscribe = app.notifier.subscribe(auth.tenantId, audience, (collections) => {
      const event: ChangeEvent = { collections };
      res.write(`event: change\ndata: ${JSON.stringify(event)}\n\n`);
    });
    // The token this stream was opened with: a password change gives the session a new one in the
    // same row, and a stream opened with the old one (perhaps by a copy of the cookie) must end.
    const openedWith = request.session!.tokenHash;
    const sessionAlive = async () => {
      const row = await app.db
        .selectFrom('sessions')
        .select('id')
        .where('id', '=', auth.sessionId)
        .where('token_hash', '=', openedWith)
        .where('idle_expires_at', '>', sql<Date>`now()`)
        .where('absolute_expires_at', '>', sql<Date>`now()`)
        .executeTakeFirst();
      return row !== undefined;
    };
    const endUnlessAlive = () => {
      sessionAlive()
        .then((alive) => {
          if (!alive) res.end();
        })
        .catch(() => res.end());
    };
    // Logout or a password change ends the stream at once, not at the next ping.
    const stopOnEnd = app.notifier.onSessionEnded(
      auth.tenantId,
      { sessionId: auth.sessionId, userId: auth.userId },
      { end: () => res.end(), renewed: endUnlessAlive },
    );
    // A session that ended after this request was authenticated, and before the line above, sent its
    // notice to no one: asked once now, the stream ends at once rather than at its first ping.
    endUnlessAlive();
    const ping = setInterval(() => {
      sessionAlive()
        .then((alive) => (alive ? res.write(': ping\n\n') : res.end()))
        .catch(() => res.end());
    }, PING_EVERY_MS);
    ping.unref();

    const stop = () => {
      clearInterval(ping);
      unsubscribe();
      stopOnEnd();
      open.delete(res);
    };
    res.on('close', stop);
    res.on('error', stop);
  });
}
