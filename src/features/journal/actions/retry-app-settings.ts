import type { Result } from '@/api/result';
import type { AppSettings } from '@/contract/residents';
import { retryFailedWrite } from '@/data/outbox/outbox';
import { applyLocalChange } from '@/data/replica/local-writes';
import { updateAppSettings } from './update-app-settings';

/**
 * "Try again" after the journal's look was refused: the outbox sends the kept write again (under a
 * new Idempotency-Key: the server keeps a refusal's answer under the old one). When the outbox no
 * longer holds it (discarded at logout warning), the settings the device shows are queued again as
 * a new write.
 */
export async function retryAppSettings(
  residentId: string,
  outboxId: string | null,
  settings: AppSettings,
): Promise<Result<{ outboxId: string }>> {
  if (outboxId) {
    // Pending first: the replay's answer (synced or failed again) must land after it, never before.
    await applyLocalChange('resident', residentId, {}, { state: 'pending', message: null, outbox_id: outboxId });
    if (await retryFailedWrite(outboxId)) return { ok: true, status: 202, data: { outboxId } };
  }
  return updateAppSettings(residentId, settings, { journal_colour: settings.journal_colour, journal_paper: settings.journal_paper });
}
