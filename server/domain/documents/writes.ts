import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Transaction } from 'kysely';
import {
  DEFAULT_CATEGORY, documentMessages, documentShareSchema, documentUpdateSchema,
  type Document, type DocumentKind,
} from '../../../src/contract/documents';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import { changedPushMessage, pushUrls } from '../../../src/contract/push';
import type { Database } from '../../db/schema';
import { HttpError } from '../../lib/http-errors';
import { uuidv7 } from '../../lib/uuidv7';
import { fieldErrors } from '../../lib/validate';
import type { SignedIn } from '../../plugins/session';
import { documentReadable, isStaffOf, staffReachableHome, staffReachableResident } from '../access';
import { clientIdOf, createdBefore, isUniqueViolation } from '../entries/writes';
import { latestFormVersion } from '../tasks/forms';
import { Problems } from '../uploads/checks';
import { documentUploads, isImage, isVideo, storeDocumentFiles, type DocumentUpload, type StoredFile } from './files';
import { showDocument, withdrawnRow } from './queries';
import { richTextProblem } from './rich-text';

/**
 * Staff writes of documents (issue 11): share with one young person or a home, update (marks it
 * updated: version + 1), withdraw (a tombstone on every device). Staff of the audience's home only:
 * a young person gets 403 for what they can read and 404 for anything else, like the objectives'
 * staff endpoints. Every write publishes `documents` to the audience (the young people and the
 * home's staff) and pushes a content-free `documents` message to the young people.
 */
type Body = Record<string, unknown>;
const bodyOf = (request: FastifyRequest): Body => (request.body && typeof request.body === 'object' ? (request.body as Body) : {});

interface Audience {
  residentId: string | null;
  homeId: string | null;
}

/** The home a document's audience lives in: the home itself, or the young person's home now. */
async function audienceHome(app: FastifyInstance, audience: Audience): Promise<string | null> {
  if (audience.homeId) return audience.homeId;
  const resident = await app.db.selectFrom('residents').select('home_id').where('id', '=', audience.residentId!).executeTakeFirst();
  return resident?.home_id ?? null;
}

/** Publishes `documents` to everyone of these audiences and pushes to their young people (not to the writer). */
export async function announceDocument(app: FastifyInstance, auth: SignedIn, audiences: Audience[]): Promise<void> {
  const youngPeople = new Set<string>();
  for (const audience of audiences) {
    const homeId = await audienceHome(app, audience);
    app.notifier.publish({ tenantId: auth.tenantId, homeId, residentId: audience.residentId }, ['documents']);
    const residents = await app.db
      .selectFrom('residents')
      .select('user_id')
      .where('tenant_id', '=', auth.tenantId)
      .where('deleted_at', 'is', null)
      .where((eb) => (audience.residentId ? eb('id', '=', audience.residentId) : eb('home_id', '=', audience.homeId!)))
      .execute();
    for (const r of residents) if (r.user_id !== auth.userId) youngPeople.add(r.user_id);
  }
  const message = changedPushMessage({ collections: ['documents'], url: pushUrls.documents }, app.config.productName);
  for (const userId of youngPeople) app.push.toUser({ tenantId: auth.tenantId, userId }, message);
}

/** `resident_id` or `home_id`, exactly one, that the signed-in member of staff works with. */
async function resolveAudience(app: FastifyInstance, auth: SignedIn, input: { resident_id?: string; home_id?: string }): Promise<Audience> {
  if (input.resident_id) return { residentId: (await staffReachableResident(app, auth, input.resident_id)).id, homeId: null };
  return { residentId: null, homeId: await staffReachableHome(app, auth, input.home_id!) };
}

function audienceProblems(problems: Problems, input: { resident_id?: string; home_id?: string }, required: boolean) {
  if (input.resident_id && input.home_id) problems.add('resident_id', documentMessages.audienceBoth);
  else if (required && !input.resident_id && !input.home_id) problems.add('resident_id', documentMessages.audienceRequired);
}

interface BookImage {
  /** Kept: the id of a picture already on the document. */
  id?: string;
  file?: string;
  alt: string;
}
interface BookPlan {
  chapters: { id?: string; title: string; pages: { id?: string; title: string; html: string; images: BookImage[] }[] }[];
}
interface GalleryPlan {
  items: { id?: string; file?: string; caption?: string | null }[];
}

interface Existing {
  chapters: Set<string>;
  pages: Set<string>;
  images: Map<string, { storage_key: string }>;
  items: Map<string, { storage_key: string; caption: string | null }>;
  file: { id: string; storage_key: string } | null;
}

const NOTHING: Existing = { chapters: new Set(), pages: new Set(), images: new Map(), items: new Map(), file: null };

/**
 * The parts of a book or a gallery: every page's HTML passes the rich-text check; a picture or an
 * item is a part sent now (`file`: images only for pages, images or video for galleries) or one
 * already on the document (`id`); ids sent are this document's own; every part sent is used.
 */
function checkStructure(problems: Problems, kind: DocumentKind, book: BookPlan | undefined, gallery: GalleryPlan | undefined, keyed: Map<string, DocumentUpload>, existing: Existing) {
  const used = new Set<string>();
  const seen = new Set<string>();
  const once = (key: string, id: string | undefined) => {
    if (!id) return;
    if (seen.has(id)) problems.add(key, documentMessages.duplicateId);
    seen.add(id);
  };
  const fileOf = (key: string, ref: { id?: string; file?: string }, known: Map<string, unknown>, fits: (mime: string) => boolean, wrong: string) => {
    if (ref.id && ref.file) return problems.add(key, documentMessages.itemNeedsFile);
    if (ref.id) {
      if (!known.has(ref.id)) problems.add(`${key}.id`, documentMessages.notOnDocument);
      return once(`${key}.id`, ref.id);
    }
    if (!ref.file) return problems.add(key, documentMessages.itemNeedsFile);
    const upload = keyed.get(ref.file);
    if (!upload) return problems.add(`${key}.file`, documentMessages.fileNotSent);
    if (used.has(ref.file)) return problems.add(`${key}.file`, documentMessages.duplicateId);
    used.add(ref.file);
    if (!fits(upload.mime)) problems.add(`${key}.file`, wrong);
  };
  if (kind === 'book' && book) {
    book.chapters.forEach((chapter, c) => {
      if (chapter.id && !existing.chapters.has(chapter.id)) problems.add(`book.chapters.${c}.id`, documentMessages.notOnDocument);
      once(`book.chapters.${c}.id`, chapter.id);
      chapter.pages.forEach((page, p) => {
        const at = `book.chapters.${c}.pages.${p}`;
        if (page.id && !existing.pages.has(page.id)) problems.add(`${at}.id`, documentMessages.notOnDocument);
        once(`${at}.id`, page.id);
        const html = richTextProblem(page.html);
        if (html) problems.add(`${at}.html`, html);
        page.images.forEach((image, i) => fileOf(`${at}.images.${i}`, image, existing.images, isImage, documentMessages.notAnImage));
      });
    });
  }
  if (kind === 'gallery' && gallery) {
    gallery.items.forEach((item, i) => fileOf(`items.${i}`, item, existing.items, (m) => isImage(m) || isVideo(m), documentMessages.notImageOrVideo));
  }
  for (const key of keyed.keys()) if (!used.has(key)) problems.add(`files.${key}`, documentMessages.unexpectedFile);
}

/** Rows of a book's structure and of its new pictures, or of a gallery's new items; kept ones are re-pointed. */
async function writeStructure(
  tx: Transaction<Database>,
  tenantId: string,
  documentId: string,
  kind: DocumentKind,
  plan: { book?: BookPlan; gallery?: GalleryPlan },
  stored: Map<string, StoredFile>,
  existing: Existing,
) {
  const blob = (file: StoredFile, extra: { role: 'page_image' | 'gallery_item'; page_id?: string; position: number; caption: string | null }) => ({
    id: file.id,
    tenant_id: tenantId,
    document_id: documentId,
    role: extra.role,
    page_id: extra.page_id ?? null,
    position: extra.position,
    caption: extra.caption,
    name: file.name,
    mime: file.mime,
    size: file.size,
    sha256: file.sha256,
    storage_key: file.storage_key,
  });
  const kept = new Set<string>();
  if (kind === 'book' && plan.book) {
    await tx.deleteFrom('document_pages').where('document_id', '=', documentId).execute();
    await tx.deleteFrom('document_chapters').where('document_id', '=', documentId).execute();
    for (const [c, chapter] of plan.book.chapters.entries()) {
      const chapterId = chapter.id ?? uuidv7();
      await tx.insertInto('document_chapters').values({ id: chapterId, tenant_id: tenantId, document_id: documentId, position: c, title: chapter.title }).execute();
      for (const [p, page] of chapter.pages.entries()) {
        const pageId = page.id ?? uuidv7();
        await tx.insertInto('document_pages').values({ id: pageId, tenant_id: tenantId, document_id: documentId, chapter_id: chapterId, position: p, title: page.title, html: page.html }).execute();
        for (const [i, image] of page.images.entries()) {
          if (image.id) {
            kept.add(image.id);
            await tx.updateTable('document_blobs').set({ page_id: pageId, position: i, caption: image.alt }).where('id', '=', image.id).execute();
          } else {
            await tx.insertInto('document_blobs').values(blob(stored.get(image.file!)!, { role: 'page_image', page_id: pageId, position: i, caption: image.alt })).execute();
          }
        }
      }
    }
    return [...existing.images.keys()].filter((id) => !kept.has(id));
  }
  if (kind === 'gallery' && plan.gallery) {
    for (const [i, item] of plan.gallery.items.entries()) {
      if (item.id) {
        kept.add(item.id);
        const caption = item.caption === undefined ? existing.items.get(item.id)!.caption : item.caption || null;
        await tx.updateTable('document_blobs').set({ position: i, caption }).where('id', '=', item.id).execute();
      } else {
        await tx.insertInto('document_blobs').values(blob(stored.get(item.file!)!, { role: 'gallery_item', position: i, caption: item.caption || null })).execute();
      }
    }
    return [...existing.items.keys()].filter((id) => !kept.has(id));
  }
  return [];
}

/** The new files a book or gallery references (in order of first use), plus the `file` part. */
function filesToStore(kind: DocumentKind, plan: { book?: BookPlan; gallery?: GalleryPlan }, keyed: Map<string, DocumentUpload>, file: DocumentUpload | null) {
  const keys: string[] = [];
  if (kind === 'book' && plan.book) for (const c of plan.book.chapters) for (const p of c.pages) for (const i of p.images) if (i.file) keys.push(i.file);
  if (kind === 'gallery' && plan.gallery) for (const item of plan.gallery.items) if (item.file) keys.push(item.file);
  const uploads = keys.map((k) => keyed.get(k)!);
  return kind === 'file' && file ? [file, ...uploads] : uploads;
}

async function softDeleteBlobs(tx: Transaction<Database>, ids: string[]) {
  if (ids.length > 0) await tx.updateTable('document_blobs').set({ deleted_at: sql`now()` }).where('id', 'in', ids).execute();
}

async function removeBytes(app: FastifyInstance, tenantId: string, keys: string[]) {
  for (const key of keys) await app.fileStore.remove(tenantId, key);
}

/**
 * Staff: POST /v1/documents. The client's `id` names the document (sent again by the same person:
 * the document as it is now; anyone else's row: 422 `id`).
 */
export async function shareDocument(app: FastifyInstance, auth: SignedIn, request: FastifyRequest): Promise<Document> {
  const body = bodyOf(request);
  const clientId = clientIdOf(body);
  const again = () => (clientId ? createdBefore(app.db, auth, 'documents', clientId, () => showDocument(app, auth, clientId)) : Promise.resolve(null));
  const before = await again();
  if (before) return before;

  const problems = new Problems();
  const parsed = documentShareSchema.safeParse(body);
  if (!parsed.success) problems.merge(fieldErrors(parsed.error));
  const kind = parsed.success ? parsed.data.kind : undefined;
  // File problems are reported with the rest, after the audience is known to be theirs (403/404 first).
  const fileProblems = new Problems();
  const { file, keyed } = documentUploads(request, fileProblems, { single: kind === 'file', keyed: kind === 'book' || kind === 'gallery' });
  if (!parsed.success) problems.merge(fileProblems.errors);
  problems.throwIfAny();
  const input = parsed.data!;
  audienceProblems(problems, input, true);
  problems.throwIfAny();
  const audience = await resolveAudience(app, auth, input);
  problems.merge(fileProblems.errors);

  const plan = { book: input.book as BookPlan | undefined, gallery: input.items ? ({ items: input.items } as GalleryPlan) : undefined };
  let formVersionId: string | null = null;
  let formId: string | null = null;
  if (input.kind === 'file' && !file && !problems.errors.file) problems.add('file', documentMessages.fileRequired);
  if (input.kind === 'book' && !plan.book) problems.add('book', documentMessages.bookRequired);
  if (input.kind === 'gallery' && !plan.gallery) problems.add('items', documentMessages.galleryRequired);
  if (input.kind === 'form') {
    const version = input.form_id ? await latestFormVersion(app.db, auth.tenantId, input.form_id) : undefined;
    if (!version) problems.add('form_id', documentMessages.formRequired);
    else [formId, formVersionId] = [input.form_id!, version.id];
  }
  checkStructure(problems, input.kind, plan.book, plan.gallery, keyed, NOTHING);
  problems.throwIfAny();

  const uploads = filesToStore(input.kind, plan, keyed, file);
  const { stored, cleanup } = await storeDocumentFiles(app, auth.tenantId, uploads);
  const byKey = new Map(uploads.map((u, i) => [u.key, stored[i]!]));
  let id: string;
  try {
    id = await app.db.transaction().execute(async (tx) => {
      const row = await tx
        .insertInto('documents')
        .values({
          ...(clientId ? { id: clientId } : {}),
          tenant_id: auth.tenantId,
          resident_id: audience.residentId,
          home_id: audience.homeId,
          kind: input.kind,
          title: input.title,
          description: input.description || null,
          category: input.category || DEFAULT_CATEGORY,
          form_id: formId,
          form_version_id: formVersionId,
          creator_id: auth.userId,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const main = byKey.get('file');
      if (input.kind === 'file' && main) {
        await tx.insertInto('document_blobs').values({ id: main.id, tenant_id: auth.tenantId, document_id: row.id, role: 'file', name: main.name, mime: main.mime, size: main.size, sha256: main.sha256, storage_key: main.storage_key }).execute();
      }
      await writeStructure(tx, auth.tenantId, row.id, input.kind, plan, byKey, NOTHING);
      return row.id;
    });
  } catch (error) {
    await cleanup();
    if (clientId && isUniqueViolation(error)) {
      const created = await again();
      if (created) return created;
    }
    throw error;
  }
  await announceDocument(app, auth, [audience]);
  return showDocument(app, auth, id);
}

/** A live or withdrawn document the signed-in person may read and manage (staff of its home), else 404 / 403. */
async function managedDocument(app: FastifyInstance, auth: SignedIn, id: string) {
  const doc = await app.db
    .selectFrom('documents as doc')
    .select(['doc.id', 'doc.kind', 'doc.resident_id', 'doc.home_id', 'doc.deleted_at', 'doc.form_id'])
    .where('doc.id', '=', id)
    .where(documentReadable(auth, 'doc'))
    .executeTakeFirst();
  if (!doc) throw new HttpError(404, documentMessages.notFound);
  const home = await audienceHome(app, { residentId: doc.resident_id, homeId: doc.home_id });
  if (!home || !(await isStaffOf(app, auth, home))) throw new HttpError(403, chosen.forbidden);
  return doc;
}

/**
 * Staff: POST /v1/documents/{id}?_method=PUT. Only what is sent changes; the version goes up and
 * content_updated_at moves, so every reader's device marks it updated. Moving the audience tells the
 * old audience's devices to drop it (migration 0007's trigger records the change of access).
 */
export async function updateDocument(app: FastifyInstance, auth: SignedIn, id: string, request: FastifyRequest): Promise<Document> {
  const doc = await managedDocument(app, auth, id);
  if (doc.deleted_at) throw new HttpError(404, documentMessages.notFound);
  const body = bodyOf(request);
  const problems = new Problems();
  const parsed = documentUpdateSchema.safeParse(body);
  if (!parsed.success) problems.merge(fieldErrors(parsed.error));
  const fileProblems = new Problems();
  const { file, keyed } = documentUploads(request, fileProblems, { single: doc.kind === 'file', keyed: doc.kind === 'book' || doc.kind === 'gallery' });
  if (!parsed.success) problems.merge(fileProblems.errors);
  problems.throwIfAny();
  const input = parsed.data!;
  if (input.kind && input.kind !== doc.kind) problems.add('kind', documentMessages.kindFixed);
  audienceProblems(problems, input, false);
  problems.throwIfAny();
  const before: Audience = { residentId: doc.resident_id, homeId: doc.home_id };
  const moved = input.resident_id || input.home_id ? await resolveAudience(app, auth, input) : null;
  problems.merge(fileProblems.errors);

  const blobs = await app.db
    .selectFrom('document_blobs')
    .select(['id', 'role', 'storage_key', 'caption'])
    .where('document_id', '=', doc.id)
    .where('role', '!=', 'answer')
    .where('deleted_at', 'is', null)
    .execute();
  const existing: Existing = {
    chapters: new Set((await app.db.selectFrom('document_chapters').select('id').where('document_id', '=', doc.id).execute()).map((c) => c.id)),
    pages: new Set((await app.db.selectFrom('document_pages').select('id').where('document_id', '=', doc.id).execute()).map((p) => p.id)),
    images: new Map(blobs.filter((b) => b.role === 'page_image').map((b) => [b.id, b])),
    items: new Map(blobs.filter((b) => b.role === 'gallery_item').map((b) => [b.id, b])),
    file: blobs.find((b) => b.role === 'file') ?? null,
  };
  const plan = { book: input.book as BookPlan | undefined, gallery: input.items ? ({ items: input.items } as GalleryPlan) : undefined };
  let formVersion: { formId: string; versionId: string } | null = null;
  if (doc.kind === 'form' && input.form_id) {
    const version = await latestFormVersion(app.db, auth.tenantId, input.form_id);
    if (!version) problems.add('form_id', documentMessages.formRequired);
    else formVersion = { formId: input.form_id, versionId: version.id };
  }
  checkStructure(problems, doc.kind, plan.book, plan.gallery, keyed, existing);
  problems.throwIfAny();

  const uploads = filesToStore(doc.kind, plan, keyed, file);
  const { stored, cleanup } = await storeDocumentFiles(app, auth.tenantId, uploads);
  const byKey = new Map(uploads.map((u, i) => [u.key, stored[i]!]));
  let dropped: string[] = [];
  try {
    dropped = await app.db.transaction().execute(async (tx) => {
      const locked = await tx.selectFrom('documents').select(['id', 'deleted_at']).where('id', '=', doc.id).forUpdate().executeTakeFirstOrThrow();
      if (locked.deleted_at) throw new HttpError(404, documentMessages.notFound);
      await tx
        .updateTable('documents')
        .set({
          ...(input.title !== undefined ? { title: input.title } : {}),
          ...(input.description !== undefined ? { description: input.description || null } : {}),
          ...(input.category !== undefined ? { category: input.category || DEFAULT_CATEGORY } : {}),
          ...(moved ? { resident_id: moved.residentId, home_id: moved.homeId } : {}),
          ...(formVersion ? { form_id: formVersion.formId, form_version_id: formVersion.versionId } : {}),
          version: sql`version + 1`,
          content_updated_at: sql`now()`,
          updated_at: sql`now()`,
        })
        .where('id', '=', doc.id)
        .execute();
      const gone = await writeStructure(tx, auth.tenantId, doc.id, doc.kind, plan, byKey, existing);
      const main = byKey.get('file');
      if (doc.kind === 'file' && main) {
        await tx.insertInto('document_blobs').values({ id: main.id, tenant_id: auth.tenantId, document_id: doc.id, role: 'file', name: main.name, mime: main.mime, size: main.size, sha256: main.sha256, storage_key: main.storage_key }).execute();
        if (existing.file) gone.push(existing.file.id);
      }
      await softDeleteBlobs(tx, gone);
      return gone;
    });
  } catch (error) {
    await cleanup();
    throw error;
  }
  const keys = new Map(blobs.map((b) => [b.id, b.storage_key]));
  await removeBytes(app, auth.tenantId, dropped.map((blobId) => keys.get(blobId)!));
  await announceDocument(app, auth, moved ? [before, moved] : [before]);
  return showDocument(app, auth, doc.id);
}

/**
 * Staff: DELETE /v1/documents/{id}. The document becomes a tombstone for everyone who could read it;
 * its files are deleted (the young people's submissions and their files stay, readable by staff).
 * Withdrawing again answers the same tombstone.
 */
export async function withdrawDocument(app: FastifyInstance, auth: SignedIn, id: string): Promise<Document> {
  const doc = await managedDocument(app, auth, id);
  if (doc.deleted_at) {
    const row = await app.db.selectFrom('documents').select([sql<string>`to_char(deleted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('at')]).where('id', '=', doc.id).executeTakeFirstOrThrow();
    return withdrawnRow(doc.id, row.at);
  }
  const dropped = await app.db.transaction().execute(async (tx) => {
    await tx.updateTable('documents').set({ deleted_at: sql`now()`, updated_at: sql`now()` }).where('id', '=', doc.id).where('deleted_at', 'is', null).execute();
    const blobs = await tx
      .updateTable('document_blobs')
      .set({ deleted_at: sql`now()` })
      .where('document_id', '=', doc.id)
      .where('role', '!=', 'answer')
      .where('deleted_at', 'is', null)
      .returning('storage_key')
      .execute();
    return blobs.map((b) => b.storage_key);
  });
  await removeBytes(app, auth.tenantId, dropped);
  await announceDocument(app, auth, [{ residentId: doc.resident_id, homeId: doc.home_id }]);
  return withdrawDocument(app, auth, id);
}
