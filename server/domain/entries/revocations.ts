import type { FastifyInstance } from 'fastify';
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { JournalEntry, VoiceEntry } from '../../../src/contract/entries';
import type { Database } from '../../db/schema';
import type { ListRequest } from '../../lib/list-query';
import { isoMicros } from '../../lib/timestamps';
import type { SignedIn } from '../../plugins/session';
import { entryReadable } from '../access';
import type { EntryKind } from '../../../src/contract/entry-kind';
import { ENTRY_TABLE } from './entry-table';
import { compiledOnce } from '../../db/compiled-once';

/**
 * Tombstones for lost access (docs/api.md, "Lost access").
 *
 * Staff read an entry while it is shared with them (domain/access.ts entryReadable). When the young person
 * takes that away, a checkpoint pull simply stops seeing the row and the staff member's replica
 * would keep it forever. So an entry update records, in its transaction, every user who could read
 * the entry before and cannot now (entry_access_revocations, revoked_at = now()), and forgets the
 * users who can read it (again). The journal and voice lists then add, in checkpoint mode with
 * with_trashed=1 only, the signed-in user's revocations of entries they cannot read as tombstones
 * that carry the entry's id and the time and nothing else.
 */
export interface Sharing {
  sharedWith: readonly string[];
  management: boolean;
}

/** Staff of the home who can read an entry shared this way (entryReadable's staff rule). */
function readers(staff: { user_id: string; manager: boolean }[], sharing: Sharing): Set<string> {
  return new Set(staff.filter((s) => sharing.sharedWith.includes(s.user_id) || (sharing.management && s.manager)).map((s) => s.user_id));
}

/** Within the entry update's transaction: revoke for readers lost, forget revocations of readers. */
export async function recordAccessChange(
  tx: Kysely<Database>,
  change: { tenantId: string; kind: EntryKind; entryId: string; homeId: string; before: Sharing; after: Sharing },
): Promise<void> {
  const staff = await tx
    .selectFrom('home_staff')
    .innerJoin('users', 'users.id', 'home_staff.user_id')
    .innerJoin('user_types', 'user_types.id', 'users.user_type_id')
    .select(['home_staff.user_id', sql<boolean>`user_types.system_name = 'manager'`.as('manager')])
    .where('home_staff.tenant_id', '=', change.tenantId)
    .where('home_staff.home_id', '=', change.homeId)
    .where('home_staff.deleted_at', 'is', null)
    .execute();
  const before = readers(staff, change.before);
  const after = readers(staff, change.after);
  const lost = [...before].filter((userId) => !after.has(userId));
  if (lost.length > 0) {
    await tx
      .insertInto('entry_access_revocations')
      .values(lost.map((userId) => ({ tenant_id: change.tenantId, entry_type: change.kind, entry_id: change.entryId, user_id: userId })))
      .onConflict((oc) => oc.columns(['entry_type', 'entry_id', 'user_id']).doUpdateSet({ revoked_at: sql`now()` }))
      .execute();
  }
  if (after.size > 0) {
    await tx
      .deleteFrom('entry_access_revocations')
      .where('entry_type', '=', change.kind)
      .where('entry_id', '=', change.entryId)
      .where('user_id', 'in', [...after])
      .execute();
  }
}

export interface Revoked {
  revoked: true;
  id: string;
  updated_at: string;
}

/**
 * The signed-in user's revocations after the checkpoint, of entries they cannot read now, in
 * (revoked_at, entry id) order, at most per_page + 1 (like applyListQuery). Only in checkpoint
 * mode with with_trashed=1; list filters and search_term do not apply (a tombstone has nothing to
 * match). An entry they can read, deleted or not, comes as its own row instead, never twice.
 */
export async function revokedAfterCheckpoint(app: FastifyInstance, auth: SignedIn, kind: EntryKind, list: ListRequest): Promise<Revoked[]> {
  if (!list.checkpoint || !list.withTrashed) return [];
  const rows = await REVOKED[kind](app.db, {
    tenantId: auth.tenantId,
    userId: auth.userId,
    checkpointUpdatedAt: list.checkpoint.updated_at,
    checkpointId: list.checkpoint.id,
    limit: list.perPage + 1,
  });
  return rows.map((r) => ({ revoked: true as const, id: r.id, updated_at: r.updated_at }));
}

/** Every replica pull of an entry list runs this: built and compiled once per kind (db/compiled-once.ts). */
function revokedQuery(kind: EntryKind) {
  return compiledOnce((db, v: { tenantId: string; userId: string; checkpointUpdatedAt: string; checkpointId: string; limit: number }) =>
    db
      .selectFrom('entry_access_revocations as r')
      .select(['r.entry_id as id', isoMicros(sql.ref('r.revoked_at')).as('updated_at')])
      .where('r.tenant_id', '=', v.tenantId)
      .where('r.user_id', '=', v.userId)
      .where('r.entry_type', '=', kind)
      .where(sql<SqlBool>`(r.revoked_at, r.entry_id) > (cast(${v.checkpointUpdatedAt} as timestamptz), cast(${v.checkpointId} as uuid))`)
      .where(
        sql<SqlBool>`not exists (select 1 from ${sql.table(ENTRY_TABLE[kind])} as entry where entry.id = r.entry_id and entry.tenant_id = ${v.tenantId} and ${entryReadable(v)})`,
      )
      .orderBy('r.revoked_at')
      .orderBy('r.entry_id')
      .limit(v.limit),
  );
}
const REVOKED = { journal: revokedQuery('journal'), voice: revokedQuery('voice') };

/** Two lists, each in (updated_at, id) order, as one in that order (timestamps are fixed-width UTC). */
export function mergeByCheckpoint<A extends { id: string; updated_at: string }, B extends { id: string; updated_at: string }>(a: A[], b: B[]): (A | B)[] {
  if (b.length === 0) return a;
  const before = (x: A | B, y: A | B) => x.updated_at < y.updated_at || (x.updated_at === y.updated_at && x.id < y.id);
  const merged: (A | B)[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && before(a[i]!, b[j]!))) merged.push(a[i++]!);
    else merged.push(b[j++]!);
  }
  return merged;
}

export const isRevoked = (item: object): item is Revoked => 'revoked' in item;

const NIL_UUID = '00000000-0000-0000-0000-000000000000';
const EPOCH = '1970-01-01T00:00:00.000000Z';

/**
 * A revocation as an entry tombstone: its id, updated_at = deleted_at = revoked_at, and neutral
 * placeholders where the contract wants a value (nil UUIDs, the epoch, an unnamed creator).
 */
export function tombstoneOf(kind: EntryKind, revoked: Revoked): JournalEntry | VoiceEntry {
  const base = {
    id: revoked.id,
    updated_at: revoked.updated_at,
    deleted_at: revoked.updated_at,
    resident_id: NIL_UUID,
    creator: { id: NIL_UUID, first_name: '', last_name: '', has_photo: false },
    description: null,
    reaction: null,
    canvas: null,
    files: [],
    shared_with: [],
    shared_with_management: false,
    comments_count: 0,
    locked_at: null,
    created_at: EPOCH,
  };
  return kind === 'journal' ? { ...base, entry_date: EPOCH.slice(0, 10), entry_time: '00:00' } : { ...base, category_id: NIL_UUID };
}
