import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { EntryKind } from '../../../src/contract/entry-kind';
import type { SignedIn } from '../../plugins/session';
import { ownResidentRow } from '../access';
import { switchedOn } from '../entries/feature-switch';
import { feedbackQuery } from './queries';

/**
 * Threads awaiting the young person's response and not locked, per type (what the dashboard badge
 * shows). A young person's journal or voice that staff switched off counts 0, as the app shows it:
 * a badge would point at a screen it blocks.
 */
export async function feedbackCounts(app: FastifyInstance, auth: SignedIn): Promise<Record<EntryKind, number>> {
  const rows = await feedbackQuery(app, auth)
    .select(['resident_feedback.type', sql<string>`count(*)`.as('n')])
    .where('resident_feedback.awaiting_resident_response', '=', true)
    .where('resident_feedback.locked_at', 'is', null)
    .where('resident_feedback.deleted_at', 'is', null)
    .groupBy('resident_feedback.type')
    .execute();
  const own = await ownResidentRow(app.db, auth).select(['residents.journal_enabled', 'residents.voice_enabled']).executeTakeFirst();
  const counts = { journal: 0, voice: 0 };
  for (const row of rows) if (!own || switchedOn(own, row.type)) counts[row.type] = Number(row.n);
  return counts;
}
