import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * The built PWA. Hashed files under /assets never change, so browsers keep them a year; the
 * shell, the service worker and the manifest must be revalidated on every load or an update
 * would never reach anyone.
 *
 * `npm run build` writes a `.br` and a `.gz` beside every compressible file (scripts/precompress.ts);
 * `preCompressed` sends the copy the request's Accept-Encoding allows (brotli first), with
 * Content-Encoding and `Vary: Accept-Encoding` (on the uncompressed fallback too), and the cache
 * header of the file it stands for. Nothing here is compressed per request (issue 13, transfer).
 */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

export function serveSpa(app: FastifyInstance, reply: FastifyReply) {
  const index = join(app.config.staticDir, 'index.html');
  if (!existsSync(index)) {
    return reply
      .code(503)
      .header('cache-control', 'no-store')
      .type('text/plain; charset=utf-8')
      .send(`${app.config.productName}: the web app has not been built yet. Run \`npm run build\`, then restart the server.`);
  }
  // 200 even for unknown paths: the PWA routes on the client and shows its own 404 page.
  return reply.code(200).header('cache-control', REVALIDATE).sendFile('index.html', app.config.staticDir);
}

export async function registerStaticPwa(app: FastifyInstance): Promise<void> {
  if (!existsSync(app.config.staticDir)) {
    app.log.warn({ dir: app.config.staticDir }, 'static directory missing: run `npm run build`');
    // reply.sendFile must still exist for serveSpa's branch that never reaches it.
    await app.register(fastifyStatic, { root: process.cwd(), serve: false });
    app.get('/', (_request, reply) => serveSpa(app, reply));
    return;
  }
  await app.register(fastifyStatic, {
    root: app.config.staticDir,
    wildcard: true,
    index: false,
    dotfiles: 'ignore',
    preCompressed: true,
    setHeaders(res, path) {
      const relative = path.slice(app.config.staticDir.length).replace(/\\/g, '/');
      res.header('cache-control', relative.startsWith('/assets/') ? IMMUTABLE : REVALIDATE);
    },
  });
  // The root path is the shell itself.
  app.get('/', (_request, reply) => serveSpa(app, reply));
}
