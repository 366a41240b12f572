import { sql, type Kysely } from 'kysely';
import { compiledOnce } from '../../db/compiled-once';
import type { EntryFile } from '../../../src/contract/entries';
import type { Person } from '../../../src/contract/residents';
import type { Database, FileEntryType } from '../../db/schema';

/** One statement for any number of owners (`= any` of an array, not an `in` list of that length). */
const filesQuery = compiledOnce((db, v: { tenantId: string; type: FileEntryType; ids: string[] }) =>
  db
    .selectFrom('entry_files')
    .select(['id', 'entry_id', 'role', 'name', 'mime', 'size'])
    .where('tenant_id', '=', v.tenantId)
    .where('entry_type', '=', v.type)
    .where(sql<boolean>`entry_id = any(cast(${v.ids} as uuid[]))`)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id'),
);

/** Files of several owners, grouped by owner id. */
export async function filesOf(db: Kysely<Database>, tenantId: string, type: FileEntryType, ids: string[]) {
  const byOwner = new Map<string, { files: EntryFile[]; canvas: EntryFile | null }>();
  for (const id of ids) byOwner.set(id, { files: [], canvas: null });
  if (ids.length === 0) return byOwner;
  const rows = await filesQuery(db, { tenantId, type, ids });
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
