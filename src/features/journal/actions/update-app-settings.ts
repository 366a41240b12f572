import type { Result } from '@/api/result';
import { paths } from '@/contract/paths';
import { appSettingsUpdateSchema, type AppSettings, type AppSettingsUpdate } from '@/contract/residents';
import { enqueueWrite, newIdempotencyKey } from '@/data/outbox/outbox';
import { applyLocalChange } from '@/data/replica/local-writes';

/** SPEC §8 "Customise journal" ("error updating journal") as a sentence (docs/decisions.md): a refusal without a message of its own. */
export const ERROR_UPDATING_JOURNAL = 'There was an error updating your journal.';

/**
 * PUT /v1/projects/residents/{id}/app-settings (JSON): the journal's colour and paper, and the
 * theme. Optimistic: the resident document shows the new settings at once (pending); the outbox
 * sends them, now or when back online. A 422 ("personalised_journal theme not found") leaves the
 * document failed with that message; nothing the person chose is lost.
 */
export async function updateAppSettings(
  residentId: string,
  current: AppSettings,
  change: AppSettingsUpdate,
): Promise<Result<{ outboxId: string }>> {
  const parsed = appSettingsUpdateSchema.safeParse(change);
  if (!parsed.success) return { ok: false, status: 422, message: ERROR_UPDATING_JOURNAL };
  const outboxId = newIdempotencyKey();
  const body = Object.fromEntries(Object.entries(parsed.data).filter(([, value]) => value !== undefined));
  await applyLocalChange(
    'resident',
    residentId,
    { app_settings: { ...current, ...body } },
    { state: 'pending', message: null, outbox_id: outboxId },
  );
  await enqueueWrite({
    method: 'PUT',
    path: paths.appSettings.build(residentId),
    json: body,
    idempotencyKey: outboxId,
    local: { collection: 'resident', id: residentId },
    label: 'Journal look',
    topics: ['resident'],
    failureMessage: ERROR_UPDATING_JOURNAL,
  });
  return { ok: true, status: 202, data: { outboxId } };
}
