import type { FastifyInstance } from 'fastify';
import { documentMessages } from '../../../src/contract/documents';
import { HttpError } from '../../lib/http-errors';
import type { SignedIn } from '../../plugins/session';
import { documentReadable, documentSubmissionReadable } from '../access';

/**
 * Which stored file a blob path names, under the one access rule (SPEC §7 "any document path as a
 * blob"): `GET /v1/documents/{id}/blob` is the file of a `file` document; `.../items/{itemId}/blob`
 * any other file of the document: a page's picture, a gallery item, or a file answer of a
 * submission. Document files: whoever may read the live document. File answers: the young person
 * who sent them and the staff of their home (also after the document was withdrawn, for staff).
 * Everything else, another young person of the same home included, is a 404.
 */
export interface ReadableBlob {
  id: string;
  name: string;
  mime: string;
  size: number;
  sha256: string;
  storage_key: string;
  created_at: Date;
}

export async function readableBlob(app: FastifyInstance, auth: SignedIn, documentId: string, itemId: string | null): Promise<ReadableBlob> {
  const notFound = new HttpError(404, documentMessages.notFound);
  let query = app.db
    .selectFrom('document_blobs as blob')
    .innerJoin('documents as doc', 'doc.id', 'blob.document_id')
    .leftJoin('document_submissions as sub', 'sub.id', 'blob.submission_id')
    .leftJoin('residents as submitter', 'submitter.id', 'sub.resident_id')
    .select(['blob.id', 'blob.role', 'blob.name', 'blob.mime', 'blob.size', 'blob.sha256', 'blob.storage_key', 'blob.created_at', 'doc.deleted_at as withdrawn_at', 'sub.deleted_at as submission_deleted_at', 'submitter.user_id as submitter_user_id'])
    .where('blob.tenant_id', '=', auth.tenantId)
    .where('blob.document_id', '=', documentId)
    .where('blob.deleted_at', 'is', null)
    .where(documentReadable(auth, 'doc'));
  query = itemId === null ? query.where('blob.role', '=', 'file') : query.where('blob.id', '=', itemId).where('blob.role', '!=', 'file');
  const row = await query.executeTakeFirst();
  if (!row) throw notFound;
  if (row.role === 'answer') {
    if (row.submission_deleted_at) throw notFound;
    const readable = await app.db
      .selectFrom('document_submissions as sub')
      .innerJoin('documents as doc', 'doc.id', 'sub.document_id')
      .innerJoin('document_blobs as blob', 'blob.submission_id', 'sub.id')
      .select('sub.id')
      .where('blob.id', '=', row.id)
      .where(documentSubmissionReadable(auth))
      .executeTakeFirst();
    if (!readable) throw notFound;
    // A withdrawn document's answers stay readable for staff, never for the young person.
    if (row.withdrawn_at && row.submitter_user_id === auth.userId) throw notFound;
  } else if (row.withdrawn_at) {
    throw notFound;
  }
  return { id: row.id, name: row.name, mime: row.mime, size: row.size, sha256: row.sha256, storage_key: row.storage_key, created_at: row.created_at };
}
