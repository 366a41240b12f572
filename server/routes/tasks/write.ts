import type { FastifyInstance } from 'fastify';
import { paths } from '../../../src/contract/paths';
import { idParamsSchema } from '../../../src/contract/users';
import { parse } from '../../lib/validate';
import { requireAuth } from '../../plugins/session';
import { requirePutOverride } from '../../domain/entries/writes';
import { createTask, createTaskComment, updateTaskComment, updateTaskLog } from '../../domain/tasks/writes';

/**
 * Objectives, writes (registered in app.ts's form scope: multipart, url-encoded or JSON):
 * - POST /v1/tasks/logs/comments, POST /v1/tasks/logs/comments/{id}?_method=PUT (SPEC §7);
 * - staff additions (docs/api.md): POST /v1/projects/residents/{id}/tasks (an objective from a
 *   form) and POST /v1/tasks/logs/{id}?_method=PUT (fill, complete).
 * All idempotent with Idempotency-Key; the rules are in domain/tasks/writes.ts.
 */
export default async function taskWriteRoutes(app: FastifyInstance) {
  const config = { idempotent: true };

  app.post(paths.taskLogComments.pattern, { config }, async (request, reply) => {
    const auth = requireAuth(request);
    const data = await createTaskComment(app, auth, request);
    return reply.code(201).send({ success: true as const, data });
  });

  app.post(paths.taskLogComment.pattern, { config }, async (request) => {
    const auth = requireAuth(request);
    const { id } = parse(idParamsSchema, request.params);
    requirePutOverride(request);
    return { success: true as const, data: await updateTaskComment(app, auth, id, request) };
  });

  app.post(paths.residentTasks.pattern, { config }, async (request, reply) => {
    const auth = requireAuth(request);
    const { id } = parse(idParamsSchema, request.params);
    const data = await createTask(app, auth, id, request);
    return reply.code(201).send({ success: true as const, data });
  });

  app.post(paths.taskLog.pattern, { config }, async (request) => {
    const auth = requireAuth(request);
    const { id } = parse(idParamsSchema, request.params);
    requirePutOverride(request);
    return { success: true as const, data: await updateTaskLog(app, auth, id, request) };
  });
}
