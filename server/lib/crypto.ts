import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/** Purpose-bound keys derived from APP_KEY so one leaked use never unlocks another. */
export interface Keys {
  csrf: Buffer;
  codes: Buffer;
  secrets: Buffer;
  /** Uploaded files kept outside the database (lib/s3-file-store.ts). */
  files: Buffer;
}

export function deriveKeys(appKey: Buffer): Keys {
  const derive = (purpose: string) => Buffer.from(hkdfSync('sha256', appKey, Buffer.alloc(0), `hearth:${purpose}`, 32));
  return { csrf: derive('csrf'), codes: derive('codes'), secrets: derive('mfa-secrets'), files: derive('files') };
}

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

export const hmac = (key: Buffer, value: string): string => createHmac('sha256', key).update(value).digest('base64url');

/** Constant-time comparison of two strings (false when the lengths differ). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** AES-256-GCM; the result is `v1.<iv>.<tag>.<ciphertext>` in base64url. */
export function encrypt(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), ciphertext].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

export function decrypt(key: Buffer, sealed: string): string {
  const [version, iv, tag, ciphertext] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || ciphertext === undefined) throw new Error('Unknown sealed value format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}
