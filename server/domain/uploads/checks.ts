import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FieldErrors } from '../../../src/contract/envelope';
import { entryLimits, entryMessages } from '../../../src/contract/entries';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import { allowedFileType, sniffBytes } from '../../../src/contract/file-type';
import { HttpError } from '../../lib/http-errors';
import { ClassifierUnavailableError, isInappropriate, type ClassifyResult } from '../../lib/image-classifier';
import { uuidv7 } from '../../lib/uuidv7';
import type { FileEntryType } from '../../db/schema';
import { uploadedFiles, type UploadedFile } from './form-fields';
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
      const mime = allowedFileType(upload.data, upload.filename);
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
  if (sniffBytes(upload.data) !== 'image/png') problems.add('canvas', entryMessages.fileTypeNotAllowed);
  if (upload.data.length > entryLimits.canvasMaxBytes) problems.add('canvas', `The drawing can be up to ${entryLimits.canvasMaxBytes / 1024 / 1024} MB`);
}

/** 503 while the image classifier cannot answer: the client retries after 30 s. */
export const imageCheckUnavailable = () =>
  new HttpError(503, 'The image check is not available right now. Please try again.', undefined, { 'Retry-After': '30' });

/**
 * The image check on every image given (attachments and the drawing, `index` -1), with the young
 * person's sensitivity; every image is looked at, none is stored unchecked. A flagged image is a
 * 422 "Image added is inappropriate" on `files` and `files.N`, or on `canvas` for the drawing; an
 * image the server cannot decode (corrupt, truncated, over the pixel limit) is refused the same way
 * with "File type not allowed" (docs/decisions.md); a classifier that is down or too slow is a 503
 * the client retries. All of a request's images are sent to the classifier at once (its pool of
 * workers checks them in parallel); the answers are read in the files' order.
 */
export async function checkImages(app: FastifyInstance, files: CheckedFile[], sensitivity: 'low' | 'medium' | 'high', problems: Problems) {
  const images = files.filter((file) => isImageMime(file.mime));
  const outcomes = await Promise.allSettled(images.map((file) => app.imageClassifier.classify(file.data, file.mime)));
  for (const outcome of outcomes) {
    if (outcome.status === 'fulfilled') continue;
    const error: unknown = outcome.reason;
    if (error instanceof ClassifierUnavailableError) {
      app.log.warn({ err: error }, 'image check unavailable');
      throw imageCheckUnavailable();
    }
    throw error;
  }
  images.forEach((file, i) => {
    const result = (outcomes[i] as PromiseFulfilledResult<ClassifyResult>).value;
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
  });
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

/** A display name: no path, no control or quote characters, at most 120 characters. */
export function sanitiseName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.normalize('NFC').replace(/[\u0000-\u001f\u007f"<>|*?:]/g, '').replace(/^\.+/, '').trim();
  if (!clean) return 'file';
  if (clean.length <= 120) return clean;
  const dot = clean.lastIndexOf('.');
  const ext = dot > 0 && clean.length - dot <= 10 ? clean.slice(dot) : '';
  return clean.slice(0, 120 - ext.length) + ext;
}

export const isImageMime = (mime: string): boolean => mime.startsWith('image/');
