/**
 * The young person's answers to a form document (issue 11), through the outbox:
 * POST /v1/documents/{id}/submissions, JSON `{ id, answers }`, or multipart with `id`, `answers` as
 * JSON text and each file answer as `files[<field id>]` (embedded files `files[<field id>][]`,
 * docs/api.md). `id` is the submission's client id (the server keeps it, so the row's submission
 * and this one are one), the Idempotency-Key is new for every attempt: the server stores a refusal
 * under its key and would answer a repeat with it.
 *
 * On the device the answers wait in this device's state of the document (`outgoing`, pending,
 * src/data/replica/documents.ts); the draft (`useDraft('document:<id>')`) and the files answered
 * (kept encrypted as `local:<id>`) stay until the server has the submission
 * (./settle-submission.ts), so a refusal (422) leaves everything to fix and send again.
 */
import { documentMessages } from '@/contract/documents';
import { messages } from '@/contract/messages';
import { answersSchemaFor, readFields, type Answers, type FileAnswer, type FormField } from '@/contract/forms';
import type { EntryFile } from '@/contract/entries';
import { paths } from '@/contract/paths';
import { enqueueWrite, newIdempotencyKey, withdrawUnsentWrite } from '@/data/outbox/outbox';
import type { NamedFilePart } from '@/data/outbox/types';
import { changeDocumentState, documentStateId, readDocument, readDocumentState } from '@/data/replica/documents';
import { checkImages } from '@/entries/data/check-images';
import { readLocalFile } from '@/entries/data/local-files';
import { replicaForWrite } from '@/entries/data/replica-for-write';
import type { WriteResult } from '@/entries/data/types';
import { isOnline, refused } from '@/entries/data/write-support';
import { documentTexts } from '../document-texts';

const FILE_KINDS = new Set(['image', 'signature', 'embedded_files']);

export const documentDraftKey = (documentId: string): string => `document:${documentId}`;

const fileIdsOf = (value: unknown): string[] =>
  (Array.isArray(value) ? value : value ? [value] : [])
    .map((answer) => (answer && typeof answer === 'object' ? (answer as FileAnswer).file_id : null))
    .filter((id): id is string => typeof id === 'string');

function fieldErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? 'answers');
    errors[field] ??= [issue.message];
  }
  return errors;
}

/**
 * Queues the answers (`files`: the details of every file the answers name, kept on this device).
 * Refused on the device, before anything is queued, when the document is not a form, was sent
 * already, the answers do not fit the form, or a file is no longer here.
 */
export async function submitDocumentForm(documentId: string, answers: Answers, files: readonly EntryFile[], now: Date = new Date()): Promise<WriteResult> {
  const open = await replicaForWrite();
  if (!open) return refused(documentTexts.submitFailed);
  const doc = await readDocument(open.db, documentId);
  if (!doc) return refused(documentTexts.notFound);
  if (doc.kind !== 'form' || !doc.form) return refused(documentTexts.notAForm, { answers: [documentMessages.notAForm] });
  if (doc.submission) return refused(documentTexts.alreadySent, { answers: [documentMessages.alreadySubmitted] });
  const state = await readDocumentState(open.db, documentId);
  if (state?.outgoing && state.sync_state === 'pending') return refused(documentTexts.submitWaiting);

  const fields = readFields(doc.form.fields).flatMap((row) => (row.ok ? [row.field] : [])) as FormField[];
  const checked = answersSchemaFor(fields, { complete: true }).safeParse(answers);
  if (!checked.success) {
    const errors = fieldErrors(checked.error.issues);
    return refused(documentTexts.submitFailed, errors);
  }

  // File answers: their bytes, read back from the device's encrypted store, as parts named by question.
  const byId = new Map(files.map((file) => [file.id, file]));
  const parts: NamedFilePart[] = [];
  const byQuestion = new Map<string, File[]>();
  const answered: EntryFile[] = [];
  const plain: Answers = {};
  for (const field of fields) {
    if (field.kind === 'heading' || !(field.id in answers)) continue;
    if (!FILE_KINDS.has(field.kind)) {
      plain[field.id] = answers[field.id];
      continue;
    }
    for (const id of fileIdsOf(answers[field.id])) {
      const details = byId.get(id) ?? { id, name: 'file', mime: '', size: 0 };
      const bytes = await readLocalFile(open.db, details);
      if (!bytes) return refused(documentTexts.fileGone, { [field.id]: [documentTexts.fileGone] });
      parts.push({ name: field.kind === 'embedded_files' ? `files[${field.id}][]` : `files[${field.id}]`, file: bytes, filename: details.name });
      byQuestion.set(field.id, [...(byQuestion.get(field.id) ?? []), bytes]);
      answered.push(details);
    }
  }

  // SPEC §5: pictures are checked before they are queued, online, as entries' and objectives' are
  // ("Image added is inappropriate" beside the question); offline the server checks them on arrival.
  for (const [fieldId, pictures] of byQuestion) {
    const check = await checkImages(open.identity.residentId, pictures);
    if (check.outcome === 'refused') return refused(messages.imageInappropriate, { [fieldId]: [messages.imageInappropriate] });
    if (check.outcome === 'offline') break;
  }

  // One write per submission on its way: a refused one is taken back before this one is queued
  // (a pending one refused the send above).
  if (state?.sync_state === 'failed' && state.sync_outbox_id) await withdrawUnsentWrite(state.sync_outbox_id);

  const id = state?.outgoing?.id ?? newIdempotencyKey();
  const outboxId = newIdempotencyKey();
  await changeDocumentState(open.db, documentId, (current) => ({
    ...current,
    outgoing: { id, answers, files: answered, queued_at: now.toISOString() },
    errors: null,
    sync_state: 'pending',
    sync_message: null,
    sync_outbox_id: outboxId,
  }));
  try {
    await enqueueWrite({
      method: 'POST',
      path: paths.documentSubmissions.build(documentId),
      ...(parts.length ? { fields: { id, answers: JSON.stringify(plain) }, fileFields: parts } : { json: { id, answers: plain } }),
      idempotencyKey: outboxId,
      local: { collection: 'documents', id: documentStateId(documentId) },
      label: 'Form',
      topics: ['documents'],
      failureMessage: documentTexts.submitFailed,
    });
  } catch {
    await changeDocumentState(open.db, documentId, (current) => ({ ...current, sync_state: 'failed', sync_message: documentTexts.submitFailed, sync_outbox_id: null }));
    return refused(documentTexts.submitFailed);
  }
  return { ok: true, id, queuedOffline: !isOnline() };
}
