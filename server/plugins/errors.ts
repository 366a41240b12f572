import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import type { ErrorBody } from '../../src/contract/envelope';
import { chosenMessages as chosen } from '../../src/contract/messages';
import { HttpError } from '../lib/http-errors';
import { fieldErrors } from '../lib/validate';
import { serveSpa } from './static-pwa';
import { isApiRequest } from '../lib/api-path';

/**
 * One place that turns every failure into the API's error envelope. Bad input is never a 500;
 * a 500 says only "something went wrong" and the details go to the log.
 */
const bodyErrors: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 422, message: 'The request body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 422, message: 'The request body is empty but JSON was announced' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: 'The request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, message: 'Unsupported content type: send application/json' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: 'The request body length is wrong' },
};

/** What busboy (under @fastify/multipart) throws for a malformed body (issue 12, finding 4). */
const MALFORMED_MULTIPART = /^Multipart: Boundary not found$|^Boundary required$|unexpected end of multipart data$/i;

function send(reply: FastifyReply, status: number, body: ErrorBody, headers: Record<string, string> = {}) {
  return reply.code(status).headers(headers).type('application/json; charset=utf-8').send(body);
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof HttpError) {
      const body: ErrorBody = { success: false, message: error.message, ...(error.errors ? { errors: error.errors } : {}), ...(error.data !== undefined ? { data: error.data } : {}) };
      return send(reply, error.statusCode, body, error.headers);
    }
    if (error instanceof ZodError) {
      return send(reply, 422, { success: false, message: chosen.validationFailed, errors: fieldErrors(error) });
    }
    // busboy's own errors carry no code or status: a multipart body without a boundary, or cut off.
    if (MALFORMED_MULTIPART.test(error.message)) return send(reply, 400, { success: false, message: chosen.formUnreadable });
    const code = 'code' in error ? error.code : undefined;
    const known = code ? bodyErrors[code] : undefined;
    if (known) return send(reply, known.status, { success: false, message: known.message });
    if (error instanceof SyntaxError && 'statusCode' in error) {
      return send(reply, 422, { success: false, message: 'The request body is not valid JSON' });
    }
    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      request.log.info({ err: error }, 'client error');
      return send(reply, status, { success: false, message: error.message || chosen.validationFailed });
    }
    request.log.error({ err: error }, 'request failed');
    return send(reply, 500, { success: false, message: chosen.serverError });
  });

  // Unknown API paths answer JSON; anything else that wants HTML gets the PWA shell.
  app.setNotFoundHandler((request, reply) => {
    if (isApiRequest(request)) {
      return send(reply, 404, { success: false, message: chosen.notFound });
    }
    const wantsHtml = (request.method === 'GET' || request.method === 'HEAD') && (request.headers.accept ?? '').includes('text/html');
    if (wantsHtml) return serveSpa(app, reply);
    return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
  });
}
