import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { applyListQuery, parseListQuery, toPage, type ListSpec } from '../../lib/list-query';
import { isoMicros, isoMicrosOrNull } from '../../lib/timestamps';
import { requireAuth } from '../../plugins/session';

/**
 * GET /api/v1/projects/residents/voices/categories (the tenant's voice categories with a one-line
 * description) and GET /api/v1/tags/icons/emojis (one list for everyone). Both are lists like every
 * other: checkpoint mode and tombstones.
 */
const categorySpec: ListSpec = {
  fields: { name: { expr: sql.ref('voice_categories.name'), type: 'text' } },
  sorts: { name: sql.ref('voice_categories.name'), position: sql.ref('voice_categories.position') },
  defaultSort: [['position', 'asc']],
  updatedAt: sql.ref('voice_categories.updated_at'),
  id: sql.ref('voice_categories.id'),
  deletedAt: sql.ref('voice_categories.deleted_at'),
};

const emojiSpec: ListSpec = {
  fields: { name: { expr: sql.ref('emojis.name'), type: 'text' } },
  sorts: { position: sql.ref('emojis.position'), name: sql.ref('emojis.name') },
  defaultSort: [['position', 'asc']],
  updatedAt: sql.ref('emojis.updated_at'),
  id: sql.ref('emojis.id'),
  deletedAt: sql.ref('emojis.deleted_at'),
};

export default async function entryLookupRoutes(app: FastifyInstance) {
  app.get('/v1/projects/residents/voices/categories', async (request) => {
    const auth = requireAuth(request);
    const list = parseListQuery(request.query, categorySpec);
    const query = app.db
      .selectFrom('voice_categories')
      .select([
        'voice_categories.id',
        isoMicros(sql.ref('voice_categories.updated_at')).as('updated_at'),
        isoMicrosOrNull(sql.ref('voice_categories.deleted_at')).as('deleted_at'),
        'voice_categories.name',
        'voice_categories.description',
      ])
      .where('voice_categories.tenant_id', '=', auth.tenantId);
    return toPage(await applyListQuery(query, list, categorySpec).execute(), list);
  });

  app.get('/v1/tags/icons/emojis', async (request) => {
    requireAuth(request);
    const list = parseListQuery(request.query, emojiSpec);
    const query = app.db
      .selectFrom('emojis')
      .select([
        'emojis.id',
        isoMicros(sql.ref('emojis.updated_at')).as('updated_at'),
        isoMicrosOrNull(sql.ref('emojis.deleted_at')).as('deleted_at'),
        'emojis.emoji',
        'emojis.name',
      ]);
    return toPage(await applyListQuery(query, list, emojiSpec).execute(), list);
  });
}
