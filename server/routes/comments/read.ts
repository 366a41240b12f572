import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Comment } from '../../../src/contract/comments';
import { idParamsSchema } from '../../../src/contract/users';
import { applyListQuery, parseListQuery, toPage, type ListSpec } from '../../lib/list-query';
import { isoMicros, isoMicrosOrNull } from '../../lib/timestamps';
import { parse } from '../../lib/validate';
import { requireAuth, type SignedIn } from '../../plugins/session';
import { ENTRY_TABLE, entryReadable, filesOf, personOf, type EntryKind } from '../entries/shared';
import { showEntry } from '../entries/read';

/**
 * GET /api/v1/projects/residents/journal/entries/{id}/comments and .../voices/entries/{id}/comments:
 * the thread of an entry the signed-in person may read (else 404), oldest first (ids are UUIDv7),
 * checkpoint mode and tombstones as every list. Each comment carries its files.
 */
const ref = (c: string) => sql.ref(`c.${c}`);
const spec: ListSpec = {
  fields: { created_at: { expr: ref('created_at'), type: 'timestamp' }, creator_id: { expr: ref('creator_id'), type: 'uuid' } },
  sorts: { created_at: ref('created_at') },
  defaultSort: [['id', 'asc']],
  relations: ['creator', 'files'],
  updatedAt: ref('updated_at'),
  id: ref('id'),
  deletedAt: ref('deleted_at'),
};

/** Comments on readable entries of this kind. */
export function commentsQuery(app: FastifyInstance, auth: SignedIn, kind: EntryKind) {
  return app.db
    .selectFrom('entry_comments as c')
    .innerJoin(`${ENTRY_TABLE[kind]} as entry` as 'journal_entries as entry', 'entry.id', 'c.entry_id')
    .innerJoin('users as creator', 'creator.id', 'c.creator_id')
    .leftJoin('user_photos as creator_photo', (join) => join.onRef('creator_photo.user_id', '=', 'creator.id').on('creator_photo.deleted_at', 'is', null))
    .select([
      'c.id',
      isoMicros(ref('updated_at')).as('updated_at'),
      isoMicrosOrNull(ref('deleted_at')).as('deleted_at'),
      'c.entry_id',
      'c.comment',
      'c.reaction',
      isoMicros(ref('created_at')).as('created_at'),
      'creator.id as creator_id',
      'creator.first_name as creator_first_name',
      'creator.last_name as creator_last_name',
      sql<boolean>`creator_photo.id is not null`.as('creator_has_photo'),
    ])
    .where('c.tenant_id', '=', auth.tenantId)
    .where('c.entry_type', '=', kind)
    .where('entry.tenant_id', '=', auth.tenantId)
    .where('entry.deleted_at', 'is', null)
    .where(entryReadable(auth));
}

type Row = Awaited<ReturnType<ReturnType<typeof commentsQuery>['execute']>>[number];

export async function presentComments(app: FastifyInstance, auth: SignedIn, rows: Row[]): Promise<Comment[]> {
  const files = await filesOf(app.db, auth.tenantId, 'comment', rows.map((r) => r.id));
  return rows.map((r) => ({
    id: r.id,
    updated_at: r.updated_at,
    deleted_at: r.deleted_at,
    entry_id: r.entry_id,
    comment: r.comment,
    reaction: r.reaction,
    created_at: r.created_at,
    creator: personOf(r),
    files: files.get(r.id)!.files,
  }));
}

export default async function commentListRoutes(app: FastifyInstance) {
  for (const [kind, path] of [
    ['journal', '/v1/projects/residents/journal/entries/:id/comments'],
    ['voice', '/v1/projects/residents/voices/entries/:id/comments'],
  ] as const) {
    app.get(path, async (request) => {
      const auth = requireAuth(request);
      const { id } = parse(idParamsSchema, request.params);
      const list = parseListQuery(request.query, spec);
      await showEntry(app, auth, kind, id);
      const rows = await applyListQuery(commentsQuery(app, auth, kind).where('c.entry_id', '=', id), list, spec).execute();
      const page = toPage(rows, list);
      return { ...page, data: await presentComments(app, auth, page.data) };
    });
  }
}
