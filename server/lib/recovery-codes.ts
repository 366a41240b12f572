import { randomInt } from 'node:crypto';
import { rules } from '../../src/contract/rules';
import { hmac } from './crypto';

/** Lowercase letters and digits without the look-alikes 0/o, 1/l/i. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

const group = () => Array.from({ length: 5 }, () => ALPHABET[randomInt(0, ALPHABET.length)]).join('');

export const newRecoveryCodes = (count: number = rules.recoveryCodeCount): string[] =>
  Array.from({ length: count }, () => `${group()}-${group()}`);

/** Case and the dash are optional on input (contract recoveryCodeSchema). */
const normaliseRecoveryCode = (code: string): string => code.trim().toLowerCase().replace(/-/g, '');

export const hashRecoveryCode = (key: Buffer, code: string): string => hmac(key, `recovery:${normaliseRecoveryCode(code)}`);

/** Email codes are kept as HMACs too, bound to what they are for (a challenge id or a method row). */
export const hashEmailCode = (key: Buffer, scope: string, code: string): string => hmac(key, `email:${scope}:${code}`);
