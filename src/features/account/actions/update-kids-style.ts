import type { Result } from '@/api/result';
import { paths } from '@/contract/paths';
import type { AppSettings, KidsStyle } from '@/contract/residents';
import { enqueueWrite, newIdempotencyKey } from '@/data/outbox/outbox';
import { applyLocalChange } from '@/data/replica/local-writes';
import { isKidsStyle } from '@/data/kids-style';

/** What the outbox says if the server refuses the change (it only refuses an unknown style). */
export const ERROR_UPDATING_STYLE = 'There was an error changing your style.';

/**
 * The young person's kids_app style (SPEC §3 account themes), saved the way the journal's look is:
 * PUT /v1/projects/residents/{id}/app-settings `{ kids_style }` through the outbox. The resident
 * record shows the new style at once (pending), so the whole app changes colour now, offline too;
 * the server stores it as the account's kids_app theme, and it follows the person to other devices.
 */
export async function updateKidsStyle(residentId: string, current: AppSettings, style: KidsStyle): Promise<Result<{ outboxId: string }>> {
  if (!isKidsStyle(style)) return { ok: false, status: 422, message: ERROR_UPDATING_STYLE };
  const outboxId = newIdempotencyKey();
  await applyLocalChange(
    'resident',
    residentId,
    { app_settings: { ...current, kids_style: style } },
    { state: 'pending', message: null, outbox_id: outboxId },
  );
  await enqueueWrite({
    method: 'PUT',
    path: paths.appSettings.build(residentId),
    json: { kids_style: style },
    idempotencyKey: outboxId,
    local: { collection: 'resident', id: residentId },
    label: 'Style',
    topics: ['resident'],
    failureMessage: ERROR_UPDATING_STYLE,
  });
  return { ok: true, status: 202, data: { outboxId } };
}
