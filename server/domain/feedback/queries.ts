import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { SignedIn } from '../../plugins/session';
import { entryReadable } from '../access';

/**
 * resident_feedback rows the signed-in person may see (their own as a young person; as staff, the
 * threads of entries shared with them), joined to the entry, its category and the latest comment with its author.
 */
export function feedbackQuery(app: FastifyInstance, auth: SignedIn) {
  return app.db
    .selectFrom('resident_feedback')
    .leftJoin('journal_entries', (join) =>
      join.onRef('journal_entries.id', '=', 'resident_feedback.entry_id').on('resident_feedback.type', '=', 'journal'),
    )
    .leftJoin('voice_entries', (join) =>
      join.onRef('voice_entries.id', '=', 'resident_feedback.entry_id').on('resident_feedback.type', '=', 'voice'),
    )
    .leftJoin('voice_categories', 'voice_categories.id', 'resident_feedback.category_id')
    .innerJoin('entry_comments', 'entry_comments.id', 'resident_feedback.comment_id')
    .innerJoin('users as creator', 'creator.id', 'entry_comments.creator_id')
    .leftJoin('user_photos as creator_photo', (join) =>
      join.onRef('creator_photo.user_id', '=', 'creator.id').on('creator_photo.deleted_at', 'is', null),
    )
    .where('resident_feedback.tenant_id', '=', auth.tenantId)
    // A thread shows its entry's excerpt: only to those who may read the entry (domain/access.ts).
    .where(sql<boolean>`((${entryReadable(auth, 'journal_entries')}) or (${entryReadable(auth, 'voice_entries')}))`);
}
