import type { Kysely } from 'kysely';
import type { EntryFile } from '../../../src/contract/entries';
import type { Person } from '../../../src/contract/residents';
import type { Database, FileEntryType } from '../../db/schema';

/** Files of several owners, grouped by owner id. */
export async function filesOf(db: Kysely<Database>, tenantId: string, type: FileEntryType, ids: string[]) {
  const byOwner = new Map<string, { files: EntryFile[]; canvas: EntryFile | null }>();
  for (const id of ids) byOwner.set(id, { files: [], canvas: null });
  if (ids.length === 0) return byOwner;
  const rows = await db
    .selectFrom('entry_files')
    .select(['id', 'entry_id', 'role', 'name', 'mime', 'size'])
    .where('tenant_id', '=', tenantId)
    .where('entry_type', '=', type)
    .where('entry_id', 'in', ids)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  for (const r of rows) {
    const owner = byOwner.get(r.entry_id)!;
    const file = { id: r.id, name: r.name, mime: r.mime, size: r.size };
    if (r.role === 'canvas') owner.canvas = file;
    else owner.files.push(file);
  }
  return byOwner;
}

/** Person columns of a users alias joined with its photo alias. */
export function personOf(r: { creator_id: string; creator_first_name: string; creator_last_name: string; creator_has_photo: boolean }): Person {
  return { id: r.creator_id, first_name: r.creator_first_name, last_name: r.creator_last_name, has_photo: r.creator_has_photo };
}
