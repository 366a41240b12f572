import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { applyListQuery, fetchPage, parseListQuery, syncColumns, syncSelect, type ListSpec } from '../../lib/list-query';
import { requireAuth } from '../../plugins/session';
import { paths } from '../../../src/contract/paths';

/**
 * GET /api/v1/projects/residents/voices/categories (the tenant's voice categories with a one-line
 * description) and GET /api/v1/tags/icons/emojis (one list for everyone). Both are lists like every
 * other: checkpoint mode and tombstones.
 */
const categorySpec: ListSpec = {
  fields: { name: { expr: sql.ref('voice_categories.name'), type: 'text' } },
  sorts: { name: sql.ref('voice_categories.name'), position: sql.ref('voice_categories.position') },
  defaultSort: [['position', 'asc']],
  ...syncColumns('voice_categories'),
};

const emojiSpec: ListSpec = {
  fields: { name: { expr: sql.ref('emojis.name'), type: 'text' } },
  sorts: { position: sql.ref('emojis.position'), name: sql.ref('emojis.name') },
  defaultSort: [['position', 'asc']],
  ...syncColumns('emojis'),
};

export default async function entryLookupRoutes(app: FastifyInstance) {
  app.get(paths.voiceCategories.pattern, async (request) => {
    const auth = requireAuth(request);
    const list = parseListQuery(request.query, categorySpec);
    const query = app.db
      .selectFrom('voice_categories')
      .select([
        ...syncSelect(categorySpec),
        'voice_categories.name',
        'voice_categories.description',
      ])
      .where('voice_categories.tenant_id', '=', auth.tenantId);
    return fetchPage(app.syncHorizon, list, () => applyListQuery(query, list, categorySpec).execute());
  });

  app.get(paths.emojis.pattern, async (request) => {
    requireAuth(request);
    const list = parseListQuery(request.query, emojiSpec);
    const query = app.db
      .selectFrom('emojis')
      .select([
        ...syncSelect(emojiSpec),
        'emojis.emoji',
        'emojis.name',
        'emojis.position',
      ]);
    return fetchPage(app.syncHorizon, list, () => applyListQuery(query, list, emojiSpec).execute());
  });
}
