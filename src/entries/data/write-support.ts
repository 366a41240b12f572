/** What the entry and comment writes share: refusals, the creator, photo preparation. */
import type { FieldErrors } from '@/contract/envelope';
import { entryLimits } from '@/contract/entry-messages';
import { resizeImage } from '@/lib/resize-image';
import type { OpenReplica } from '../../data/replica/replica-store';
import { ACCOUNT_DOC_ID, type AccountDoc } from '../../data/replica/types';
import type { WriteResult } from './types';

export const STILL_SENDING = 'This entry is still being sent. Please try again in a moment.';

/** A network, and the server answering on it (src/api/reachability.ts). */
export { isOnline } from '@/api/reachability';

export const refused = (message: string, errors: FieldErrors = {}): WriteResult => ({ ok: false, message, errors });

/** The signed-in person as an entry's creator (from the account kept in the replica). */
export async function creatorOf(open: OpenReplica): Promise<Record<string, unknown>> {
  const doc = await open.db.resident.findOne(ACCOUNT_DOC_ID).exec().catch(() => null);
  const user = (doc?.toJSON() as AccountDoc | undefined)?.account.user;
  return user
    ? { id: user.id, first_name: user.first_name, last_name: user.last_name, has_photo: user.has_photo }
    : { id: open.identity.userId, first_name: '', last_name: '', has_photo: false };
}

/** Photos resized (longest side entryLimits.imageMaxDimension, JPEG ~0.85); other files as they are. */
export function prepareFiles(files: readonly File[]): Promise<File[]> {
  return Promise.all(files.map((file) => resizeImage(file, { maxDimension: entryLimits.imageMaxDimension, quality: 0.85 })));
}
