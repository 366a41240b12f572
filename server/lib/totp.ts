import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

/** RFC 6238 defaults that every authenticator app supports. */
const PERIOD = 30;
const DIGITS = 6;

export const newTotpSecret = (): string => new Secret({ buffer: randomBytes(20).buffer }).base32;

function totpFor(secret: string, issuer: string, label: string): TOTP {
  return new TOTP({ issuer, label, algorithm: 'SHA1', digits: DIGITS, period: PERIOD, secret: Secret.fromBase32(secret) });
}

export const totpUri = (secret: string, issuer: string, label: string): string => totpFor(secret, issuer, label).toString();

export const qrDataUrl = (text: string): Promise<string> => QRCode.toDataURL(text, { errorCorrectionLevel: 'M', margin: 1 });

/**
 * The time step the code belongs to, accepting one step of clock drift either way, or null.
 * The caller rejects a step at or before the last one used, so a code works once.
 */
export function matchTotpStep(secret: string, code: string, now = Date.now()): number | null {
  const delta = totpFor(secret, 'x', 'x').validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD) + delta;
}
