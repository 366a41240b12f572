import type { FastifyInstance } from 'fastify';
import type { Comment } from '../../../src/contract/comments';
import { ENTRY_KINDS } from '../../../src/contract/entry-kind';
import { entryPaths } from '../../../src/contract/paths';
import { idParamsSchema } from '../../../src/contract/users';
import { applyListQuery, fetchPage, parseListQuery } from '../../lib/list-query';
import { parse } from '../../lib/validate';
import { requireAuth } from '../../plugins/session';
import { commentsQuery, presentComments } from '../../domain/comments/queries';
import { entriesQuery, presentEntries, showEntry, SPECS, withSearchTerm, type EntryRow } from '../../domain/entries/queries';
import { isRevoked, mergeByCheckpoint, revokedAfterCheckpoint, tombstoneOf } from '../../domain/entries/revocations';

/** Entry lists and single entries; the queries and the access rule live in domain/. */
export default async function entryReadRoutes(app: FastifyInstance) {
  for (const kind of ENTRY_KINDS) {
    const spec = SPECS[kind];
    app.get(entryPaths[kind].entries.pattern, async (request) => {
      const auth = requireAuth(request);
      const list = parseListQuery(request.query, spec);
      const query = withSearchTerm(entriesQuery(app, auth, kind), (request.query as { search_term?: unknown }).search_term);
      // Both queries run after the horizon (lib/list-query.ts fetchPage): revocations walk the checkpoint too.
      const page = await fetchPage(app.syncHorizon, list, async () =>
        mergeByCheckpoint(await applyListQuery(query, list, spec).execute(), await revokedAfterCheckpoint(app, auth, kind, list)),
      );
      const entries = new Map((await presentEntries(app, auth, kind, page.data.filter((r): r is EntryRow => !isRevoked(r)))).map((e) => [e.id, e]));
      return { ...page, data: page.data.map((r) => (isRevoked(r) ? tombstoneOf(kind, r) : entries.get(r.id)!)) };
    });

    app.get(entryPaths[kind].entry.pattern, async (request) => {
      const auth = requireAuth(request);
      const { id } = parse(idParamsSchema, request.params);
      const entry = await showEntry(app, auth, kind, id);
      const rows = await commentsQuery(app, auth, kind).where('c.entry_id', '=', id).where('c.deleted_at', 'is', null).orderBy('c.created_at').orderBy('c.id').execute();
      const comments: Comment[] = await presentComments(app, auth, rows);
      return { success: true as const, data: { ...entry, comments } };
    });
  }
}
