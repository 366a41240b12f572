import type { FastifyInstance } from 'fastify';
import { ENTRY_KINDS } from '../../../src/contract/entry-kind';
import { entryPaths } from '../../../src/contract/paths';
import { idParamsSchema } from '../../../src/contract/users';
import { applyListQuery, fetchPage, parseListQuery } from '../../lib/list-query';
import { parse } from '../../lib/validate';
import { requireAuth } from '../../plugins/session';
import { COMMENT_SPEC, commentsQuery, presentComments } from '../../domain/comments/queries';
import { showEntry } from '../../domain/entries/queries';

/** A thread's comments (the entry must be readable, else 404); queries live in domain/comments. */
export default async function commentListRoutes(app: FastifyInstance) {
  for (const kind of ENTRY_KINDS) {
    app.get(entryPaths[kind].entryComments.pattern, async (request) => {
      const auth = requireAuth(request);
      const { id } = parse(idParamsSchema, request.params);
      const list = parseListQuery(request.query, COMMENT_SPEC);
      await showEntry(app, auth, kind, id);
      const page = await fetchPage(app.syncHorizon, list, () => applyListQuery(commentsQuery(app, auth, kind).where('c.entry_id', '=', id), list, COMMENT_SPEC).execute());
      return { ...page, data: await presentComments(app, auth, page.data) };
    });
  }
}
