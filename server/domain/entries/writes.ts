import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { clientIdSchema, entryMessages } from '../../../src/contract/entries';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import type { Database } from '../../db/schema';
import { HttpError } from '../../lib/http-errors';
import { toSensitivity } from '../../lib/image-classifier';
import type { SignedIn } from '../../plugins/session';
import type { EntryKind } from '../../../src/contract/entry-kind';
import { ENTRY_TABLE } from './entry-table';
import { switchedOffError, switchedOn } from './feature-switch';
import { ownResidentRow } from '../access';

/** Tables whose rows may carry a client-made id (entries, their comments, objectives' comments and tasks, rewards and exchanges, documents and their submissions). */
export type ClientIdTable =
  | 'journal_entries'
  | 'voice_entries'
  | 'entry_comments'
  | 'task_log_comments'
  | 'tasks'
  | 'rewards'
  | 'reward_exchanges'
  | 'documents'
  | 'document_submissions';

/** Tables without soft delete: their rows are always live. */
const NEVER_DELETED: readonly ClientIdTable[] = ['reward_exchanges'];

/** What creating and changing an entry (or a comment) needs. Only the young person who created an entry may change it. */

export interface OwnResident {
  id: string;
  home_id: string;
  journal_enabled: number;
  voice_enabled: number;
  sensitivity: 'low' | 'medium' | 'high';
}

/** The signed-in young person's own resident record (staff write no entries: 403; nor a young person whose journal or voice is switched off). */
export async function ownResident(app: FastifyInstance, auth: SignedIn, kind: EntryKind): Promise<OwnResident> {
  const row = await ownResidentRow(app.db, auth)
    .leftJoin('resident_settings as s', (join) =>
      join.onRef('s.resident_id', '=', 'residents.id').on('s.name', '=', 'explicit_image_sensitivity').on('s.deleted_at', 'is', null),
    )
    .select(['residents.id', 'residents.home_id', 'residents.journal_enabled', 'residents.voice_enabled', 's.value as sensitivity'])
    .executeTakeFirst();
  if (!row) throw new HttpError(403, chosen.forbidden);
  if (!switchedOn(row, kind)) throw switchedOffError();
  return { ...row, sensitivity: toSensitivity(row.sensitivity) };
}

export async function residentSensitivity(db: Kysely<Database>, residentId: string) {
  const row = await db
    .selectFrom('resident_settings')
    .select('value')
    .where('resident_id', '=', residentId)
    .where('name', '=', 'explicit_image_sensitivity')
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return toSensitivity(row?.value);
}

/**
 * The id a client gave its create (contract clientIdSchema), lower-cased; undefined when absent.
 * Checked before anything else: a malformed id is a 422 with only the `id` error.
 */
export function clientIdOf(body: Record<string, unknown>): string | undefined {
  const value = body.id;
  if (value === undefined || value === null) return undefined;
  const parsed = clientIdSchema.safeParse(value);
  if (!parsed.success) throw new HttpError(422, chosen.validationFailed, { id: [parsed.error.issues[0]?.message ?? 'The id must be a UUID'] });
  return parsed.data?.toLowerCase();
}

/**
 * Who already has a client-made id in `table`: nobody (`free`); the signed-in person, in this
 * tenant, not deleted (`mine`: the same create sent again); anyone or anything else (`taken`).
 * Ids are primary keys across tenants, so a row of another tenant takes an id too. For comments,
 * `entryType` must match as well (journal and voice threads are separate collections).
 */
async function clientIdState(
  db: Kysely<Database>,
  auth: SignedIn,
  table: ClientIdTable,
  id: string,
  entryType?: EntryKind,
): Promise<'free' | 'mine' | 'taken'> {
  const row = await db
    .selectFrom(table as 'entry_comments')
    .select(['tenant_id', 'creator_id', (NEVER_DELETED.includes(table) ? sql<boolean>`true` : sql<boolean>`deleted_at is null`).as('live')])
    .select(entryType ? sql<string>`entry_type`.as('kind') : sql<null>`null`.as('kind'))
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return 'free';
  const mine = row.tenant_id === auth.tenantId && row.creator_id === auth.userId && row.live && (entryType === undefined || row.kind === entryType);
  return mine ? 'mine' : 'taken';
}

/**
 * A create whose client id is in use: the same person's row is this create sent again, answered
 * by `present` (the row as created); anything else is 422 idTaken. Null when the id is free.
 */
export async function createdBefore<T>(
  db: Kysely<Database>,
  auth: SignedIn,
  table: ClientIdTable,
  id: string,
  present: () => Promise<T>,
  entryType?: EntryKind,
): Promise<T | null> {
  const state = await clientIdState(db, auth, table, id, entryType);
  if (state === 'free') return null;
  if (state === 'taken') throw idTakenError();
  return present();
}

/** 422 `id`: a client-made id that another row has. Says nothing else about that row. */
export const idTakenError = () => new HttpError(422, chosen.validationFailed, { id: [entryMessages.idTaken] });

/** 422 for a young person's change to a locked entry or its thread (staff closed the conversation). */
export const lockedError = () => new HttpError(422, entryMessages.locked, { locked_at: [entryMessages.locked] });

/** PostgreSQL's unique_violation (23505), from pg and from PGlite alike. */
export const isUniqueViolation = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && 'code' in error && (error as { code: unknown }).code === '23505';


/** Europe/London wall-clock "YYYY-MM-DD HH:MM" at `at`: the home's time (docs/decisions.md). */
export function londonNow(at: Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

/** Clock skew allowed between a device and the server when checking "not in the future". */
export const CLOCK_SKEW_MS = 5 * 60 * 1000;

/** `_method=PUT` in the query or the form, as SPEC §7 updates send it. */
export function requirePutOverride(request: FastifyRequest): void {
  const query = request.query as Record<string, unknown> | undefined;
  const body = (request.body ?? {}) as Record<string, unknown>;
  const method = String(query?._method ?? body._method ?? '').toUpperCase();
  if (method !== 'PUT') throw new HttpError(405, 'Send updates as POST with _method=PUT');
}

/** An entry as its creator may change it, with its live files. */
export interface OwnEntry {
  id: string;
  description: string | null;
  reaction: string | null;
  entry_date: string | null;
  entry_time: string | null;
  category_id: string | null;
  shared_with: string[];
  shared_with_management: boolean;
  locked_at: Date | null;
  files: { id: string; role: 'attachment' | 'canvas'; storage_key: string }[];
}

/** The signed-in young person's own live entry of their resident record, or 404. */
export async function loadOwnEntry(app: FastifyInstance, auth: SignedIn, kind: EntryKind, id: string, residentId: string): Promise<OwnEntry> {
  const row = await app.db
    .selectFrom(`${ENTRY_TABLE[kind]} as entry` as 'journal_entries as entry')
    .select(['entry.id', 'entry.description', 'entry.reaction', 'entry.shared_with', 'entry.shared_with_management', 'entry.locked_at'])
    .select(kind === 'journal' ? sql<string>`to_char(entry.entry_date, 'YYYY-MM-DD')`.as('entry_date') : sql<null>`null`.as('entry_date'))
    .select(kind === 'journal' ? sql<string>`to_char(entry.entry_time, 'HH24:MI')`.as('entry_time') : sql<null>`null`.as('entry_time'))
    .select(kind === 'voice' ? sql<string>`entry.category_id::text`.as('category_id') : sql<null>`null`.as('category_id'))
    .where('entry.tenant_id', '=', auth.tenantId)
    .where('entry.id', '=', id)
    .where('entry.resident_id', '=', residentId)
    .where('entry.creator_id', '=', auth.userId)
    .where('entry.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw new HttpError(404, chosen.notFound);
  const files = await app.db
    .selectFrom('entry_files')
    .select(['id', 'role', 'storage_key'])
    .where('tenant_id', '=', auth.tenantId)
    .where('entry_type', '=', kind)
    .where('entry_id', '=', id)
    .where('deleted_at', 'is', null)
    .execute();
  return { ...row, files };
}
