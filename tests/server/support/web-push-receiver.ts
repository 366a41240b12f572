import { createECDH, createHmac, createPublicKey, createDecipheriv, randomBytes, verify, type ECDH } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { selfSignedCertificate } from './self-signed';

/**
 * What a browser's push service does with what the server sends, for tests without the internet:
 * - a browser-side subscription: a P-256 key pair and a 16-byte auth secret (RFC 8291 §2);
 * - decryptAes128gcm: RFC 8291 (Web Push message encryption) over RFC 8188 (aes128gcm);
 * - verifyVapid: RFC 8292 (`Authorization: vapid t=<JWT>, k=<public key>`, ES256);
 * - startPushService: a local HTTPS push service on 127.0.0.1 with a self-signed certificate
 *   for its host name, recording every message it receives and answering 201.
 */

const b64url = (bytes: Buffer) => bytes.toString('base64url');
const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();
/** HKDF-Expand for one block (RFC 5869), enough for the lengths used here (≤ 32 bytes). */
const expand = (prk: Buffer, info: Buffer, length: number) => hmac(prk, Buffer.concat([info, Buffer.from([1])])).subarray(0, length);

/** A browser's side of a push subscription (what PushSubscription.toJSON() gives, plus its private key). */
export interface BrowserSubscription {
  ecdh: ECDH;
  publicKey: Buffer;
  authSecret: Buffer;
  /** `keys` as the PWA sends them to POST /v1/notifications/push/subscribe. */
  keys: { p256dh: string; auth: string };
}

export function browserSubscription(): BrowserSubscription {
  const ecdh = createECDH('prime256v1');
  const publicKey = ecdh.generateKeys();
  const authSecret = randomBytes(16);
  return { ecdh, publicKey, authSecret, keys: { p256dh: b64url(publicKey), auth: b64url(authSecret) } };
}

/**
 * RFC 8291 §3.4 and RFC 8188 §2: the body is salt (16) | record size (4) | key id length (1) |
 * key id (the sender's ephemeral public key, 65) | one record of ciphertext + 16-byte tag. The
 * plaintext ends with the delimiter 0x02 (last record) and optional zero padding.
 */
export function decryptAes128gcm(body: Buffer, subscription: Pick<BrowserSubscription, 'ecdh' | 'publicKey' | 'authSecret'>): Buffer {
  if (body.length < 21 + 65 + 17) throw new Error('aes128gcm: body too short');
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  if (idLength !== 65) throw new Error(`aes128gcm: key id of ${idLength} bytes, expected a 65-byte P-256 key`);
  const senderKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  if (record.length > recordSize) throw new Error('aes128gcm: more than one record');

  const ecdhSecret = subscription.ecdh.computeSecret(senderKey);
  const prkKey = hmac(subscription.authSecret, ecdhSecret);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0', 'ascii'), subscription.publicKey, senderKey]);
  const ikm = expand(prkKey, keyInfo, 32);
  const prk = hmac(salt, ikm);
  const cek = expand(prk, Buffer.from('Content-Encoding: aes128gcm\0', 'ascii'), 16);
  const nonce = expand(prk, Buffer.from('Content-Encoding: nonce\0', 'ascii'), 12);

  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (end < 0 || padded[end] !== 2) throw new Error('aes128gcm: no last-record delimiter');
  return padded.subarray(0, end);
}

export interface VapidClaims {
  aud: string;
  exp: number;
  sub: string;
}

/**
 * RFC 8292: `vapid t=<JWT>, k=<public key>`. Checks that `k` is the expected key, the JWT is ES256
 * and its signature verifies with `k`, `aud` is the push service's origin, `exp` is in the future
 * and at most 24 hours away, `sub` is the expected subject. Returns the claims; throws otherwise.
 */
export function verifyVapid(authorization: string | undefined, expected: { publicKey: string; audience: string; subject: string }): VapidClaims {
  const match = /^vapid t=([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+), k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!match) throw new Error(`vapid: unexpected Authorization ${JSON.stringify(authorization)}`);
  const [, token, key] = match as unknown as [string, string, string];
  if (key !== expected.publicKey) throw new Error('vapid: k is not the server key');
  const raw = Buffer.from(key, 'base64url');
  if (raw.length !== 65 || raw[0] !== 4) throw new Error('vapid: k is not an uncompressed P-256 key');
  const publicKey = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64url(raw.subarray(1, 33)), y: b64url(raw.subarray(33)) }, format: 'jwk' });
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const parsedHeader = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: string; typ?: string };
  if (parsedHeader.alg !== 'ES256') throw new Error(`vapid: alg ${parsedHeader.alg}`);
  const signed = Buffer.from(`${header}.${payload}`, 'ascii');
  if (!verify('sha256', signed, { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'))) throw new Error('vapid: bad signature');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as VapidClaims;
  const now = Math.floor(Date.now() / 1000);
  if (claims.aud !== expected.audience) throw new Error(`vapid: aud ${claims.aud}, expected ${expected.audience}`);
  if (!(claims.exp > now && claims.exp <= now + 24 * 3600)) throw new Error(`vapid: exp ${claims.exp} not within the next 24 hours`);
  if (claims.sub !== expected.subject) throw new Error(`vapid: sub ${claims.sub}`);
  return claims;
}

export interface ReceivedPush {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface LocalPushService {
  /** The host name its certificate is for (resolved to 127.0.0.1 by the test's own agent). */
  host: string;
  port: number;
  /** `https://host:port`: the VAPID audience. */
  origin: string;
  /** The certificate, for the test's agent to trust (nothing else does). */
  cert: string;
  received: ReceivedPush[];
  /** The next answer's status (201 by default). */
  status: number;
  close(): Promise<void>;
}

export async function startPushService(host = 'push.hearth.test'): Promise<LocalPushService> {
  const { cert, key } = selfSignedCertificate(host);
  const received: ReceivedPush[] = [];
  const service = { status: 201 };
  const server: Server = createServer({ cert, key }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(service.status, { location: `https://${host}/message/${received.length}` });
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return Object.assign(service, {
    host,
    port,
    origin: `https://${host}:${port}`,
    cert,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
