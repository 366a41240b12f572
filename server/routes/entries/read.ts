import type { FastifyInstance } from 'fastify';
import type { Comment } from '../../../src/contract/comments';
import { ENTRY_KINDS } from '../../../src/contract/entry-kind';
import { entryPaths } from '../../../src/contract/paths';
import { idParamsSchema } from '../../../src/contract/users';
import { applyListQuery, fetchPage, isReplicaPull, parseListQuery } from '../../lib/list-query';
import { parse } from '../../lib/validate';
import { requireAuth } from '../../plugins/session';
import { commentsQuery, presentComments } from '../../domain/comments/queries';
import { ENTRY_PULLS, entriesQuery, presentEntries, showEntry, SPECS, withSearchTerm, type EntryRow } from '../../domain/entries/queries';
import { isRevoked, mergeByCheckpoint, revokedAfterCheckpoint, tombstoneOf } from '../../domain/entries/revocations';

/** Entry lists and single entries; the queries and the access rule live in domain/. */
export default async function entryReadRoutes(app: FastifyInstance) {
  for (const kind of ENTRY_KINDS) {
    const spec = SPECS[kind];
    app.get(entryPaths[kind].entries.pattern, async (request) => {
      const auth = requireAuth(request);
      const list = parseListQuery(request.query, spec);
      const term = (request.query as { search_term?: unknown }).search_term;
      const searching = typeof term === 'string' && term.trim() !== '';
      // Both queries run after the horizon (lib/list-query.ts fetchPage): revocations walk the checkpoint too.
      const page = await fetchPage(app.syncHorizon, list, async () => {
        const rows =
          isReplicaPull(list) && !searching
            ? await ENTRY_PULLS[kind](app.db, { tenantId: auth.tenantId, userId: auth.userId }, list)
            : await applyListQuery(withSearchTerm(entriesQuery(app, auth, kind), term), list, spec).execute();
        // Revocations are recorded only for staff (they lose access when a young person stops sharing;
        // domain/entries/revocations.ts): a young person's pull has none to ask for.
        const revoked = request.session?.staff ? await revokedAfterCheckpoint(app, auth, kind, list) : [];
        return mergeByCheckpoint(rows, revoked);
      });
      const entries = new Map(presentEntries(kind, page.data.filter((r): r is EntryRow => !isRevoked(r))).map((e) => [e.id, e]));
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
