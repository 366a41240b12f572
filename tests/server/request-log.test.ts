import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server';

/**
 * Issue 13, server throughput: at `info` (production's level) a request that goes well writes no log
 * line; a 5xx answer writes one (beside the error itself), with method, route, status and time and
 * without the request's headers; at `debug` Fastify's line per request is back.
 */
function logSink() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, stream };
}

describe('at info', () => {
  const sink = logSink();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { LOG_LEVEL: 'info' }, logStream: sink.stream });
  });
  afterAll(async () => server?.close());

  it('a signed-in read, a health check and a 404 write no line', async () => {
    const client = server.client();
    await client.login('jamie', 'hearth-demo-1');
    sink.lines.length = 0;
    expect((await client.get('/api/v1/auth/user')).status).toBe(200);
    expect((await client.get('/api/health')).status).toBe(200);
    expect((await client.get('/api/v1/nope')).status).toBe(404);
    expect(sink.lines).toEqual([]);
  });

  it('a 500 writes the error and one line naming the route and status, without the cookie', async () => {
    const client = server.client();
    await client.login('jamie', 'hearth-demo-1');
    sink.lines.length = 0;
    await sql`alter table emojis rename to emojis_away`.execute(server.db);
    try {
      expect((await client.get('/api/v1/tags/icons/emojis')).status).toBe(500);
    } finally {
      await sql`alter table emojis_away rename to emojis`.execute(server.db);
    }
    expect(sink.lines.map((l) => l.msg)).toEqual(['request failed', 'answered with a server error']);
    expect(sink.lines[1]).toMatchObject({ method: 'GET', route: '/api/v1/tags/icons/emojis', status: 500 });
    expect(JSON.stringify(sink.lines)).not.toContain(client.jar.get('hearth_session')!);
  });
});

describe('at debug', () => {
  const sink = logSink();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { LOG_LEVEL: 'debug' }, logStream: sink.stream });
  });
  afterAll(async () => server?.close());

  it("every request has Fastify's lines, the cookie redacted", async () => {
    const client = server.client();
    await client.login('jamie', 'hearth-demo-1');
    sink.lines.length = 0;
    expect((await client.get('/api/v1/auth/user')).status).toBe(200);
    expect(sink.lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
    expect(JSON.stringify(sink.lines)).not.toContain(client.jar.get('hearth_session')!);
  });
});
