import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { FeedbackItem } from '../../../src/contract/feedback';
import { applyListQuery, fetchPage, parseListQuery, syncColumns, syncSelect, type ListSpec } from '../../lib/list-query';
import { isoMicros, isoMicrosOrNull } from '../../lib/timestamps';
import { requireAuth } from '../../plugins/session';
import { feedbackQuery } from '../../domain/feedback/queries';
import { paths } from '../../../src/contract/paths';

/**
 * GET /api/v1/projects/residents/feedback: one row per entry thread with staff comments.
 * Filters: type, locked_at (null / not_null), awaiting_resident_response (1/0), resident_id,
 * entry_id, updated_at, id. Sort: comment_id (default desc: newest comment first), updated_at, id.
 * Relations entry, reaction, resident, category, latest_comment are accepted and always included.
 * Sorting by `comment_id` keeps SPEC §4's name but orders by the latest comment's created_at, then
 * its id: comment ids may be made by clients (random UUIDs), so they do not sort by time.
 */
const EXCERPT_LENGTH = 140;

const spec: ListSpec = {
  fields: {
    type: { expr: sql.ref('resident_feedback.type'), type: 'text' },
    locked_at: { expr: sql.ref('resident_feedback.locked_at'), type: 'timestamp' },
    awaiting_resident_response: { expr: sql.ref('resident_feedback.awaiting_resident_response'), type: 'boolean' },
    resident_id: { expr: sql.ref('resident_feedback.resident_id'), type: 'uuid' },
    entry_id: { expr: sql.ref('resident_feedback.entry_id'), type: 'uuid' },
    comment_id: { expr: sql.ref('resident_feedback.comment_id'), type: 'uuid' },
  },
  sorts: { comment_id: [sql.ref('entry_comments.created_at'), sql.ref('resident_feedback.comment_id')] },
  defaultSort: [['comment_id', 'desc']],
  relations: ['entry', 'reaction', 'resident', 'category', 'latest_comment'],
  ...syncColumns('resident_feedback'),
};

export default async function feedbackListRoute(app: FastifyInstance) {
  app.get(paths.feedback.pattern, async (request) => {
    const auth = requireAuth(request);
    const list = parseListQuery(request.query, spec);
    const query = feedbackQuery(app, auth).select([
      ...syncSelect(spec),
      'resident_feedback.type',
      'resident_feedback.resident_id',
      'resident_feedback.entry_id',
      'resident_feedback.comment_id',
      'resident_feedback.count',
      'resident_feedback.awaiting_resident_response',
      isoMicrosOrNull(sql.ref('resident_feedback.locked_at')).as('locked_at'),
      'resident_feedback.reaction',
      sql<string>`left(coalesce(journal_entries.description, voice_entries.description, ''), ${EXCERPT_LENGTH})`.as('excerpt'),
      isoMicros(sql`coalesce(journal_entries.created_at, voice_entries.created_at)`).as('entry_created_at'),
      'voice_categories.id as category_id',
      'voice_categories.name as category_name',
      sql<string>`coalesce(entry_comments.comment, entry_comments.reaction, '')`.as('comment'),
      isoMicros(sql.ref('entry_comments.created_at')).as('comment_created_at'),
      'creator.id as creator_id',
      'creator.first_name as creator_first_name',
      'creator.last_name as creator_last_name',
      sql<boolean>`creator_photo.id is not null`.as('creator_has_photo'),
    ]);
    const rows = async () => (await applyListQuery(query, list, spec).execute()).map((r): FeedbackItem => ({
      id: r.id,
      updated_at: r.updated_at,
      deleted_at: r.deleted_at,
      type: r.type,
      resident_id: r.resident_id,
      entry_id: r.entry_id,
      comment_id: r.comment_id,
      count: r.count,
      awaiting_resident_response: r.awaiting_resident_response,
      locked_at: r.locked_at,
      reaction: r.reaction,
      entry: { id: r.entry_id, excerpt: r.excerpt, created_at: r.entry_created_at },
      category: r.category_id && r.category_name !== null ? { id: r.category_id, name: r.category_name } : null,
      latest_comment: {
        id: r.comment_id,
        comment: r.comment,
        created_at: r.comment_created_at,
        creator: { id: r.creator_id, first_name: r.creator_first_name, last_name: r.creator_last_name, has_photo: r.creator_has_photo },
      },
    }));
    return fetchPage(app.syncHorizon, list, rows);
  });
}
