import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { COMMENT_MAX_LENGTH, commentCreateSchema, commentLengthMessages, REACTION_MAX_LENGTH, type Comment } from '../../../src/contract/comments';
import { ENTRY_KINDS, type EntryKind } from '../../../src/contract/entry-kind';
import { entryPaths } from '../../../src/contract/paths';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import { changedPushMessage, pushUrls } from '../../../src/contract/push';
import { HttpError } from '../../lib/http-errors';
import { laterStamp } from '../../lib/timestamps';
import { uuidv7 } from '../../lib/uuidv7';
import { parse } from '../../lib/validate';
import { requireAuth, type SignedIn } from '../../plugins/session';
import { entryReadable } from '../../domain/access';
import { ENTRY_TABLE } from '../../domain/entries/entry-table';
import { touched } from '../../domain/entries/conflicts';
import { refuseWhenSwitchedOff, switchedOn } from '../../domain/entries/feature-switch';
import { clientIdOf, createdBefore, isUniqueViolation, lockedError, requirePutOverride, residentSensitivity } from '../../domain/entries/writes';
import { checkImages, checkUploads, Problems, storeFiles } from '../../domain/uploads/checks';
import { listField } from '../../domain/uploads/form-fields';
import { removeRetiredBytes, retireFiles } from '../../domain/uploads/retire';
import { idParamsSchema } from '../../../src/contract/users';
import { entryLimits, entryMessages } from '../../../src/contract/entries';
import { commentById } from '../../domain/comments/queries';

/**
 * POST /api/v1/projects/residents/journal/entries/comments and .../voices/entries/comments
 * (JSON, multipart or url-encoded fields entry_id, comment, reaction; file parts `files[N]` checked
 * like entry attachments, images through the image check with the young person's sensitivity).
 * POST .../comments/{id}?_method=PUT edits a comment: only its creator (else 404); fields given
 * replace, `remove_files[]` drops attachments, new files are added.
 * Allowed for the entry's young person and the staff of their home; anyone else gets 404.
 * In the same transaction the thread's resident_feedback row follows: a staff comment makes it
 * await the young person (count + 1), the young person's reply clears it (count 0).
 * After the commit, a staff comment also sends a content-free Web Push to the young person, unless
 * staff switched that kind off for them: the push would open a screen the app blocks (the comment
 * is stored and syncs all the same, and shows when the kind is switched on again).
 * A create may carry the client's `id` (checked first): the same person's comment with that id
 * means the create was sent again (answered as created, nothing changes); any other row with it is
 * 422 `id` (idTaken). On a locked entry (locked_at) the young person can neither comment nor edit
 * their comments (422 locked); staff, who lock entries, still can. A young person whose journal
 * (voice) staff switched off can neither reply nor edit a reply there (403, as a new entry): checked first.
 */
/** Staff who may read a thread, so only they hear of its comments (issue 12, finding 7). */
const readersOf = (entry: { shared_with: string[]; shared_with_management: boolean }) => ({ userIds: entry.shared_with, managers: entry.shared_with_management });

/** The same person's comment (of this kind) under this client id, 422 idTaken, or null (free). */
const alreadyCreated = (app: FastifyInstance, auth: SignedIn, type: EntryKind, id: string): Promise<Comment | null> =>
  createdBefore(app.db, auth, 'entry_comments', id, () => commentById(app, auth, id), type);

async function createComment(app: FastifyInstance, request: FastifyRequest, type: EntryKind): Promise<Comment> {
  const auth = requireAuth(request);
  await refuseWhenSwitchedOff(app, auth, type);
  const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>;
  // The client's id, before any other check or file.
  const clientId = clientIdOf(body);
  if (clientId) {
    const created = await alreadyCreated(app, auth, type, clientId);
    if (created) return created;
  }
  const input = parse(commentCreateSchema, body);
  const problems = new Problems();
  const uploads = checkUploads(request, problems, { canvas: false });
  if (uploads.attachmentCount > entryLimits.maxFiles) problems.add('files', entryMessages.tooManyFiles);
  problems.throwIfAny();

  const entry = await app.db
    .selectFrom(`${ENTRY_TABLE[type]} as entry` as 'journal_entries as entry')
    .innerJoin('residents', 'residents.id', 'entry.resident_id')
    .select(['entry.id', 'entry.locked_at', 'entry.shared_with', 'entry.shared_with_management', 'residents.id as resident_id', 'residents.user_id', 'residents.home_id'])
    .select(['residents.journal_enabled', 'residents.voice_enabled'])
    .select(type === 'voice' ? sql<string | null>`entry.category_id`.as('category_id') : sql<string | null>`null::uuid`.as('category_id'))
    .where('entry.tenant_id', '=', auth.tenantId)
    .where('entry.id', '=', input.entry_id)
    .where('entry.deleted_at', 'is', null)
    .where('residents.deleted_at', 'is', null)
    // Staff comment only on what was shared with them (the reading rule): anything else is a 404.
    .where(entryReadable(auth))
    .executeTakeFirst();
  if (!entry) throw new HttpError(404, chosen.notFound);
  const byResident = entry.user_id === auth.userId;
  if (byResident && entry.locked_at) throw lockedError();

  await checkImages(app, uploads.attachments, await residentSensitivity(app.db, entry.resident_id), problems);
  problems.throwIfAny();

  const id = clientId ?? uuidv7();
  const comment = input.comment || null;
  const reaction = input.reaction || null;
  const stored = await storeFiles(app, auth.tenantId, uploads.attachments);
  try {
    await app.db.transaction().execute(async (tx) => {
      const fileRows = stored.rows('comment', id);
      await tx
        .insertInto('entry_comments')
        .values({ id, tenant_id: auth.tenantId, entry_type: type, entry_id: entry.id, creator_id: auth.userId, comment, reaction })
        .execute();
      if (fileRows.length > 0) await tx.insertInto('entry_files').values(fileRows).execute();
      if (byResident) {
        await tx
          .updateTable('resident_feedback')
          .set({ comment_id: id, count: 0, awaiting_resident_response: false, reaction, updated_at: laterStamp('resident_feedback.updated_at') })
          .where('tenant_id', '=', auth.tenantId)
          .where('type', '=', type)
          .where('entry_id', '=', entry.id)
          .execute();
      } else {
        await tx
          .insertInto('resident_feedback')
          .values({
            tenant_id: auth.tenantId,
            type,
            resident_id: entry.resident_id,
            entry_id: entry.id,
            comment_id: id,
            count: 1,
            awaiting_resident_response: true,
            locked_at: entry.locked_at,
            reaction,
            category_id: entry.category_id,
          })
          .onConflict((oc) =>
            oc.columns(['tenant_id', 'type', 'entry_id']).doUpdateSet({
              comment_id: id,
              count: sql`resident_feedback.count + 1`,
              awaiting_resident_response: true,
              locked_at: entry.locked_at,
              reaction,
              updated_at: laterStamp('resident_feedback.updated_at'),
              deleted_at: null,
            }),
          )
          .execute();
      }
      // The entry carries its comments: its replica row must be pulled again.
      await tx.updateTable(ENTRY_TABLE[type]).set({ updated_at: touched() }).where('id', '=', entry.id).execute();
    });
  } catch (error) {
    await stored.cleanup();
    // A concurrent request inserted this client id first: answer as if it had come first.
    if (clientId && isUniqueViolation(error)) {
      const created = await alreadyCreated(app, auth, type, clientId);
      if (created) return created;
    }
    throw error;
  }
  app.notifier.publish({ tenantId: auth.tenantId, homeId: entry.home_id, residentId: entry.resident_id, readers: readersOf(entry) }, ['feedback', type]);
  // A staff reply reaches the young person's closed app too: a push that names only what to pull and where to go.
  if (!byResident && switchedOn(entry, type)) {
    app.push.toUser(
      { tenantId: auth.tenantId, userId: entry.user_id },
      changedPushMessage({ collections: ['feedback', type], url: pushUrls.entryThread(type, entry.id) }, app.config.productName),
    );
  }
  return commentById(app, auth, id);
}

async function updateComment(app: FastifyInstance, request: FastifyRequest, type: EntryKind): Promise<Comment> {
  const auth = requireAuth(request);
  await refuseWhenSwitchedOff(app, auth, type);
  const { id } = parse(idParamsSchema, request.params);
  requirePutOverride(request);
  const found = await app.db
    .selectFrom('entry_comments as c')
    .innerJoin(`${ENTRY_TABLE[type]} as entry` as 'journal_entries as entry', 'entry.id', 'c.entry_id')
    .innerJoin('residents', 'residents.id', 'entry.resident_id')
    .select(['c.id', 'c.comment', 'c.reaction', 'c.entry_id', 'entry.resident_id', 'entry.locked_at', 'entry.shared_with', 'entry.shared_with_management', 'residents.home_id', 'residents.user_id as resident_user_id'])
    .where('c.tenant_id', '=', auth.tenantId)
    .where('c.id', '=', id)
    .where('c.entry_type', '=', type)
    .where('c.creator_id', '=', auth.userId)
    .where('c.deleted_at', 'is', null)
    .where('entry.deleted_at', 'is', null)
    .where('residents.deleted_at', 'is', null)
    // Writing one's own comment needs the right to read its entry now (issue 12, finding 3): staff
    // who lost it (the young person unshared the entry) get the same 404 as for reading it.
    .where(entryReadable(auth))
    .executeTakeFirst();
  if (!found) throw new HttpError(404, chosen.notFound);
  if (found.locked_at && found.resident_user_id === auth.userId) throw lockedError();
  const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>;
  const problems = new Problems();
  // Text is text: anything else sent (an object, a list, a number) is refused, not dropped (the edit
  // answered 200 and kept none of it). Null, as absent, leaves the field as it is.
  const given = (name: 'comment' | 'reaction', notText: string) => {
    const value = body[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string') return value.trim();
    problems.add(name, notText);
    return undefined;
  };
  const newComment = given('comment', entryMessages.commentRequired);
  const newReaction = given('reaction', entryMessages.reactionRequired);
  if (newComment !== undefined && newComment.length > COMMENT_MAX_LENGTH) problems.add('comment', commentLengthMessages.comment);
  if (newReaction !== undefined && newReaction.length > REACTION_MAX_LENGTH) problems.add('reaction', commentLengthMessages.reaction);
  const comment = newComment !== undefined ? newComment || null : found.comment;
  const reaction = newReaction !== undefined ? newReaction || null : found.reaction;
  if (!comment && !reaction) problems.add('comment', entryMessages.commentRequired);
  // Anything in the list that is not one of this comment's file ids is refused below, never ignored.
  const removeIds = new Set(listField(body, 'remove_files') ?? []);
  const existingFiles = await app.db
    .selectFrom('entry_files')
    .select(['id', 'storage_key'])
    .where('tenant_id', '=', auth.tenantId)
    .where('entry_type', '=', 'comment')
    .where('entry_id', '=', found.id)
    .where('deleted_at', 'is', null)
    .execute();
  for (const fid of removeIds) if (!existingFiles.some((f) => f.id === fid)) problems.add('remove_files', 'That file is not on this comment');
  const uploads = checkUploads(request, problems, { canvas: false });
  if (existingFiles.filter((f) => !removeIds.has(f.id)).length + uploads.attachmentCount > entryLimits.maxFiles) problems.add('files', entryMessages.tooManyFiles);
  problems.throwIfAny();
  await checkImages(app, uploads.attachments, await residentSensitivity(app.db, found.resident_id), problems);
  problems.throwIfAny();

  const stored = await storeFiles(app, auth.tenantId, uploads.attachments);
  const dropped = existingFiles.filter((f) => removeIds.has(f.id));
  await app.db.transaction().execute(async (tx) => {
    await tx.updateTable('entry_comments').set({ comment, reaction, edited_at: sql`now()`, updated_at: sql`now()` }).where('id', '=', found.id).execute();
    const rows = stored.rows('comment', found.id);
    if (rows.length > 0) await tx.insertInto('entry_files').values(rows).execute();
    await retireFiles(tx, dropped);
    // The thread summary shows the latest comment: it is pulled again, with this reaction if it is that comment.
    await tx
      .updateTable('resident_feedback')
      .set({ updated_at: laterStamp('resident_feedback.updated_at'), reaction: sql`case when comment_id = ${found.id} then ${reaction} else resident_feedback.reaction end` })
      .where('tenant_id', '=', auth.tenantId)
      .where('type', '=', type)
      .where('entry_id', '=', found.entry_id)
      .execute();
    await tx.updateTable(ENTRY_TABLE[type]).set({ updated_at: touched() }).where('id', '=', found.entry_id).execute();
  }).catch(async (error: unknown) => {
    await stored.cleanup();
    throw error;
  });
  await removeRetiredBytes(app, auth.tenantId, dropped);
  app.notifier.publish({ tenantId: auth.tenantId, homeId: found.home_id, residentId: found.resident_id, readers: readersOf(found) }, ['feedback', type]);
  return commentById(app, auth, found.id);
}

export default async function createCommentRoutes(app: FastifyInstance) {
  const config = { idempotent: true };
  for (const type of ENTRY_KINDS) {
    app.post(entryPaths[type].comments.pattern, { config }, async (request, reply) => {
      const data = await createComment(app, request, type);
      return reply.code(201).send({ success: true as const, data });
    });
    app.post(entryPaths[type].comment.pattern, { config }, async (request) => {
      const data = await updateComment(app, request, type);
      return { success: true as const, data };
    });
  }
}
