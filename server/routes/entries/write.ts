import type { FastifyInstance, FastifyRequest } from 'fastify';
import { entryLimits, entryMessages, journalFieldsSchema, voiceFieldsSchema } from '../../../src/contract/entries';
import { idParamsSchema } from '../../../src/contract/users';
import { fieldErrors, parse } from '../../lib/validate';
import { requireAuth, type SignedIn } from '../../plugins/session';
import { listField, textField } from '../../domain/uploads/form-fields';
import { showEntry } from '../../domain/entries/queries';
import { recordAccessChange } from '../../domain/entries/revocations';
import { ENTRY_KINDS, type EntryKind } from '../../../src/contract/entry-kind';
import { entryPaths } from '../../../src/contract/paths';
import { ENTRY_TABLE } from '../../domain/entries/entry-table';
import { EditConflict, changedElsewhere, editConflictError, editVersionOf, touched } from '../../domain/entries/conflicts';
import {
  CLOCK_SKEW_MS, clientIdOf, createdBefore, isUniqueViolation, loadOwnEntry, lockedError, londonNow, ownResident, requirePutOverride,
} from '../../domain/entries/writes';
import { Problems, checkImages, checkUploads, storeFiles } from '../../domain/uploads/checks';
import { removeRetiredBytes, retireFiles, type RetiredFile } from '../../domain/uploads/retire';

/**
 * POST /api/v1/projects/residents/journal/entries (create) and POST .../entries/{id}?_method=PUT
 * (update), the same for .../voices/entries. Multipart per SPEC §5 (JSON without files too):
 * text fields of the contract's journalFieldsSchema / voiceFieldsSchema, `shared_with[]` repeated,
 * attachments `files[N]`, the drawing as the PNG part `canvas`; updates replace the fields they
 * send, add new files, drop `remove_files[]` and replace or remove (`remove_canvas=1`) the drawing.
 * Every rule answers 422 with field errors (entryMessages); a file over maxFileBytes is a 413.
 * Idempotent (Idempotency-Key): the request hash covers the files (plugins/multipart-bodies.ts).
 * A create may carry the client's `id` (checked first): a row of the same person with that id
 * means the create was sent again and it is answered as created, changing nothing; any other row
 * with it is 422 `id` (idTaken). A locked entry (locked_at) cannot be updated: 422 locked.
 * An update that takes read access away from staff records it (domain/entries/revocations.ts) in its transaction.
 * An update made from a copy another device has changed since (`base_updated_at`, `device_id`) is
 * a 412 with the entry as it is now (domain/entries/conflicts.ts), checked before anything costly
 * and again under the row's lock.
 */
const DATE_OK = (d: string) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d);

/** The same person's entry under this client id (a create sent again), 422 idTaken, or null (free). */
const alreadyCreated = (app: FastifyInstance, auth: SignedIn, kind: EntryKind, id: string) =>
  createdBefore(app.db, auth, ENTRY_TABLE[kind], id, () => showEntry(app, auth, kind, id));

async function writeEntry(app: FastifyInstance, request: FastifyRequest, kind: EntryKind, entryId: string | null) {
  const auth = requireAuth(request);
  const resident = await ownResident(app, auth, kind);
  if (entryId) requirePutOverride(request);
  const existing = entryId ? await loadOwnEntry(app, auth, kind, entryId, resident.id) : null;
  if (existing?.locked_at) throw lockedError();
  const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>;
  // The client's id (create only; an update's id is the path's): before any other check or file.
  const clientId = existing ? undefined : clientIdOf(body);
  if (clientId) {
    const created = await alreadyCreated(app, auth, kind, clientId);
    if (created) return created;
  }
  // Made from a copy another device has changed since: refused before any file is checked.
  const version = editVersionOf(body);
  if (existing && (await changedElsewhere(app.db, kind, existing.id, version, false))) throw editConflictError(await showEntry(app, auth, kind, existing.id));
  const problems = new Problems();

  // The contract's field rules.
  const raw: Record<string, unknown> = {};
  for (const name of ['description', 'reaction', 'shared_with_management', 'remove_canvas', 'entry_date', 'entry_time', 'category_id']) {
    const value = textField(body, name);
    if (value !== undefined) raw[name] = value;
  }
  const sharedGiven = listField(body, 'shared_with');
  if (sharedGiven) raw.shared_with = sharedGiven;
  const removeGiven = listField(body, 'remove_files');
  if (removeGiven) raw.remove_files = removeGiven;
  // As sent, so a wrong type is a 422 rather than an update without its version.
  for (const name of ['base_updated_at', 'device_id']) if (body[name] !== undefined && body[name] !== null) raw[name] = body[name];
  if (existing && kind === 'voice' && raw.category_id === undefined) raw.category_id = existing.category_id;
  const schema = kind === 'journal' ? journalFieldsSchema : voiceFieldsSchema;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) problems.merge(fieldErrors(parsed.error));
  const input = (parsed.success ? parsed.data : {}) as Partial<Record<string, unknown>> & { remove_files?: string[]; shared_with?: string[] };

  // Files.
  const uploads = checkUploads(request, problems, { canvas: true });
  const removeIds = new Set(input.remove_files ?? []);
  const kept = (existing?.files ?? []).filter((f) => f.role === 'attachment' && !removeIds.has(f.id));
  for (const id of removeIds) if (!existing?.files.some((f) => f.id === id && f.role === 'attachment')) problems.add('remove_files', 'That file is not on this entry');
  if (kept.length + uploads.attachmentCount > entryLimits.maxFiles) problems.add('files', entryMessages.tooManyFiles);
  const oldCanvas = existing?.files.find((f) => f.role === 'canvas') ?? null;
  const dropCanvas = Boolean(oldCanvas) && (uploads.canvas !== null || input.remove_canvas === '1');

  // The entry as it will be.
  const description = raw.description !== undefined ? String(raw.description).trim() || null : (existing?.description ?? null);
  const reaction = raw.reaction !== undefined ? String(raw.reaction).trim() || null : (existing?.reaction ?? null);
  const hasCanvas = uploads.canvas !== null || (Boolean(oldCanvas) && !dropCanvas);
  if (!description && !reaction && !hasCanvas) problems.add('description', entryMessages.nothingToSave);

  let entryDate: string | null = null;
  let entryTime: string | null = null;
  if (kind === 'journal') {
    const now = londonNow(new Date());
    entryDate = (raw.entry_date as string | undefined) ?? existing?.entry_date ?? now.slice(0, 10);
    entryTime = (raw.entry_time as string | undefined) ?? (raw.entry_date !== undefined ? '00:00' : (existing?.entry_time ?? now.slice(11)));
    // A date or time the contract refused (a list, say) is not also "in the future".
    if (!problems.errors.entry_date && !DATE_OK(entryDate)) problems.add('entry_date', 'The date is not valid');
    else if (!problems.errors.entry_date && !problems.errors.entry_time && `${entryDate} ${entryTime}` > londonNow(new Date(Date.now() + CLOCK_SKEW_MS))) {
      problems.add('entry_date', entryMessages.dateInFuture);
    }
  }

  const sharedWith = sharedGiven ? [...new Set(input.shared_with ?? [])] : (existing?.shared_with ?? []);
  if (sharedGiven && sharedWith.length > 0 && !problems.errors.shared_with) {
    const staff = await app.db
      .selectFrom('home_staff')
      .innerJoin('users', 'users.id', 'home_staff.user_id')
      .select('home_staff.user_id')
      .where('home_staff.tenant_id', '=', auth.tenantId)
      .where('home_staff.home_id', '=', resident.home_id)
      .where('home_staff.deleted_at', 'is', null)
      .where('users.deleted_at', 'is', null)
      .where('home_staff.user_id', 'in', sharedWith)
      .execute();
    if (staff.length !== sharedWith.length) problems.add('shared_with', 'You can only share with people who work in your home');
  }
  const categoryId = kind === 'voice' && parsed.success ? (input.category_id as string) : null;
  if (categoryId) {
    const category = await app.db
      .selectFrom('voice_categories')
      .select('id')
      .where('tenant_id', '=', auth.tenantId)
      .where('id', '=', categoryId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!category) problems.add('category_id', entryMessages.categoryRequired);
  }
  problems.throwIfAny();

  await checkImages(app, uploads.canvas ? [...uploads.attachments, uploads.canvas] : uploads.attachments, resident.sensitivity, problems);
  problems.throwIfAny();

  const management = raw.shared_with_management !== undefined ? raw.shared_with_management === '1' : (existing?.shared_with_management ?? false);
  const stored = await storeFiles(app, auth.tenantId, [...uploads.attachments, ...(uploads.canvas ? [uploads.canvas] : [])]);
  const removed: RetiredFile[] = [];
  let id: string;
  try {
    id = await app.db.transaction().execute(async (tx) => {
      const table = ENTRY_TABLE[kind];
      const values = { description, reaction, shared_with: sharedWith, shared_with_management: management };
      const dated = kind === 'journal' ? { entry_date: entryDate!, entry_time: entryTime! } : { category_id: categoryId! };
      let entryRowId: string;
      if (existing) {
        if (await changedElsewhere(tx, kind, existing.id, version, true)) throw new EditConflict();
        await tx
          .updateTable(table as 'journal_entries')
          .set({ ...values, ...(dated as object), updated_at: touched(), content_updated_at: touched(), content_writer: version?.device ?? null })
          .where('id', '=', existing.id)
          .execute();
        entryRowId = existing.id;
        await recordAccessChange(tx, {
          tenantId: auth.tenantId,
          kind,
          entryId: existing.id,
          homeId: resident.home_id,
          before: { sharedWith: existing.shared_with, management: existing.shared_with_management },
          after: { sharedWith, management },
        });
        const drop = [...existing.files.filter((f) => removeIds.has(f.id)), ...(dropCanvas && oldCanvas ? [oldCanvas] : [])];
        await retireFiles(tx, drop);
        removed.push(...drop);
      } else {
        const row = await tx
          .insertInto(table as 'journal_entries')
          .values({
            ...(clientId ? { id: clientId } : {}),
            tenant_id: auth.tenantId,
            resident_id: resident.id,
            creator_id: auth.userId,
            content_writer: version?.device ?? null,
            ...values,
            ...(dated as { entry_date: string; entry_time: string }),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        entryRowId = row.id;
      }
      const rows = stored.rows(kind, entryRowId);
      if (rows.length > 0) await tx.insertInto('entry_files').values(rows).execute();
      return entryRowId;
    });
  } catch (error) {
    await stored.cleanup();
    if (error instanceof EditConflict) throw editConflictError(await showEntry(app, auth, kind, existing!.id));
    // A concurrent request inserted this client id first: answer as if it had come first.
    if (clientId && isUniqueViolation(error)) {
      const created = await alreadyCreated(app, auth, kind, clientId);
      if (created) return created;
    }
    throw error;
  }
  await removeRetiredBytes(app, auth.tenantId, removed);
  // Staff who can read it now, and those who just lost it (their replica must drop it), hear of it.
  const readers = {
    userIds: [...new Set([...(existing?.shared_with ?? []), ...sharedWith])],
    managers: management || Boolean(existing?.shared_with_management),
  };
  app.notifier.publish({ tenantId: auth.tenantId, homeId: resident.home_id, residentId: resident.id, readers }, [kind]);
  return showEntry(app, auth, kind, id);
}

export default async function entryWriteRoutes(app: FastifyInstance) {
  const config = { idempotent: true };
  for (const kind of ENTRY_KINDS) {
    app.post(entryPaths[kind].entries.pattern, { config }, async (request, reply) => {
      const data = await writeEntry(app, request, kind, null);
      return reply.code(201).send({ success: true as const, data });
    });
    app.post(entryPaths[kind].entry.pattern, { config }, async (request) => {
      const { id } = parse(idParamsSchema, request.params);
      const data = await writeEntry(app, request, kind, id);
      return { success: true as const, data };
    });
  }
}
