import { z } from 'zod';
import { clientIdSchema } from './entries';
import { envelope } from './envelope';
import { answersSchema } from './forms';
import { chosenMessages } from './messages';
import { personSchema } from './residents';
import { pageSchema, syncedRowSchema, timestampSchema } from './sync';
import { parseJsonText } from './json-text';
import { isSavableText } from './text';
import { groupDigits } from './group-digits';

/**
 * Documents staff share with one young person or with their whole home (SPEC §1 "Documents shared
 * by staff", §3 books with pages, a table of contents and media galleries, §7 `GET /v1/documents`
 * and "any document path as a blob"; issue 11). Four kinds:
 * - `file`: one file (PDF, image, short video, audio, plain text: file-type.ts DOCUMENT_FILE_TYPES);
 * - `book`: chapters in order, each with pages in order (a title, rich text as HTML, pictures);
 * - `gallery`: pictures and short videos in order, each with a caption;
 * - `form`: a form definition (the objectives' form tables) the young person fills in once.
 * Every byte is read from a blob path (`blob`, below the API base) with range requests.
 */
export const DOCUMENT_KINDS = ['file', 'book', 'gallery', 'form'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

export const documentLimits = {
  titleMaxLength: 200,
  descriptionMaxLength: 2000,
  categoryMaxLength: 60,
  captionMaxLength: 500,
  chapterTitleMaxLength: 200,
  pageTitleMaxLength: 200,
  /** One page's HTML, in characters. */
  pageHtmlMaxLength: 50_000,
  maxChapters: 50,
  maxPages: 300,
  maxPageImages: 10,
  maxGalleryItems: 60,
  /** One file of a document (a short video fits). */
  maxFileBytes: 20 * 1024 * 1024,
  /** All the files of one request together. */
  maxRequestBytes: 60 * 1024 * 1024,
  /** File parts in one request. */
  maxFileParts: 60,
  /** A JSON body, or one text field of a form (a book's `book`), in bytes. */
  maxTextBytes: 4 * 1024 * 1024,
} as const;

export const DEFAULT_CATEGORY = 'General';

export const documentMessages = {
  notFound: 'Document not found',
  titleRequired: 'Please give the document a title',
  titleTooLong: `The title can be up to ${documentLimits.titleMaxLength} characters`,
  descriptionTooLong: `The description can be up to ${groupDigits(documentLimits.descriptionMaxLength)} characters`,
  categoryTooLong: `The category can be up to ${documentLimits.categoryMaxLength} characters`,
  kindRequired: 'Please choose what kind of document this is',
  kindFixed: 'A document keeps its kind: share a new document instead',
  audienceRequired: 'Please choose one young person or one home',
  audienceBoth: 'Share with one young person or one home, not both',
  fileRequired: 'Please choose the file to share',
  fileTooLarge: `Each file can be up to ${documentLimits.maxFileBytes / 1024 / 1024} MB`,
  requestTooLarge: `All the files together can be up to ${documentLimits.maxRequestBytes / 1024 / 1024} MB`,
  fileTypeNotAllowed: 'File type not allowed',
  notAnImage: 'Choose a photo or a picture',
  notImageOrVideo: 'Choose a photo, a picture or a short video',
  fileNotSent: 'This file was not sent with the document',
  notOnDocument: 'This file is not on this document',
  unexpectedFile: 'This file was not expected',
  formRequired: 'Please choose a form',
  bookRequired: 'A book needs at least one chapter',
  chapterNeedsPages: 'A chapter needs at least one page',
  chapterTitleRequired: 'Please give the chapter a title',
  pageTitleRequired: 'Please give the page a title',
  pageHtmlTooLong: `A page can be up to ${groupDigits(documentLimits.pageHtmlMaxLength)} characters of HTML`,
  tooManyChapters: `A book can have up to ${documentLimits.maxChapters} chapters`,
  tooManyPages: `A book can have up to ${documentLimits.maxPages} pages`,
  tooManyImages: `A page can have up to ${documentLimits.maxPageImages} pictures`,
  altRequired: 'Please describe the picture for people who cannot see it',
  galleryRequired: 'A gallery needs at least one picture or video',
  tooManyItems: `A gallery can have up to ${documentLimits.maxGalleryItems} pictures and videos`,
  captionTooLong: `A caption can be up to ${documentLimits.captionMaxLength} characters`,
  itemNeedsFile: 'Each item needs a new file or the id of one already there',
  duplicateId: 'This id is used twice',
  notJson: 'This must be JSON',
  alreadySubmitted: 'You have already sent this form',
  notAForm: 'Only a form can be filled in',
  onlyYoungPerson: 'Only the young person can fill in this form',
  withdrawn: 'Document withdrawn',
} as const;

/** One stored file of a document: `blob` is its path below the API base (GET, range requests). */
export const documentBlobSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  mime: z.string(),
  size: z.number().int().min(0),
  blob: z.string(),
});
export type DocumentBlob = z.infer<typeof documentBlobSchema>;

export const bookChapterSchema = z.object({ id: z.uuid(), position: z.number().int(), title: z.string() });
export const bookPageImageSchema = documentBlobSchema.extend({ alt: z.string() });
export const bookPageSchema = z.object({
  id: z.uuid(),
  chapter_id: z.uuid(),
  /** The page's place in its chapter (0, 1...). Pages come in reading order: chapter, then page. */
  position: z.number().int(),
  title: z.string(),
  /** Rich text from staff, checked on the way in (docs/decisions.md); the PWA still sanitises it. */
  html: z.string(),
  /** The page's pictures, shown with the text (HTML never holds `<img>`), each with alt text. */
  images: z.array(bookPageImageSchema),
});
export type BookPage = z.infer<typeof bookPageSchema>;
export const bookSchema = z.object({ chapters: z.array(bookChapterSchema), pages: z.array(bookPageSchema) });

export const galleryItemSchema = documentBlobSchema.extend({
  kind: z.enum(['image', 'video']),
  position: z.number().int(),
  caption: z.string().nullable(),
});
export type GalleryItem = z.infer<typeof galleryItemSchema>;

/** A form document: the form and the definition (version) the young person fills in. */
export const documentFormSchema = z.object({
  form_id: z.uuid(),
  form_version_id: z.uuid(),
  version: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  fields: z.array(z.unknown()),
});

/** A young person's answers to a form document (once per young person and document). */
export const documentSubmissionSchema = z.object({
  id: z.uuid(),
  document_id: z.uuid(),
  resident_id: z.uuid(),
  form_version_id: z.uuid(),
  answers: answersSchema,
  /** The file answers (image, signature, embedded files): `{ file_id }` is one of these ids. */
  files: z.array(documentBlobSchema),
  submitted_at: timestampSchema,
  creator: personSchema,
});
export type DocumentSubmission = z.infer<typeof documentSubmissionSchema>;

/**
 * One row of `GET /v1/documents`. `updated_at` is the reader's: it moves when the document changes,
 * when the reader's own submission changes, and when the reader gains or loses access. A withdrawn
 * document, or one the reader can no longer read, is a tombstone (`deleted_at`, with_trashed=1):
 * its id and the time, with neutral placeholders and no content.
 * `version` counts staff changes (1 when shared) and `content_updated_at` is when staff last changed
 * it: a client marks a document "new" until opened and "updated" when `version` passed the one opened.
 */
export const documentSchema = syncedRowSchema.extend({
  kind: z.enum(DOCUMENT_KINDS),
  title: z.string(),
  description: z.string().nullable(),
  category: z.string(),
  /** Shared with one young person (resident_id) or with a whole home (home_id); exactly one is set. */
  resident_id: z.uuid().nullable(),
  home_id: z.uuid().nullable(),
  /** Bytes of every file of the document together (what keeping it offline costs). */
  size: z.number().int().min(0),
  /** The file's type (kind `file`), else null. */
  mime: z.string().nullable(),
  version: z.number().int().min(0),
  created_at: timestampSchema,
  content_updated_at: timestampSchema,
  creator: personSchema,
  file: documentBlobSchema.nullable(),
  book: bookSchema.nullable(),
  gallery: z.object({ items: z.array(galleryItemSchema) }).nullable(),
  form: documentFormSchema.nullable(),
  /** The signed-in young person's own submission of a form document; null otherwise (staff: null). */
  submission: documentSubmissionSchema.nullable(),
});
export type Document = z.infer<typeof documentSchema>;
export const documentPageSchema = pageSchema(documentSchema);
export const documentResponseSchema = envelope(documentSchema);

/** Staff: GET /v1/documents/{id}/submissions (a checkpoint list). */
export const documentSubmissionRowSchema = syncedRowSchema.extend(documentSubmissionSchema.omit({ id: true }).shape).extend({
  form_version: z.object({ id: z.uuid(), version: z.number().int(), fields: z.array(z.unknown()) }),
});
export type DocumentSubmissionRow = z.infer<typeof documentSubmissionRowSchema>;
export const documentSubmissionPageSchema = pageSchema(documentSubmissionRowSchema);
export const documentSubmissionResponseSchema = envelope(documentSubmissionSchema);

export const documentItemParamsSchema = z.object({ id: z.uuid(), itemId: z.uuid() });

/** Whether every string (and key) in a parsed JSON value can be stored (contract text.ts). */
function savableJson(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return isSavableText(value);
  if (value === null || typeof value !== 'object') return true;
  if (depth > 32) return false;
  return Object.entries(value).every(([k, v]) => isSavableText(k) && savableJson(v, depth + 1));
}

/**
 * A JSON value sent as text in a multipart field, or as itself in a JSON body. JSON text can carry
 * `\u0000` or a lone surrogate that the request's own text did not (the edge check sees only the
 * escape): refused here with the edge's words, never stored. A "__proto__" key anywhere in the
 * text is refused too (json-text.ts), as the JSON body parser refuses it in a JSON body.
 */
const jsonOrText = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value, ctx) => {
    if (typeof value !== 'string') return value;
    const text = parseJsonText(value);
    if (!text.ok) {
      ctx.addIssue({ code: 'custom', message: text.problem === 'reserved_key' ? chosenMessages.reservedJsonKey : documentMessages.notJson });
      return z.NEVER;
    }
    const parsed = text.value;
    if (!savableJson(parsed)) {
      ctx.addIssue({ code: 'custom', message: chosenMessages.unsavableText });
      return z.NEVER;
    }
    return parsed;
  }, schema);

/** A multipart part name for a new file: `files[<key>]`. */
export const fileKeySchema = z.string().regex(/^[A-Za-z0-9_.-]{1,60}$/, { error: 'Use letters, digits, dots, dashes and underscores' });

const title = z
  .string({ error: documentMessages.titleRequired })
  .trim()
  .min(1, { error: documentMessages.titleRequired })
  .max(documentLimits.titleMaxLength, { error: documentMessages.titleTooLong });

/** A picture of a book page: a new file (`file`: the key of part `files[<key>]`) or one already there (`id`). */
export const pageImageInputSchema = z.object({
  id: z.uuid().optional(),
  file: fileKeySchema.optional(),
  alt: z.string({ error: documentMessages.altRequired }).trim().min(1, { error: documentMessages.altRequired }).max(300),
});

export const bookInputSchema = z.object({
  chapters: z
    .array(
      z.object({
        /** Keep a chapter's id (and pages' ids) across updates so a reader's place is kept. */
        id: z.uuid().optional(),
        title: z.string({ error: documentMessages.chapterTitleRequired }).trim().min(1, { error: documentMessages.chapterTitleRequired }).max(documentLimits.chapterTitleMaxLength),
        pages: z
          .array(
            z.object({
              id: z.uuid().optional(),
              title: z.string({ error: documentMessages.pageTitleRequired }).trim().min(1, { error: documentMessages.pageTitleRequired }).max(documentLimits.pageTitleMaxLength),
              html: z.string().max(documentLimits.pageHtmlMaxLength, { error: documentMessages.pageHtmlTooLong }),
              images: z.array(pageImageInputSchema).max(documentLimits.maxPageImages, { error: documentMessages.tooManyImages }).default([]),
            }),
          )
          .min(1, { error: documentMessages.chapterNeedsPages }),
      }),
    )
    .min(1, { error: documentMessages.bookRequired })
    .max(documentLimits.maxChapters, { error: documentMessages.tooManyChapters })
    .refine((chapters) => chapters.reduce((n, c) => n + c.pages.length, 0) <= documentLimits.maxPages, { error: documentMessages.tooManyPages }),
});
export type BookInput = z.input<typeof bookInputSchema>;

export const galleryItemInputSchema = z.object({
  id: z.uuid().optional(),
  file: fileKeySchema.optional(),
  caption: z.string().trim().max(documentLimits.captionMaxLength, { error: documentMessages.captionTooLong }).nullable().optional(),
});
export const galleryInputSchema = z
  .array(galleryItemInputSchema)
  .min(1, { error: documentMessages.galleryRequired })
  .max(documentLimits.maxGalleryItems, { error: documentMessages.tooManyItems });
export type GalleryInput = z.input<typeof galleryInputSchema>;

const optionalUuid = z.preprocess((v) => (v === '' || v === null ? undefined : v), z.uuid().optional());

/**
 * Staff: `POST /v1/documents` (201), JSON or multipart (docs/api.md). `resident_id` or `home_id`
 * (exactly one). Kind `file`: part `file`. `book`: `book` (JSON, or its text in a multipart field)
 * with picture parts `files[<key>]`. `gallery`: `items` likewise. `form`: `form_id`.
 */
export const documentShareSchema = z.object({
  id: clientIdSchema,
  kind: z.enum(DOCUMENT_KINDS, { error: documentMessages.kindRequired }),
  title,
  description: z.string().trim().max(documentLimits.descriptionMaxLength, { error: documentMessages.descriptionTooLong }).nullable().optional(),
  category: z.string().trim().max(documentLimits.categoryMaxLength, { error: documentMessages.categoryTooLong }).nullable().optional(),
  resident_id: optionalUuid,
  home_id: optionalUuid,
  form_id: optionalUuid,
  book: jsonOrText(bookInputSchema).optional(),
  items: jsonOrText(galleryInputSchema).optional(),
});
export type DocumentShare = z.input<typeof documentShareSchema>;

/**
 * Staff: `POST /v1/documents/{id}?_method=PUT`: only what is sent changes (the kind never does); a
 * new `file` part replaces the file; `book` and `items` replace the structure (ids sent keep their
 * rows and files, anything not sent goes); `form_id` points at that form's newest definition.
 */
export const documentUpdateSchema = documentShareSchema.omit({ id: true, kind: true, title: true }).extend({
  kind: z.enum(DOCUMENT_KINDS).optional(),
  title: title.optional(),
});
export type DocumentUpdate = z.input<typeof documentUpdateSchema>;

/**
 * The young person: `POST /v1/documents/{id}/submissions` (201), JSON `{ id?, answers }` or multipart
 * with `answers` as JSON text and file answers as parts `files[<field id>]`.
 */
export const documentSubmitSchema = z.object({
  id: clientIdSchema,
  answers: jsonOrText(answersSchema.refine((a) => !Array.isArray(a))).optional(),
});
export type DocumentSubmit = z.input<typeof documentSubmitSchema>;
