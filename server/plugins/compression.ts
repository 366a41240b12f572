import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/**
 * Compressed API answers (issue 13, transfer), registered inside the `/api` scope only: the built PWA
 * is precompressed at build and served as files (plugins/static-pwa.ts), never compressed per request.
 *
 * - JSON only (`application/json`, `+json`), from 1 KiB: lists and sync pages shrink five- to tenfold,
 *   a small answer is not worth the framing. Brotli at quality 4 (the plugin's default for answers made
 *   per request: close to gzip's speed, smaller), else gzip; `Vary: Accept-Encoding` when compressed.
 * - Never bytes: files, photos and document blobs answer `compress: false` on their routes (a
 *   compressed 206 would be a range of a different representation, and their formats are compressed
 *   already). The change stream takes over the socket (`reply.hijack()`), so nothing here sees it, and
 *   it is `compress: false` as well so that stays true if it ever stops hijacking.
 * - Never the sign-in routes (everything under `/api/auth/`): their answers carry a two-factor id, an
 *   authenticator secret and its QR code, recovery codes, next to what the request sent; compressing
 *   secrets beside reflected input is what BREACH measures.
 * - Request bodies are never decompressed: the PWA does not send them compressed, and a body that
 *   inflates past the body limit is not worth the risk.
 *
 * The library also compresses a type its `customTypes` test refuses when mime-db calls that type
 * compressible (text/plain, SVG); that is why the byte routes opt out by route, not by type.
 */
export const COMPRESS_THRESHOLD_BYTES = 1024;
const AUTH_PREFIX = '/api/auth/';
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json(?:\s*;|$)/i;

export async function registerApiCompression(api: FastifyInstance): Promise<void> {
  // Before the plugin's own onRoute hook, which reads `compress` when a route is added.
  api.addHook('onRoute', (route) => {
    if (route.url.startsWith(AUTH_PREFIX)) route.compress = false;
  });
  await api.register(compress, {
    global: true,
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_THRESHOLD_BYTES,
    customTypes: JSON_TYPE,
  });
}
