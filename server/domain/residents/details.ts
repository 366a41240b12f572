import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import type { AppSettings, ResidentDetails } from '../../../src/contract/residents';
import { HttpError } from '../../lib/http-errors';
import { syncColumns, syncSelect } from '../../lib/list-query';

/** The young-person details of contract residents.ts (the caller has checked access). */
export async function loadResidentDetails(app: FastifyInstance, tenantId: string, residentId: string): Promise<ResidentDetails> {
  const row = await app.db
    .selectFrom('residents')
    .innerJoin('users', 'users.id', 'residents.user_id')
    .innerJoin('homes', 'homes.id', 'residents.home_id')
    .leftJoin('themes', 'themes.id', 'users.theme_id')
    .leftJoin('users as key_worker', (join) =>
      join.onRef('key_worker.id', '=', 'residents.key_worker_id').on('key_worker.deleted_at', 'is', null),
    )
    .leftJoin('user_photos as key_worker_photo', (join) =>
      join.onRef('key_worker_photo.user_id', '=', 'key_worker.id').on('key_worker_photo.deleted_at', 'is', null),
    )
    .select([
      ...syncSelect(syncColumns('residents')),
      'residents.user_id',
      'residents.home_id',
      'homes.name as home_name',
      'users.first_name',
      'users.last_name',
      'residents.preferred_name',
      'residents.date_of_birth',
      'residents.reward_points',
      'residents.journal_enabled',
      'residents.voice_enabled',
      'residents.rewards_enabled',
      'residents.journal_colour',
      'residents.journal_paper',
      'residents.theme',
      'themes.system_name as kids_style',
      'key_worker.id as key_worker_id',
      'key_worker.first_name as key_worker_first_name',
      'key_worker.last_name as key_worker_last_name',
      sql<boolean>`key_worker_photo.id is not null`.as('key_worker_has_photo'),
    ])
    .where('residents.tenant_id', '=', tenantId)
    .where('residents.id', '=', residentId)
    .executeTakeFirst();
  if (!row) throw new HttpError(404, chosen.notFound);
  return {
    id: row.id,
    updated_at: row.updated_at,
    deleted_at: row.deleted_at,
    user_id: row.user_id,
    home_id: row.home_id,
    home: { id: row.home_id, name: row.home_name },
    first_name: row.first_name,
    last_name: row.last_name,
    preferred_name: row.preferred_name,
    date_of_birth: row.date_of_birth,
    reward_points: row.reward_points,
    key_worker:
      row.key_worker_id && row.key_worker_first_name !== null && row.key_worker_last_name !== null
        ? { id: row.key_worker_id, first_name: row.key_worker_first_name, last_name: row.key_worker_last_name, has_photo: row.key_worker_has_photo }
        : null,
    app_settings: {
      journal_colour: row.journal_colour as AppSettings['journal_colour'],
      journal_paper: row.journal_paper as AppSettings['journal_paper'],
      theme: row.theme as AppSettings['theme'],
      // The account's kids_app theme; a person without one has the default look.
      kids_style: row.kids_style ?? 'fun_style',
    },
    journal_enabled: row.journal_enabled,
    voice_enabled: row.voice_enabled,
    rewards_enabled: row.rewards_enabled,
  };
}
