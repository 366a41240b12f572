import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync, type BrotliOptions } from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply } from 'fastify';

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
 *
 * JSON answers are whole strings, and the library streams even those: a readable, a zlib stream, a
 * pump and chunked writes, for a few KiB, and a new brotli encoder with its default 4 MiB window each
 * time. That cost more than the compression itself under load (issue 13, server throughput), so a JSON
 * string or buffer is compressed here in one call, with the library's negotiation and settings (brotli
 * quality 4, gzip level 6), a brotli window no larger than the answer (the same bytes out), and leaves
 * with its Content-Length; the library sees the Content-Encoding and lets it pass. Up to SYNC_BYTES the
 * call is synchronous: a third of the CPU of a trip through the thread pool, and at most about half a
 * millisecond of the event loop; larger answers go to the pool. Everything else is the library's.
 */
export const COMPRESS_THRESHOLD_BYTES = 1024;
const AUTH_PREFIX = '/api/auth/';
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json(?:\s*;|$)/i;
const ENCODINGS: ('br' | 'gzip')[] = ['br', 'gzip'];
const SYNC_BYTES = 64 * 1024;
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

function brotliOptions(size: number): BrotliOptions {
  const window = Math.min(constants.BROTLI_DEFAULT_WINDOW, Math.max(constants.BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(size))));
  return { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_LGWIN]: window, [constants.BROTLI_PARAM_SIZE_HINT]: size } };
}

async function compressed(payload: string | Buffer, size: number, encoding: 'br' | 'gzip'): Promise<Buffer> {
  if (size <= SYNC_BYTES) return encoding === 'br' ? brotliCompressSync(payload, brotliOptions(size)) : gzipSync(payload);
  return encoding === 'br' ? brotli(payload, brotliOptions(size)) : gzipped(payload);
}

/** The library's reading of Accept-Encoding: `*` and `x-gzip` count as gzip, then the first of ENCODINGS it accepts. */
function chosenEncoding(header: string | undefined): 'br' | 'gzip' | null {
  if (typeof header !== 'string') return null;
  return negotiate(header.toLowerCase().replace(/\*|x-gzip/g, 'gzip'), ENCODINGS);
}

function varyOnEncoding(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', 'accept-encoding');
  else if (!String(vary).toLowerCase().includes('accept-encoding')) reply.header('vary', `${String(vary)}, accept-encoding`);
}

export async function registerApiCompression(api: FastifyInstance): Promise<void> {
  // Before the plugin's own onRoute hook, which reads `compress` when a route is added.
  api.addHook('onRoute', (route) => {
    if (route.url.startsWith(AUTH_PREFIX)) route.compress = false;
    route.config = { ...route.config, compressJson: route.compress !== false };
  });
  // A scope hook runs before the library's route hook.
  api.addHook('onSend', async (request, reply, payload) => {
    if (!request.routeOptions.config.compressJson || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) return payload;
    if (reply.hasHeader('content-encoding') || request.headers['x-no-compression'] !== undefined) return payload;
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !JSON_TYPE.test(type)) return payload;
    const size = Buffer.byteLength(payload);
    if (size < COMPRESS_THRESHOLD_BYTES) return payload;
    const encoding = chosenEncoding(request.headers['accept-encoding']);
    if (!encoding) return payload;
    const body = await compressed(payload, size, encoding);
    varyOnEncoding(reply);
    reply.header('content-encoding', encoding);
    return body;
  });
  await api.register(compress, {
    global: true,
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_THRESHOLD_BYTES,
    customTypes: JSON_TYPE,
  });
}
