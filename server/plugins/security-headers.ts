import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { isApiRequest } from '../lib/api-path';
import { inlineScriptHashes } from '../lib/inline-scripts';

/** The connect-src origins of regions whose API lives on another host (`{site}` becomes `*`). */
function regionOrigins(regions: { api_base: string }[]): string[] {
  const origins = new Set<string>();
  for (const region of regions) {
    if (!/^https?:\/\//i.test(region.api_base)) continue;
    const url = region.api_base.replace(/\{site\}/g, 'site-placeholder');
    try {
      const parsed = new URL(url);
      origins.add(`${parsed.protocol}//${parsed.host.replace('site-placeholder', '*')}`);
    } catch {
      // An unparsable address cannot be reached by the PWA anyway.
    }
  }
  return [...origins];
}

/**
 * The headers helmet sets, worked out once. Our policy is the same for every request (no nonces), but
 * @fastify/helmet built a new helmet, parsing the whole CSP, on every request: a measurable share of a
 * signed-in request (issue 13, server throughput). helmet itself runs here once against a recorder.
 */
function helmetHeaders(options: Readonly<HelmetOptions>): [string, string][] {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
  };
  let failure: unknown = null;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    failure = error ?? null;
  });
  if (failure) throw failure;
  return [...headers];
}

/**
 * The hashes of the built shell's inline scripts (index.html's first-paint script), read once at
 * start: a rebuild while the server runs needs a restart, as `npm start` does.
 */
function shellScriptHashes(staticDir: string): string[] {
  const index = join(staticDir, 'index.html');
  return existsSync(index) ? inlineScriptHashes(readFileSync(index, 'utf8')) : [];
}

/**
 * A strict CSP for the PWA (no inline script but the shell's own by its hash, no eval, no framing),
 * HSTS only when the request really came over https, and no-store on every API answer (they carry
 * personal data).
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  const headers = helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...shellScriptHashes(app.config.staticDir)],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        // Documents (issue 11): a video or recording kept on the device plays from its decrypted bytes
        // (a blob: URL); one that is not kept streams from the API on this origin.
        mediaSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", ...regionOrigins(app.config.regions)],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
      },
    },
    strictTransportSecurity: false,
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginEmbedderPolicy: false,
    xFrameOptions: { action: 'deny' },
  });
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });

  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('permissions-policy', 'camera=(self), microphone=(), geolocation=()');
    if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    if (isApiRequest(request) && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
