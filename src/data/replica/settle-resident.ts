/**
 * A delivered change to the young person's record (their style, their journal's look): the record
 * becomes the server's answer, which holds the change. A copy a pull parked while the change waited
 * may be from before the change reached the server; swapping it in showed the old style until the
 * next pull (a reload in that moment started in the old colours). With the answer, the newer of the
 * two by `updated_at` is written, in one write (./local-writes.ts `setSyncState`).
 */
import { residentDetailsSchema } from '@/contract/residents';
import type { LocalRef, OutboxResult } from '../outbox/types';
import { residentDocOf } from '../replication/endpoints';
import { setSyncState, type SyncState } from './local-writes';

export async function settleResident(local: LocalRef, sync: SyncState, result: OutboxResult | null | undefined): Promise<void> {
  const parsed = residentDetailsSchema.safeParse(result?.data);
  const copy = parsed.success && parsed.data.id === local.id ? residentDocOf(parsed.data) : null;
  await setSyncState('resident', local.id, sync, { outboxId: local.outboxId ?? null, copy });
}
