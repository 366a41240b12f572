import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { documentMessages } from '../../../src/contract/documents';
import { allowedDocumentType, type DocumentMime } from '../../../src/contract/file-type';
import { uuidv7 } from '../../lib/uuidv7';
import { sanitiseName, type Problems } from '../uploads/checks';
import { uploadedFiles } from '../uploads/form-fields';

/**
 * The files of a document request, checked by content (magic bytes, and UTF-8 without markup for
 * text) and by the name's extension (contract file-type.ts DOCUMENT_FILE_TYPES), and stored
 * outside the database like entry files, with their SHA-256 (the blobs' ETag).
 */
export interface DocumentUpload {
  /** The part: `file`, or the key of `files[<key>]`. */
  key: string;
  name: string;
  mime: DocumentMime;
  data: Buffer;
}

export const isImage = (mime: string) => mime.startsWith('image/');
export const isVideo = (mime: string) => mime.startsWith('video/');

const FILES_PART = /^files\[([A-Za-z0-9_.-]{1,60})\]$/;

/**
 * The request's parts: `file` (when `single`) and `files[<key>]`, each of an allowed document type
 * (else "File type not allowed" on `file` or `files.<key>`); any other part is refused.
 */
export function documentUploads(request: FastifyRequest, problems: Problems, options: { single: boolean; keyed: boolean }) {
  let file: DocumentUpload | null = null;
  const keyed = new Map<string, DocumentUpload>();
  for (const upload of uploadedFiles(request)) {
    const match = FILES_PART.exec(upload.field);
    const field = match ? `files.${match[1]}` : upload.field;
    if (!(upload.field === 'file' && options.single) && !(match && options.keyed)) {
      problems.add(field, documentMessages.unexpectedFile);
      continue;
    }
    if ((match && keyed.has(match[1]!)) || (!match && file)) {
      problems.add(field, documentMessages.duplicateId);
      continue;
    }
    const mime = allowedDocumentType(upload.data, upload.filename);
    if (!mime) {
      problems.add(field, documentMessages.fileTypeNotAllowed);
      continue;
    }
    const checked = { key: match ? match[1]! : 'file', name: sanitiseName(upload.filename), mime, data: upload.data };
    if (match) keyed.set(match[1]!, checked);
    else file = checked;
  }
  return { file, keyed };
}

export interface StoredFile {
  id: string;
  name: string;
  mime: string;
  size: number;
  sha256: string;
  storage_key: string;
}

/** Writes the bytes; `cleanup` removes them again (the transaction failed). */
export async function storeDocumentFiles(app: FastifyInstance, tenantId: string, files: { name: string; mime: string; data: Buffer }[]) {
  const stored: StoredFile[] = [];
  try {
    for (const file of files) {
      stored.push({
        id: uuidv7(),
        name: file.name,
        mime: file.mime,
        size: file.data.length,
        sha256: createHash('sha256').update(file.data).digest('hex'),
        storage_key: await app.fileStore.write(tenantId, file.data),
      });
    }
  } catch (error) {
    for (const s of stored) await app.fileStore.remove(tenantId, s.storage_key);
    throw error;
  }
  return {
    stored,
    cleanup: async () => {
      for (const s of stored) await app.fileStore.remove(tenantId, s.storage_key);
    },
  };
}
