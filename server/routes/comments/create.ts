import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { commentCreateSchema, type Comment } from '../../../src/contract/comments';
import type { EntryType } from '../../../src/contract/feedback';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import { HttpError } from '../../lib/http-errors';
import { isoMicros } from '../../lib/timestamps';
import { uuidv7 } from '../../lib/uuidv7';
import { parse } from '../../lib/validate';
import { requireAuth } from '../../plugins/session';
import { acceptFormBodies, hasFiles } from './form-bodies';

/**
 * POST /api/v1/projects/residents/journal/entries/comments and .../voices/entries/comments
 * (JSON, multipart or url-encoded fields entry_id, comment, reaction; files are refused for now).
 * Allowed for the entry's young person and the staff of their home; anyone else gets 404.
 * In the same transaction the thread's resident_feedback row follows: a staff comment makes it
 * await the young person (count + 1), the young person's reply clears it (count 0).
 */
const TABLE = { journal: 'journal_entries', voice: 'voice_entries' } as const;

async function createComment(app: FastifyInstance, request: FastifyRequest, type: EntryType): Promise<Comment> {
  const auth = requireAuth(request);
  const input = parse(commentCreateSchema, request.body ?? {});
  if (hasFiles(request)) throw new HttpError(422, chosen.validationFailed, { files: ['Files cannot be attached to comments yet'] });

  const entry = await app.db
    .selectFrom(`${TABLE[type]} as entry` as 'journal_entries as entry')
    .innerJoin('residents', 'residents.id', 'entry.resident_id')
    .select(['entry.id', 'entry.locked_at', 'residents.id as resident_id', 'residents.user_id', 'residents.home_id'])
    .select(type === 'voice' ? sql<string | null>`entry.category_id`.as('category_id') : sql<string | null>`null::uuid`.as('category_id'))
    .where('entry.tenant_id', '=', auth.tenantId)
    .where('entry.id', '=', input.entry_id)
    .where('entry.deleted_at', 'is', null)
    .where('residents.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!entry) throw new HttpError(404, chosen.notFound);
  const byResident = entry.user_id === auth.userId;
  if (!byResident) {
    const staff = await app.db
      .selectFrom('home_staff')
      .select('id')
      .where('tenant_id', '=', auth.tenantId)
      .where('user_id', '=', auth.userId)
      .where('home_id', '=', entry.home_id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!staff) throw new HttpError(404, chosen.notFound);
  }

  const id = uuidv7();
  const comment = input.comment || null;
  const reaction = input.reaction || null;
  const row = await app.db.transaction().execute(async (tx) => {
    const inserted = await tx
      .insertInto('entry_comments')
      .values({ id, tenant_id: auth.tenantId, entry_type: type, entry_id: entry.id, creator_id: auth.userId, comment, reaction })
      .returning(['id', isoMicros(sql.ref('created_at')).as('created_at'), isoMicros(sql.ref('updated_at')).as('updated_at')])
      .executeTakeFirstOrThrow();
    if (byResident) {
      await tx
        .updateTable('resident_feedback')
        .set({ comment_id: id, count: 0, awaiting_resident_response: false, reaction, updated_at: sql`now()` })
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
            updated_at: sql`now()`,
            deleted_at: null,
          }),
        )
        .execute();
    }
    // The entry carries its comments: its replica row must be pulled again.
    await tx.updateTable(TABLE[type]).set({ updated_at: sql`now()` }).where('id', '=', entry.id).execute();
    return inserted;
  });
  app.notifier.publish({ tenantId: auth.tenantId, homeId: entry.home_id, residentId: entry.resident_id }, ['feedback', type]);

  const creator = await app.db
    .selectFrom('users')
    .leftJoin('user_photos', (join) => join.onRef('user_photos.user_id', '=', 'users.id').on('user_photos.deleted_at', 'is', null))
    .select(['users.id', 'users.first_name', 'users.last_name', sql<boolean>`user_photos.id is not null`.as('has_photo')])
    .where('users.id', '=', auth.userId)
    .executeTakeFirstOrThrow();
  return { id: row.id, updated_at: row.updated_at, deleted_at: null, entry_id: entry.id, comment, reaction, created_at: row.created_at, creator, files: [] };
}

export default async function createCommentRoutes(app: FastifyInstance) {
  await acceptFormBodies(app);
  const config = { idempotent: true };
  for (const [type, path] of [
    ['journal', '/v1/projects/residents/journal/entries/comments'],
    ['voice', '/v1/projects/residents/voices/entries/comments'],
  ] as const) {
    app.post(path, { config }, async (request, reply) => {
      const data = await createComment(app, request, type);
      return reply.code(201).send({ success: true as const, data });
    });
  }
}
