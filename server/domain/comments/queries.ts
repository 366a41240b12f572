import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Comment } from '../../../src/contract/comments';
import { syncColumns, syncSelect, type ListSpec } from '../../lib/list-query';
import { isoMicros } from '../../lib/timestamps';
import type { SignedIn } from '../../plugins/session';
import { entryReadable } from '../access';
import type { EntryKind } from '../../../src/contract/entry-kind';
import { ENTRY_TABLE } from '../entries/entry-table';
import { filesOf, personOf } from '../entries/present';

/**
 * GET /api/v1/projects/residents/journal/entries/{id}/comments and .../voices/entries/{id}/comments:
 * the thread of an entry the signed-in person may read (else 404), oldest first by (created_at, id)
 * (ids may be made by clients, so they do not sort by time), checkpoint mode and tombstones as
 * every list. Each comment carries its files.
 */
const ref = (c: string) => sql.ref(`c.${c}`);
export const COMMENT_SPEC: ListSpec = {
  fields: { created_at: { expr: ref('created_at'), type: 'timestamp' }, creator_id: { expr: ref('creator_id'), type: 'uuid' } },
  sorts: { created_at: ref('created_at') },
  defaultSort: [['created_at', 'asc']],
  relations: ['creator', 'files'],
  ...syncColumns('c'),
};

/** Comments of the tenant with their creators (no access rule: see commentsQuery). */
function commentRows(app: FastifyInstance, auth: SignedIn) {
  return app.db
    .selectFrom('entry_comments as c')
    .innerJoin('users as creator', 'creator.id', 'c.creator_id')
    .leftJoin('user_photos as creator_photo', (join) => join.onRef('creator_photo.user_id', '=', 'creator.id').on('creator_photo.deleted_at', 'is', null))
    .select([
      ...syncSelect(COMMENT_SPEC),
      'c.entry_id',
      'c.comment',
      'c.reaction',
      isoMicros(ref('created_at')).as('created_at'),
      'creator.id as creator_id',
      'creator.first_name as creator_first_name',
      'creator.last_name as creator_last_name',
      sql<boolean>`creator_photo.id is not null`.as('creator_has_photo'),
    ])
    .where('c.tenant_id', '=', auth.tenantId);
}

/** Comments on readable entries of this kind. */
export function commentsQuery(app: FastifyInstance, auth: SignedIn, kind: EntryKind) {
  return commentRows(app, auth)
    .innerJoin(`${ENTRY_TABLE[kind]} as entry` as 'journal_entries as entry', 'entry.id', 'c.entry_id')
    .where('c.entry_type', '=', kind)
    .where('entry.tenant_id', '=', auth.tenantId)
    .where('entry.deleted_at', 'is', null)
    .where(entryReadable(auth));
}

type Row = Awaited<ReturnType<ReturnType<typeof commentRows>['execute']>>[number];

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

/** One comment of the tenant as the contract's Comment: its creator's answer to a create or an edit. */
export async function commentById(app: FastifyInstance, auth: SignedIn, id: string): Promise<Comment> {
  const row = await commentRows(app, auth).where('c.id', '=', id).executeTakeFirstOrThrow();
  const [comment] = await presentComments(app, auth, [row]);
  return comment!;
}
