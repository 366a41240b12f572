import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { FieldErrors } from '../../../src/contract/envelope';
import { clientIdSchema, entryLimits, entryMessages, type EntryFile } from '../../../src/contract/entries';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import type { Person } from '../../../src/contract/residents';
import type { Database, FileEntryType } from '../../db/schema';
import { allowedType, isImageMime, sanitiseName, sniffMime } from '../../lib/file-store';
import { HttpError } from '../../lib/http-errors';
import { uuidv7 } from '../../lib/uuidv7';
import { ClassifierUnavailableError, isInappropriate, toSensitivity } from '../../lib/image-classifier';
import type { SignedIn } from '../../plugins/session';
import { uploadedFiles, type UploadedFile } from '../comments/form-bodies';

/**
 * What journal and voice share (one machinery, used twice).
 *
 * Who may read an entry (and its comments and files), docs/api.md:
 * - the young person the entry belongs to (entry.resident_id is theirs), whoever created it;
 * - staff of that young person's home (home_staff, not deleted) when the entry is shared with them
 *   (their user id in shared_with) or shared with management and they are a manager.
 * Anyone else, other tenants included, gets 404: an answer never says that an entry exists.
 * Only the young person who created an entry may change it.
 */
export const ENTRY_TABLE = { journal: 'journal_entries', voice: 'voice_entries' } as const;
export type EntryKind = keyof typeof ENTRY_TABLE;

/** Condition on an entry alias (`entry`): the signed-in person may read it. */
export function entryReadable(auth: SignedIn, alias = 'entry'): Expression<SqlBool> {
  const e = (column: string) => sql.ref(`${alias}.${column}`);
  return sql<SqlBool>`${e('resident_id')} in (
    select r.id from residents r
    where r.tenant_id = ${auth.tenantId} and r.deleted_at is null and (
      r.user_id = ${auth.userId}
      or (
        r.home_id in (select hs.home_id from home_staff hs where hs.tenant_id = ${auth.tenantId} and hs.user_id = ${auth.userId} and hs.deleted_at is null)
        and (
          cast(${auth.userId} as uuid) = any(${e('shared_with')})
          or (${e('shared_with_management')} and exists (
            select 1 from users u join user_types ut on ut.id = u.user_type_id
            where u.id = ${auth.userId} and ut.system_name = 'manager'))
        )
      )
    )
  )`;
}

export interface OwnResident {
  id: string;
  home_id: string;
  journal_enabled: number;
  voice_enabled: number;
  sensitivity: 'low' | 'medium' | 'high';
}

/** The signed-in young person's own resident record (staff write no entries: 403). */
export async function ownResident(app: FastifyInstance, auth: SignedIn, kind: EntryKind): Promise<OwnResident> {
  const row = await app.db
    .selectFrom('residents')
    .leftJoin('resident_settings as s', (join) =>
      join.onRef('s.resident_id', '=', 'residents.id').on('s.name', '=', 'explicit_image_sensitivity').on('s.deleted_at', 'is', null),
    )
    .select(['residents.id', 'residents.home_id', 'residents.journal_enabled', 'residents.voice_enabled', 's.value as sensitivity'])
    .where('residents.tenant_id', '=', auth.tenantId)
    .where('residents.user_id', '=', auth.userId)
    .where('residents.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw new HttpError(403, chosen.forbidden);
  if ((kind === 'journal' ? row.journal_enabled : row.voice_enabled) !== 1) throw new HttpError(403, chosen.forbidden);
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
  table: 'journal_entries' | 'voice_entries' | 'entry_comments',
  id: string,
  entryType?: EntryKind,
): Promise<'free' | 'mine' | 'taken'> {
  const row = await db
    .selectFrom(table as 'entry_comments')
    .select(['tenant_id', 'creator_id', sql<boolean>`deleted_at is null`.as('live')])
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
  table: 'journal_entries' | 'voice_entries' | 'entry_comments',
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
const idTakenError = () => new HttpError(422, chosen.validationFailed, { id: [entryMessages.idTaken] });

/** 422 for a young person's change to a locked entry or its thread (staff closed the conversation). */
export const lockedError = () => new HttpError(422, entryMessages.locked, { locked_at: [entryMessages.locked] });

/** PostgreSQL's unique_violation (23505), from pg and from PGlite alike. */
export const isUniqueViolation = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && 'code' in error && (error as { code: unknown }).code === '23505';

/** Errors collected over several checks, thrown once as a 422. */
export class Problems {
  readonly errors: FieldErrors = {};
  add(key: string, message: string) {
    const list = (this.errors[key] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  merge(errors: FieldErrors) {
    for (const [k, messages] of Object.entries(errors)) for (const m of messages) this.add(k, m);
  }
  get any() {
    return Object.keys(this.errors).length > 0;
  }
  throwIfAny() {
    if (this.any) throw new HttpError(422, chosen.validationFailed, this.errors);
  }
}

export interface CheckedFile {
  name: string;
  mime: string;
  data: Buffer;
  /** Index among the attachments (files.N), -1 for the canvas. */
  index: number;
}

const ATTACHMENT = /^files(\[\d*\])?$/;

/**
 * The request's file parts, checked by content: attachments (`files[0]`, `files[]`, `files`) must
 * be an allowed type by magic bytes and name extension; `canvas` must be a PNG of at most
 * canvasMaxBytes. Type errors go to `files` (and `files.N`); other file fields are refused.
 */
export function checkUploads(request: FastifyRequest, problems: Problems, options: { canvas: boolean }) {
  const attachments: CheckedFile[] = [];
  let canvas: CheckedFile | null = null;
  let index = 0;
  for (const upload of uploadedFiles(request)) {
    if (ATTACHMENT.test(upload.field)) {
      const i = index++;
      const mime = allowedType(upload.data, upload.filename);
      if (!mime) {
        problems.add('files', entryMessages.fileTypeNotAllowed);
        problems.add(`files.${i}`, entryMessages.fileTypeNotAllowed);
        continue;
      }
      attachments.push({ name: sanitiseName(upload.filename), mime, data: upload.data, index: i });
    } else if (upload.field === 'canvas' && options.canvas) {
      canvasCheck(upload, problems);
      canvas = { name: 'drawing.png', mime: 'image/png', data: upload.data, index: -1 };
    } else {
      problems.add(upload.field, 'This file was not expected');
    }
  }
  return { attachments, canvas, attachmentCount: index };
}

function canvasCheck(upload: UploadedFile, problems: Problems) {
  if (sniffMime(upload.data) !== 'image/png') problems.add('canvas', entryMessages.fileTypeNotAllowed);
  if (upload.data.length > entryLimits.canvasMaxBytes) problems.add('canvas', `The drawing can be up to ${entryLimits.canvasMaxBytes / 1024 / 1024} MB`);
}

/**
 * The image check on every image given (attachments and the drawing, `index` -1), with the young
 * person's sensitivity; every image is looked at, none is stored unchecked. A flagged image is a
 * 422 "Image added is inappropriate" on `files` and `files.N`, or on `canvas` for the drawing; an
 * image the server cannot decode (corrupt, truncated, over the pixel limit) is refused the same way
 * with "File type not allowed" (docs/decisions.md); a classifier that is down or too slow is a 503
 * the client retries.
 */
export async function checkImages(app: FastifyInstance, files: CheckedFile[], sensitivity: 'low' | 'medium' | 'high', problems: Problems) {
  for (const file of files) {
    if (!isImageMime(file.mime)) continue;
    let result;
    try {
      result = await app.imageClassifier.classify(file.data, file.mime);
    } catch (error) {
      if (error instanceof ClassifierUnavailableError) {
        app.log.warn({ err: error }, 'image check unavailable');
        throw new HttpError(503, 'The image check is not available right now. Please try again.', undefined, { 'Retry-After': '30' });
      }
      throw error;
    }
    const refuse = (message: string) => {
      if (file.index === -1) return problems.add('canvas', message);
      problems.add('files', message);
      problems.add(`files.${file.index}`, message);
    };
    if (!result) {
      // Every allowed image type is decoded: an image the classifier skips is never stored unchecked.
      refuse(entryMessages.fileTypeNotAllowed);
    } else if (result.kind === 'undecodable') {
      app.log.info({ mime: file.mime, size: file.data.length, reason: result.reason }, 'image check: undecodable image refused');
      refuse(entryMessages.fileTypeNotAllowed);
    } else if (isInappropriate(result.probabilities, sensitivity)) {
      refuse(entryMessages.imageInappropriate);
    }
  }
}

/** Writes the bytes (outside the database) and returns rows to insert; `cleanup` removes them again. */
export async function storeFiles(app: FastifyInstance, tenantId: string, files: CheckedFile[]) {
  const stored: { file: CheckedFile; key: string }[] = [];
  try {
    for (const file of files) stored.push({ file, key: await app.fileStore.write(tenantId, file.data) });
  } catch (error) {
    for (const s of stored) await app.fileStore.remove(tenantId, s.key);
    throw error;
  }
  return {
    rows: (entryType: FileEntryType, entryId: string) =>
      stored.map(({ file, key }) => ({
        id: uuidv7(),
        tenant_id: tenantId,
        entry_type: entryType,
        entry_id: entryId,
        role: file.index === -1 ? ('canvas' as const) : ('attachment' as const),
        name: file.name,
        mime: file.mime,
        size: file.data.length,
        storage_key: key,
      })),
    cleanup: async () => {
      for (const s of stored) await app.fileStore.remove(tenantId, s.key);
    },
  };
}

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
