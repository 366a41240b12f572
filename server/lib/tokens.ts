import { randomBytes, randomInt } from 'node:crypto';
import { rules } from '../../src/contract/rules';

/** An unguessable bearer token (session, MFA challenge): 32 random bytes, base64url. */
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/** A numeric one-time code for email, uniformly drawn. */
export const numericCode = (length = rules.codeLength): string =>
  Array.from({ length }, () => randomInt(0, 10).toString()).join('');
