import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import {
  documentMessages, documentSubmitSchema, type DocumentSubmission, type DocumentSubmissionRow,
} from '../../../src/contract/documents';
import { allowedFileType } from '../../../src/contract/file-type';
import { answersSchemaFor, formLimits, formMessages, ownAnswers, readFields, type FormField } from '../../../src/contract/forms';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import { HttpError } from '../../lib/http-errors';
import { applyListQuery, fetchPage, parseListQuery, syncColumns, syncSelect, type ListSpec } from '../../lib/list-query';
import { uuidv7 } from '../../lib/uuidv7';
import { fieldErrors } from '../../lib/validate';
import type { SignedIn } from '../../plugins/session';
import { documentReadable, documentSubmissionReadable, isStaffOf, ownResidentRow } from '../access';
import { clientIdOf, createdBefore, isUniqueViolation, residentSensitivity } from '../entries/writes';
import { checkImages, isImageMime, Problems, sanitiseName, type CheckedFile } from '../uploads/checks';
import { uploadedFiles } from '../uploads/form-fields';
import { storeDocumentFiles } from './files';
import { presentSubmissions } from './queries';

/**
 * Form documents (issue 11): the young person fills in the form once and sends it
 * (`POST /v1/documents/{id}/submissions`); they read it back in their list row; staff of their home
 * read every submission (`GET /v1/documents/{id}/submissions`). Answers are checked with the
 * contract's `answersSchemaFor(fields, { complete: true })` against the version the document
 * carries; file answers come as parts `files[<field id>]` (image and signature: one image;
 * embedded files: up to formLimits.maxEmbeddedFiles, any attachment type), checked by content and
 * images by the image check, like everything a young person sends.
 */
type Body = Record<string, unknown>;
const ANSWER_FILE = /^files\[([a-z][a-z0-9_]{0,62})\](\[\d*\])?$/;
const FILE_KINDS = new Set(['image', 'signature', 'embedded_files']);

/** One submission the signed-in person may read (access.ts documentSubmissionReadable), else 404. */
export async function showSubmission(app: FastifyInstance, auth: SignedIn, id: string): Promise<DocumentSubmission> {
  const row = await app.db
    .selectFrom('document_submissions as sub')
    .innerJoin('documents as doc', 'doc.id', 'sub.document_id')
    .select('sub.id')
    .where('sub.id', '=', id)
    .where('sub.deleted_at', 'is', null)
    .where('doc.deleted_at', 'is', null)
    .where(documentSubmissionReadable(auth))
    .executeTakeFirst();
  if (!row) throw new HttpError(404, documentMessages.notFound);
  const [shown] = await presentSubmissions(app, auth, [row.id]);
  return shown!;
}

export async function submitForm(app: FastifyInstance, auth: SignedIn, documentId: string, request: FastifyRequest): Promise<DocumentSubmission> {
  const body: Body = request.body && typeof request.body === 'object' ? (request.body as Body) : {};
  const clientId = clientIdOf(body);
  const again = () => (clientId ? createdBefore(app.db, auth, 'document_submissions', clientId, () => showSubmission(app, auth, clientId)) : Promise.resolve(null));
  const before = await again();
  if (before) return before;

  const doc = await app.db
    .selectFrom('documents as doc')
    .select(['doc.id', 'doc.kind', 'doc.form_version_id', 'doc.resident_id', 'doc.home_id'])
    .where('doc.id', '=', documentId)
    .where('doc.deleted_at', 'is', null)
    .where(documentReadable(auth, 'doc'))
    .executeTakeFirst();
  if (!doc) throw new HttpError(404, documentMessages.notFound);
  const resident = await ownResidentRow(app.db, auth).select(['residents.id', 'residents.home_id']).executeTakeFirst();
  // Staff read the form but do not fill it in for the young person.
  if (!resident) throw new HttpError(403, documentMessages.onlyYoungPerson);
  if (doc.kind !== 'form' || !doc.form_version_id) throw new HttpError(422, chosen.validationFailed, { answers: [documentMessages.notAForm] });

  const problems = new Problems();
  const parsed = documentSubmitSchema.safeParse(body);
  if (!parsed.success) problems.merge(fieldErrors(parsed.error));
  const version = await app.db.selectFrom('form_versions').select(['id', 'fields']).where('id', '=', doc.form_version_id).executeTakeFirstOrThrow();
  const fields = readFields(version.fields).flatMap((f) => (f.ok ? [f.field] : []));
  const byId = new Map<string, FormField>(fields.map((f) => [f.id, f]));

  // File answers: checked by content, images by the image check, at most one per image question.
  const uploads: (CheckedFile & { fieldId: string })[] = [];
  for (const upload of uploadedFiles(request)) {
    const match = ANSWER_FILE.exec(upload.field);
    const field = match ? byId.get(match[1]!) : undefined;
    if (!match || !field || !FILE_KINDS.has(field.kind)) {
      problems.add(match ? `answers.${match[1]}` : upload.field, match ? formMessages.unknownField : documentMessages.unexpectedFile);
      continue;
    }
    const mime = allowedFileType(upload.data, upload.filename);
    if (!mime || (field.kind !== 'embedded_files' && !isImageMime(mime))) {
      problems.add(`answers.${field.id}`, field.kind === 'embedded_files' ? documentMessages.fileTypeNotAllowed : formMessages.notAnImage);
      continue;
    }
    const count = uploads.filter((u) => u.fieldId === field.id).length + 1;
    if (field.kind !== 'embedded_files' && count > 1) problems.add(`answers.${field.id}`, formMessages.wrongAnswer);
    if (field.kind === 'embedded_files' && count > formLimits.maxEmbeddedFiles) problems.add(`answers.${field.id}`, formMessages.tooManyFiles(formLimits.maxEmbeddedFiles));
    uploads.push({ name: sanitiseName(upload.filename), mime, data: upload.data, index: uploads.length, fieldId: field.id });
  }
  problems.throwIfAny();

  // File questions are answered by the parts alone: whatever `answers` says for them (a device's own
  // file ids, say) is set aside and replaced by the files sent now.
  // Copied without a prototype (contract ownAnswers): no key sent is anything but an answer.
  const answers = ownAnswers(parsed.data!.answers);
  for (const field of fields) if (FILE_KINDS.has(field.kind)) delete answers[field.id];
  const preview = ownAnswers(answers);
  for (const u of uploads) {
    const placeholder = { file_id: '00000000-0000-4000-8000-000000000000' };
    preview[u.fieldId] = byId.get(u.fieldId)!.kind === 'embedded_files' ? [...((preview[u.fieldId] as unknown[]) ?? []), placeholder] : placeholder;
  }
  const checked = answersSchemaFor(fields, { complete: true }).safeParse(preview);
  if (!checked.success) {
    for (const [key, messages] of Object.entries(fieldErrors(checked.error))) for (const m of messages) problems.add(key === '_' ? 'answers' : `answers.${key}`, m);
  }
  problems.throwIfAny();

  const imageProblems = new Problems();
  await checkImages(app, uploads, await residentSensitivity(app.db, resident.id), imageProblems);
  for (const [key, messages] of Object.entries(imageProblems.errors)) {
    const index = /^files\.(\d+)$/.exec(key);
    if (index) for (const m of messages) problems.add(`answers.${uploads[Number(index[1])]!.fieldId}`, m);
  }
  problems.throwIfAny();

  const already = await app.db.selectFrom('document_submissions').select('id').where('document_id', '=', doc.id).where('resident_id', '=', resident.id).where('deleted_at', 'is', null).executeTakeFirst();
  if (already) throw alreadySubmitted();

  const id = clientId ?? uuidv7();
  const { stored, cleanup } = await storeDocumentFiles(app, auth.tenantId, uploads);
  stored.forEach((file, i) => {
    const field = byId.get(uploads[i]!.fieldId)!;
    const answer = { file_id: file.id };
    answers[field.id] = field.kind === 'embedded_files' ? [...((answers[field.id] as unknown[] | undefined) ?? []), answer] : answer;
  });
  try {
    await app.db.transaction().execute(async (tx) => {
      await tx
        .insertInto('document_submissions')
        .values({ id, tenant_id: auth.tenantId, document_id: doc.id, resident_id: resident.id, creator_id: auth.userId, form_version_id: version.id, answers: JSON.stringify(answers) })
        .execute();
      if (stored.length > 0) {
        await tx
          .insertInto('document_blobs')
          .values(stored.map((f, i) => ({ id: f.id, tenant_id: auth.tenantId, document_id: doc.id, role: 'answer' as const, submission_id: id, position: i, name: f.name, mime: f.mime, size: f.size, sha256: f.sha256, storage_key: f.storage_key })))
          .execute();
      }
    });
  } catch (error) {
    await cleanup();
    if (isUniqueViolation(error)) {
      // Lost a race: to a copy of this create (its client id), or to another submission of theirs.
      const created = await again();
      if (created) return created;
      throw alreadySubmitted();
    }
    throw error;
  }
  app.notifier.publish({ tenantId: auth.tenantId, homeId: resident.home_id, residentId: resident.id }, ['documents']);
  return showSubmission(app, auth, id);
}

const alreadySubmitted = () => new HttpError(422, documentMessages.alreadySubmitted, { answers: [documentMessages.alreadySubmitted] });

const SUBMISSION_SPEC: ListSpec = {
  fields: { resident_id: { expr: sql.ref('sub.resident_id'), type: 'uuid' }, created_at: { expr: sql.ref('sub.created_at'), type: 'timestamp' } },
  sorts: { created_at: sql.ref('sub.created_at'), submitted_at: sql.ref('sub.created_at') },
  defaultSort: [['created_at', 'desc']],
  relations: [],
  ...syncColumns('sub'),
};

/**
 * Staff: GET /v1/documents/{id}/submissions, the young people's answers (checkpoint list), also
 * after the document was withdrawn. A young person who may read the document gets 403 (theirs is in
 * their list row); anyone else 404.
 */
export async function listSubmissions(app: FastifyInstance, auth: SignedIn, documentId: string, query: unknown) {
  const doc = await app.db
    .selectFrom('documents as doc')
    .select(['doc.id', 'doc.resident_id', 'doc.home_id'])
    .where('doc.id', '=', documentId)
    .where(documentReadable(auth, 'doc'))
    .executeTakeFirst();
  if (!doc) throw new HttpError(404, documentMessages.notFound);
  const home = doc.home_id ?? (await app.db.selectFrom('residents').select('home_id').where('id', '=', doc.resident_id!).executeTakeFirst())?.home_id;
  if (!home || !(await isStaffOf(app, auth, home))) throw new HttpError(403, chosen.forbidden);
  const list = parseListQuery(query, SUBMISSION_SPEC);
  const page = await fetchPage(app.syncHorizon, list, () => applyListQuery(
    app.db
      .selectFrom('document_submissions as sub')
      .innerJoin('documents as doc', 'doc.id', 'sub.document_id')
      .innerJoin('form_versions as fv', 'fv.id', 'sub.form_version_id')
      .select([...syncSelect(SUBMISSION_SPEC), 'fv.version', 'fv.fields'])
      .where('sub.document_id', '=', doc.id)
      .where(documentSubmissionReadable(auth)),
    list,
    SUBMISSION_SPEC,
  ).execute());
  const shown = new Map((await presentSubmissions(app, auth, page.data.map((r) => r.id))).map((s) => [s.id, s]));
  const data: DocumentSubmissionRow[] = page.data.map((r) => {
    const { id: _id, ...s } = shown.get(r.id)!;
    return { ...s, id: r.id, updated_at: r.updated_at, deleted_at: r.deleted_at, form_version: { id: s.form_version_id, version: r.version, fields: r.fields } };
  });
  return { ...page, data };
}
