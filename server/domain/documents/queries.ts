import type { FastifyInstance } from 'fastify';
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Document, DocumentBlob, DocumentSubmission, GalleryItem } from '../../../src/contract/documents';
import { documentMessages } from '../../../src/contract/documents';
import { paths } from '../../../src/contract/paths';
import { HttpError } from '../../lib/http-errors';
import { applyListQuery, fetchPage, parseListQuery, syncSelect, type ListSpec } from '../../lib/list-query';
import { isoMicros } from '../../lib/timestamps';
import type { SignedIn } from '../../plugins/session';
import { documentReadable } from '../access';
import { personOf } from '../entries/present';

/**
 * Reads of documents (issue 11): `GET /v1/documents` (checkpoint list), one document, under the one
 * access rule (access.ts documentReadable).
 *
 * A row's `updated_at` is the reader's own: the latest of the document's updated_at, the reader's
 * submission's and the time the reader's right to read it last changed (document_access_changes,
 * kept by the triggers of migration 0007). So a checkpoint pull brings a document the reader just
 * gained (moved into the home, audience changed to them) and, with with_trashed=1, a tombstone for
 * one they lost (withdrawn, shared elsewhere, moved out), whose updated_at and deleted_at are the
 * time of the loss and which carries nothing else. Nobody gets a tombstone for a document they could
 * never read. Filters and search_term apply to live rows only: a tombstone has nothing to match.
 */
const d = (column: string) => sql.ref(`d.${column}`);

export const DOCUMENT_SPEC: ListSpec = {
  fields: {
    kind: { expr: d('kind'), type: 'text' },
    category: { expr: d('category'), type: 'text' },
    resident_id: { expr: d('resident_id'), type: 'uuid' },
    home_id: { expr: d('home_id'), type: 'uuid' },
    created_at: { expr: d('created_at'), type: 'timestamp' },
    content_updated_at: { expr: d('content_updated_at'), type: 'timestamp' },
    version: { expr: d('version'), type: 'integer' },
  },
  sorts: {
    title: d('title'),
    category: [d('category'), d('title')],
    kind: d('kind'),
    created_at: d('created_at'),
    content_updated_at: d('content_updated_at'),
  },
  defaultSort: [['content_updated_at', 'desc']],
  relations: [],
  updatedAt: d('sync_updated_at'),
  id: d('id'),
  deletedAt: d('sync_deleted_at'),
};

/** The reader's view of every document they may read, or could read once (tombstone columns). */
function readerRows(app: FastifyInstance, auth: SignedIn) {
  const readable = documentReadable(auth, 'doc');
  return app.db
    .selectFrom('documents as doc')
    .leftJoin('document_access_changes as access', (join) => join.onRef('access.document_id', '=', 'doc.id').on('access.user_id', '=', auth.userId))
    .leftJoin('document_submissions as own', (join) =>
      join
        .onRef('own.document_id', '=', 'doc.id')
        .on('own.deleted_at', 'is', null)
        .on(sql<SqlBool>`own.resident_id in (select r.id from residents r where r.tenant_id = ${auth.tenantId} and r.user_id = ${auth.userId})`),
    )
    .select([
      'doc.id',
      'doc.tenant_id',
      'doc.kind',
      'doc.title',
      'doc.description',
      'doc.category',
      'doc.resident_id',
      'doc.home_id',
      'doc.version',
      'doc.created_at',
      'doc.content_updated_at',
      'doc.creator_id',
      'doc.form_version_id',
      'own.id as own_submission_id',
      sql<Date>`case when ${readable} then greatest(doc.updated_at, access.changed_at, own.updated_at) else access.changed_at end`.as('sync_updated_at'),
      sql<Date | null>`case when ${readable} then doc.deleted_at else access.changed_at end`.as('sync_deleted_at'),
    ])
    .where('doc.tenant_id', '=', auth.tenantId)
    .where((eb) => eb.or([readable, eb('access.user_id', 'is not', null)]));
}

function documentRows(app: FastifyInstance, auth: SignedIn) {
  return app.db
    .selectFrom(readerRows(app, auth).as('d'))
    .innerJoin('users as creator', 'creator.id', 'd.creator_id')
    .leftJoin('user_photos as creator_photo', (join) => join.onRef('creator_photo.user_id', '=', 'creator.id').on('creator_photo.deleted_at', 'is', null))
    .select([
      ...syncSelect(DOCUMENT_SPEC),
      'd.kind',
      'd.title',
      'd.description',
      'd.category',
      'd.resident_id',
      'd.home_id',
      'd.version',
      isoMicros(d('created_at')).as('created_at'),
      isoMicros(d('content_updated_at')).as('content_updated_at'),
      'd.form_version_id',
      'd.own_submission_id',
      'creator.id as creator_id',
      'creator.first_name as creator_first_name',
      'creator.last_name as creator_last_name',
      sql<boolean>`creator_photo.id is not null`.as('creator_has_photo'),
    ]);
}

type DocumentRow = Awaited<ReturnType<ReturnType<typeof documentRows>['execute']>>[number];

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** GET /v1/documents: the list parameters of every list (contract sync.ts), plus `search_term` over title and description. */
export async function listDocuments(app: FastifyInstance, auth: SignedIn, query: unknown) {
  const list = parseListQuery(query, DOCUMENT_SPEC);
  const term = (query as { search_term?: unknown } | undefined)?.search_term;
  const conditions: Expression<SqlBool>[] = [...list.where];
  if (typeof term === 'string' && term.trim() !== '') {
    const like = `%${escapeLike(term.trim())}%`;
    conditions.push(sql<SqlBool>`(d.title ilike ${like} escape '\\' or coalesce(d.description, '') ilike ${like} escape '\\')`);
  }
  let rows = documentRows(app, auth);
  if (conditions.length > 0) rows = rows.where(sql<SqlBool>`(d.sync_deleted_at is not null or (${sql.join(conditions, sql` and `)}))`);
  const page = await fetchPage(app.syncHorizon, list, () => applyListQuery(rows, { ...list, where: [] }, DOCUMENT_SPEC).execute());
  return { ...page, data: await presentDocuments(app, auth, page.data) };
}

/** One live document the signed-in person may read, or 404 "Document not found". */
export async function showDocument(app: FastifyInstance, auth: SignedIn, id: string): Promise<Document> {
  const row = await documentRows(app, auth).where('d.id', '=', id).where('d.sync_deleted_at', 'is', null).executeTakeFirst();
  if (!row) throw new HttpError(404, documentMessages.notFound);
  const [shown] = await presentDocuments(app, auth, [row]);
  return shown!;
}

const NIL_UUID = '00000000-0000-0000-0000-000000000000';
const EPOCH = '1970-01-01T00:00:00.000000Z';

/** A tombstone: the id and the time; neutral placeholders where the contract wants a value. */
function tombstoneOf(row: { id: string; updated_at: string; deleted_at: string | null }): Document {
  return {
    id: row.id,
    updated_at: row.updated_at,
    deleted_at: row.deleted_at ?? row.updated_at,
    kind: 'file',
    title: '',
    description: null,
    category: '',
    resident_id: null,
    home_id: null,
    size: 0,
    mime: null,
    version: 0,
    created_at: EPOCH,
    content_updated_at: EPOCH,
    creator: { id: NIL_UUID, first_name: '', last_name: '', has_photo: false },
    file: null,
    book: null,
    gallery: null,
    form: null,
    submission: null,
  };
}

export const blobPath = (documentId: string, blob: { id: string; role: string }): string =>
  blob.role === 'file' ? paths.documentBlob.build(documentId) : paths.documentItemBlob.build(documentId, blob.id);

const blobOf = (documentId: string, b: { id: string; role: string; name: string; mime: string; size: number }): DocumentBlob => ({
  id: b.id,
  name: b.name,
  mime: b.mime,
  size: b.size,
  blob: blobPath(documentId, b),
});

/** The contract's rows: content for live rows, tombstones for the rest. */
export async function presentDocuments(app: FastifyInstance, auth: SignedIn, rows: DocumentRow[]): Promise<Document[]> {
  const live = rows.filter((r) => r.deleted_at === null);
  const ids = live.map((r) => r.id);
  const none = ids.length === 0;
  const blobs = none
    ? []
    : await app.db
        .selectFrom('document_blobs')
        .select(['id', 'document_id', 'role', 'page_id', 'position', 'caption', 'name', 'mime', 'size'])
        .where('tenant_id', '=', auth.tenantId)
        .where('document_id', 'in', ids)
        .where('role', '!=', 'answer')
        .where('deleted_at', 'is', null)
        .orderBy('position')
        .orderBy('created_at')
        .orderBy('id')
        .execute();
  const chapters = none
    ? []
    : await app.db.selectFrom('document_chapters').select(['id', 'document_id', 'position', 'title']).where('document_id', 'in', ids).orderBy('position').execute();
  const pages = none
    ? []
    : await app.db
        .selectFrom('document_pages')
        .select(['id', 'document_id', 'chapter_id', 'position', 'title', 'html'])
        .where('document_id', 'in', ids)
        .orderBy('position')
        .execute();
  const versionIds = [...new Set(live.flatMap((r) => (r.form_version_id ? [r.form_version_id] : [])))];
  const forms =
    versionIds.length === 0
      ? []
      : await app.db
          .selectFrom('form_versions as fv')
          .innerJoin('forms as form', 'form.id', 'fv.form_id')
          .select(['fv.id', 'fv.form_id', 'fv.version', 'fv.fields', 'form.name', 'form.description'])
          .where('fv.id', 'in', versionIds)
          .execute();
  const submissionIds = live.flatMap((r) => (r.own_submission_id ? [r.own_submission_id] : []));
  const submissions = new Map((await presentSubmissions(app, auth, submissionIds)).map((s) => [s.id, s]));

  return rows.map((r) => {
    if (r.deleted_at !== null) return tombstoneOf(r);
    const mine = blobs.filter((b) => b.document_id === r.id);
    const file = mine.find((b) => b.role === 'file');
    const chapterRows = chapters.filter((c) => c.document_id === r.id);
    const chapterOrder = new Map(chapterRows.map((c) => [c.id, c.position]));
    const pageRows = pages
      .filter((p) => p.document_id === r.id)
      .sort((a, b) => chapterOrder.get(a.chapter_id)! - chapterOrder.get(b.chapter_id)! || a.position - b.position);
    const form = forms.find((f) => f.id === r.form_version_id);
    const galleryItems: GalleryItem[] = mine
      .filter((b) => b.role === 'gallery_item')
      .map((b) => ({ ...blobOf(r.id, b), kind: b.mime.startsWith('video/') ? ('video' as const) : ('image' as const), position: b.position, caption: b.caption }));
    return {
      id: r.id,
      updated_at: r.updated_at,
      deleted_at: null,
      kind: r.kind,
      title: r.title,
      description: r.description,
      category: r.category,
      resident_id: r.resident_id,
      home_id: r.home_id,
      size: mine.reduce((sum, b) => sum + b.size, 0),
      mime: r.kind === 'file' ? (file?.mime ?? null) : null,
      version: r.version,
      created_at: r.created_at,
      content_updated_at: r.content_updated_at,
      creator: personOf(r),
      file: r.kind === 'file' && file ? blobOf(r.id, file) : null,
      book:
        r.kind === 'book'
          ? {
              chapters: chapterRows.map((c) => ({ id: c.id, position: c.position, title: c.title })),
              pages: pageRows.map((p) => ({
                id: p.id,
                chapter_id: p.chapter_id,
                position: p.position,
                title: p.title,
                html: p.html,
                images: mine.filter((b) => b.role === 'page_image' && b.page_id === p.id).map((b) => ({ ...blobOf(r.id, b), alt: b.caption ?? '' })),
              })),
            }
          : null,
      gallery: r.kind === 'gallery' ? { items: galleryItems } : null,
      form: r.kind === 'form' && form ? { form_id: form.form_id, form_version_id: form.id, version: form.version, name: form.name, description: form.description, fields: form.fields } : null,
      submission: r.own_submission_id ? (submissions.get(r.own_submission_id) ?? null) : null,
    };
  });
}

/** Submissions by id as the contract's DocumentSubmission (the caller has checked who may read them). */
export async function presentSubmissions(app: FastifyInstance, auth: SignedIn, ids: string[]): Promise<DocumentSubmission[]> {
  if (ids.length === 0) return [];
  const rows = await app.db
    .selectFrom('document_submissions as sub')
    .innerJoin('users as creator', 'creator.id', 'sub.creator_id')
    .leftJoin('user_photos as creator_photo', (join) => join.onRef('creator_photo.user_id', '=', 'creator.id').on('creator_photo.deleted_at', 'is', null))
    .select([
      'sub.id',
      'sub.document_id',
      'sub.resident_id',
      'sub.form_version_id',
      'sub.answers',
      isoMicros(sql.ref('sub.created_at')).as('submitted_at'),
      'creator.id as creator_id',
      'creator.first_name as creator_first_name',
      'creator.last_name as creator_last_name',
      sql<boolean>`creator_photo.id is not null`.as('creator_has_photo'),
    ])
    .where('sub.tenant_id', '=', auth.tenantId)
    .where('sub.id', 'in', ids)
    .execute();
  const files = await app.db
    .selectFrom('document_blobs')
    .select(['id', 'document_id', 'submission_id', 'role', 'name', 'mime', 'size'])
    .where('tenant_id', '=', auth.tenantId)
    .where('submission_id', 'in', ids)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    return [{
      id: r.id,
      document_id: r.document_id,
      resident_id: r.resident_id,
      form_version_id: r.form_version_id,
      answers: r.answers,
      files: files.filter((f) => f.submission_id === r.id).map((f) => blobOf(r.document_id, f)),
      submitted_at: r.submitted_at,
      creator: personOf(r),
    }];
  });
}

/** A withdrawn document as its tombstone (the staff answer of a withdrawal). */
export const withdrawnRow = (id: string, at: string): Document => tombstoneOf({ id, updated_at: at, deleted_at: at });
