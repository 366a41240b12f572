import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { JournalEntry, VoiceEntry } from '../../../src/contract/entries';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import { HttpError } from '../../lib/http-errors';
import { replicaPullQuery, syncColumns, syncSelect, type ListSpec } from '../../lib/list-query';
import { hourMinute, isoMicros, isoMicrosOrNull } from '../../lib/timestamps';
import type { SignedIn } from '../../plugins/session';
import { entryReadable } from '../access';
import type { EntryKind } from '../../../src/contract/entry-kind';
import { ENTRY_TABLE } from './entry-table';
import { personOf } from './present';
import { tombstoneOf } from './revocations';

/**
 * GET /api/v1/projects/residents/journal/entries and .../voices/entries (list, checkpoint mode as
 * every list) and GET .../entries/{id} (with `comments`). Rows are the entries the signed-in person
 * may read (domain/access.ts). `search_term` is a case-insensitive substring of the description (LIKE
 * wildcards escaped). Filters: entry_date (journal), category_id (voice), created_at, updated_at,
 * reaction, resident_id. Sort default: newest first (journal: entry_date, entry_time, created_at
 * desc; voice: created_at desc). A checkpoint pull with with_trashed=1 also gets tombstones of
 * entries the signed-in person lost access to (revocations.ts), merged in (updated_at, id) order.
 * A single entry's comments come oldest first: (created_at, id), as ids may be made by clients.
 */
const ref = (c: string) => sql.ref(`entry.${c}`);

const common: ListSpec['fields'] = {
  created_at: { expr: ref('created_at'), type: 'timestamp' },
  reaction: { expr: ref('reaction'), type: 'text' },
  resident_id: { expr: ref('resident_id'), type: 'uuid' },
};
const RELATIONS = ['files', 'comments', 'creator', 'canvas', 'category'] as const;

export const SPECS: Record<EntryKind, ListSpec> = {
  journal: {
    fields: { ...common, entry_date: { expr: ref('entry_date'), type: 'date' } },
    sorts: { entry_date: ref('entry_date'), entry_time: ref('entry_time'), created_at: ref('created_at') },
    defaultSort: [['entry_date', 'desc'], ['entry_time', 'desc'], ['created_at', 'desc']],
    relations: RELATIONS,
    ...syncColumns('entry'),
  },
  voice: {
    fields: { ...common, category_id: { expr: ref('category_id'), type: 'uuid' } },
    sorts: { created_at: ref('created_at'), entry_date: ref('entry_date') },
    defaultSort: [['created_at', 'desc']],
    relations: RELATIONS,
    ...syncColumns('entry'),
  },
};


export function entriesQuery(app: FastifyInstance, auth: SignedIn, kind: EntryKind) {
  return entriesQueryOn(app.db, auth, kind);
}

/** The readable entries of one kind, on a database (the replica pull below builds it from stand-ins). */
function entriesQueryOn(db: Kysely<Database>, auth: Pick<SignedIn, 'tenantId' | 'userId'>, kind: EntryKind) {
  return db
    .selectFrom(`${ENTRY_TABLE[kind]} as entry` as 'journal_entries as entry')
    .innerJoin('users as creator', 'creator.id', 'entry.creator_id')
    .leftJoin('user_photos as creator_photo', (join) => join.onRef('creator_photo.user_id', '=', 'creator.id').on('creator_photo.deleted_at', 'is', null))
    .select([
      ...syncSelect(syncColumns('entry')),
      'entry.resident_id',
      'entry.description',
      'entry.reaction',
      'entry.shared_with',
      'entry.shared_with_management',
      isoMicrosOrNull(ref('locked_at')).as('locked_at'),
      isoMicros(ref('created_at')).as('created_at'),
      'creator.id as creator_id',
      'creator.first_name as creator_first_name',
      'creator.last_name as creator_last_name',
      sql<boolean>`creator_photo.id is not null`.as('creator_has_photo'),
      sql<number>`(select count(*)::int from entry_comments c where c.entry_type = ${kind} and c.entry_id = entry.id and c.deleted_at is null)`.as('comments_count'),
      // The entry's files in the same statement (as present.ts filesOf orders them), not a second round trip.
      sql<EntryFileRow[]>`(select coalesce(json_agg(json_build_object('id', f.id, 'role', f.role, 'name', f.name, 'mime', f.mime, 'size', f.size) order by f.created_at, f.id), '[]'::json)
        from entry_files f where f.tenant_id = entry.tenant_id and f.entry_type = ${kind} and f.entry_id = entry.id and f.deleted_at is null)`.as('entry_files'),
      kind === 'journal' ? sql<string>`to_char(entry.entry_date, 'YYYY-MM-DD')`.as('entry_date') : sql<string>`''`.as('entry_date'),
      kind === 'journal' ? hourMinute(ref('entry_time')).as('entry_time') : sql<string>`''`.as('entry_time'),
      kind === 'voice' ? sql<string>`entry.category_id::text`.as('category_id') : sql<string>`''`.as('category_id'),
    ])
    .where('entry.tenant_id', '=', auth.tenantId)
    .where(entryReadable(auth));
}

/** The replica's pull of each kind's list, built and compiled once (lib/list-query.ts replicaPullQuery). */
export const ENTRY_PULLS = {
  journal: replicaPullQuery(SPECS.journal, (db, v: { tenantId: string; userId: string }) => entriesQueryOn(db, v, 'journal')),
  voice: replicaPullQuery(SPECS.voice, (db, v: { tenantId: string; userId: string }) => entriesQueryOn(db, v, 'voice')),
};

export type EntryRow = Awaited<ReturnType<ReturnType<typeof entriesQuery>['execute']>>[number];

interface EntryFileRow {
  id: string;
  role: 'attachment' | 'canvas';
  name: string;
  mime: string;
  size: number;
}

export function presentEntries(kind: EntryKind, rows: EntryRow[]): (JournalEntry | VoiceEntry)[] {
  return rows.map((r) => {
    // A deleted entry reaches replicas only to be removed there: none of what was written travels.
    if (r.deleted_at) return { ...tombstoneOf(kind, { revoked: true, id: r.id, updated_at: r.updated_at }), deleted_at: r.deleted_at };
    const files = r.entry_files.filter((f) => f.role === 'attachment').map(({ id, name, mime, size }) => ({ id, name, mime, size }));
    const canvas = r.entry_files.filter((f) => f.role === 'canvas').map(({ id, name, mime, size }) => ({ id, name, mime, size }));
    const base = {
      id: r.id,
      updated_at: r.updated_at,
      deleted_at: r.deleted_at,
      resident_id: r.resident_id,
      creator: personOf(r),
      description: r.description,
      reaction: r.reaction,
      // filesOf's rule: the last canvas wins.
      canvas: canvas.at(-1) ?? null,
      files,
      shared_with: r.shared_with,
      shared_with_management: r.shared_with_management,
      comments_count: r.comments_count,
      locked_at: r.locked_at,
      created_at: r.created_at,
    };
    return kind === 'journal' ? { ...base, entry_date: r.entry_date, entry_time: r.entry_time } : { ...base, category_id: r.category_id };
  });
}

/** One readable entry (not deleted), or 404. */
export async function showEntry(app: FastifyInstance, auth: SignedIn, kind: EntryKind, id: string) {
  const row = await entriesQuery(app, auth, kind).where('entry.id', '=', id).where('entry.deleted_at', 'is', null).executeTakeFirst();
  if (!row) throw new HttpError(404, chosen.notFound);
  const [entry] = presentEntries(kind, [row]);
  return entry!;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Entries whose description holds `term` (case-insensitive, LIKE wildcards escaped); all when blank. */
export function withSearchTerm(query: ReturnType<typeof entriesQuery>, term: unknown): ReturnType<typeof entriesQuery> {
  if (typeof term !== 'string' || term.trim() === '') return query;
  return query.where(sql<boolean>`entry.description ilike ${`%${escapeLike(term.trim())}%`} escape '\\'`);
}
