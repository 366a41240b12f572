import type { FastifyInstance } from 'fastify';
import { idParamsSchema } from '../../../src/contract/users';
import { applyListQuery, parseListQuery, toPage } from '../../lib/list-query';
import { parse } from '../../lib/validate';
import { requireAuth } from '../../plugins/session';
import { COMMENT_SPEC, commentsQuery, presentComments } from '../../domain/comments/queries';
import { showEntry } from '../../domain/entries/queries';

/** A thread's comments (the entry must be readable, else 404); queries live in domain/comments. */
export default async function commentListRoutes(app: FastifyInstance) {
  for (const [kind, path] of [
    ['journal', '/v1/projects/residents/journal/entries/:id/comments'],
    ['voice', '/v1/projects/residents/voices/entries/:id/comments'],
  ] as const) {
    app.get(path, async (request) => {
      const auth = requireAuth(request);
      const { id } = parse(idParamsSchema, request.params);
      const list = parseListQuery(request.query, COMMENT_SPEC);
      await showEntry(app, auth, kind, id);
      const rows = await applyListQuery(commentsQuery(app, auth, kind).where('c.entry_id', '=', id), list, COMMENT_SPEC).execute();
      const page = toPage(rows, list);
      return { ...page, data: await presentComments(app, auth, page.data) };
    });
  }
}
