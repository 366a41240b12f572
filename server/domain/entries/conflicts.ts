import { sql, type Kysely, type RawBuilder } from 'kysely';
import { baseUpdatedAtSchema, deviceIdSchema, entryMessages } from '../../../src/contract/entries';
import type { EntryKind } from '../../../src/contract/entry-kind';
import type { Database } from '../../db/schema';
import { HttpError } from '../../lib/http-errors';
import { laterStamp } from '../../lib/timestamps';
import { ENTRY_TABLE } from './entry-table';

/**
 * Edit conflicts of journal and voice entries (issue 12). Only the young person changes their own
 * entries, so a conflict is between two of their devices: an update made from a copy of the entry
 * that another device has changed since. Such an update is refused (412, with the entry as it is
 * now) instead of silently replacing the other device's change; the app keeps both and asks.
 *
 * The rule: the update names the copy it was made from (`base_updated_at`: the `updated_at` the
 * device last saw) and its device (`device_id`). It conflicts when the entry's content changed
 * after that copy (`content_updated_at` > base) and that change was not made by the same device.
 * A device sends its changes to one entry in order, each made from a copy no older than the one
 * before, so when the last change is its own, everything since its copy is its own too: edits
 * made one after the other offline from the same copy go through, whatever retries, reloads or
 * idempotent replays happened in between.
 *
 * Clocks: `updated_at` also moves for comments, so the content has its own time. Every write to an
 * entry row moves `updated_at` forward from its previous value (`touched`), never back, even when
 * transactions start in one order and commit in the other: a device that saw the new content has
 * seen a time no earlier than it, and one that did not has seen an earlier one.
 */

/** A new `updated_at` for an entry row: now, and always after the value it replaces. */
export const touched = (): RawBuilder<Date> => laterStamp<Date>('updated_at');

export interface EditVersion {
  /** `updated_at` of the copy the change was made from (null: not said, the change simply applies). */
  readonly base: string | null;
  /** The device that made the change (null: not said). */
  readonly device: string | null;
}

/**
 * The version fields of a request body, when they read (the contract's full parse reports them as
 * field errors otherwise, with everything else wrong).
 */
export function editVersionOf(body: Record<string, unknown>): EditVersion | null {
  const base = baseUpdatedAtSchema.safeParse(body.base_updated_at ?? undefined);
  const device = deviceIdSchema.safeParse(body.device_id ?? undefined);
  if (!base.success || !device.success) return null;
  return { base: base.data ?? null, device: device.data ?? null };
}

type Db = Kysely<Database>;

/**
 * Whether the entry's content changed after `version.base` by another device. `lock`: inside the
 * update's transaction, so nothing can change it between this answer and the update.
 */
export async function changedElsewhere(db: Db, kind: EntryKind, entryId: string, version: EditVersion | null, lock: boolean): Promise<boolean> {
  if (!version?.base) return false;
  let query = db
    .selectFrom(ENTRY_TABLE[kind] as 'journal_entries')
    .select([sql<boolean>`content_updated_at > cast(${version.base} as timestamptz)`.as('changed'), 'content_writer'])
    .where('id', '=', entryId);
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row?.changed) return false;
  return version.device === null || row.content_writer !== version.device;
}

/** Thrown inside the update's transaction, answered as editConflictError once it has rolled back. */
export class EditConflict extends Error {
  override readonly name = 'EditConflict';
}

/** 412 with the entry as it is now, so the device can show both versions at once. */
export const editConflictError = (current: unknown) =>
  new HttpError(412, entryMessages.editConflict, { base_updated_at: [entryMessages.editConflict] }, {}, current);
