import type { FastifyInstance } from 'fastify';
import { chosenMessages as chosen } from '../../src/contract/messages';
import { isSavableText, printableKey } from '../../src/contract/text';
import { HttpError } from '../lib/http-errors';

/**
 * Validation at the edge, once, for every route (issue 12, finding 1): a NUL or a lone surrogate
 * anywhere in the path parameters, the query or the body (JSON, url-encoded or multipart fields, at
 * any depth, keys too) is the sender's mistake, answered 422 naming the field, before anything
 * reaches the database (where it was a 500). A root preHandler runs after every scope has parsed
 * its body, so multipart fields are covered, and before the idempotency plugin records anything.
 */
const MAX_DEPTH = 32;
const MAX_REPORTED = 20;

type Errors = Record<string, string[]>;

function walk(value: unknown, path: string, errors: Errors, depth: number): void {
  if (Object.keys(errors).length >= MAX_REPORTED) return;
  const here = path || 'body';
  if (typeof value === 'string') {
    if (!isSavableText(value)) errors[here] = [chosen.unsavableText];
    return;
  }
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return;
  if (depth >= MAX_DEPTH) {
    errors[here] = [chosen.tooDeeplyNested];
    return;
  }
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  for (const [key, child] of entries) {
    const name = path ? `${path}.${printableKey(key)}` : printableKey(key);
    if (!isSavableText(key)) errors[name] = [chosen.unsavableText];
    else walk(child, name, errors, depth + 1);
  }
}

export function registerSafeText(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    const errors: Errors = {};
    walk(request.params, '', errors, 0);
    walk(request.query, '', errors, 0);
    walk(request.body, '', errors, 0);
    if (Object.keys(errors).length) throw new HttpError(422, chosen.validationFailed, errors);
  });
}
