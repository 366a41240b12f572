/**
 * The account's feature flags follow the young person's record in the replica.
 *
 * Staff switch a journal, voice or rewards on or off while the app is open (docs/decisions.md
 * "Staff switch a young person's features"): the record's `updated_at` moves, the `resident` topic
 * brings it into the replica, but the guards, the navigation and the dashboard read the flags of
 * the signed-in account, which the server sends only at sign-in and at a start. So each copy of the
 * record the replica receives hands its `_enabled` keys to the session store (which decides whether
 * the copy is newer than the account's flags: `followRecordFlags`), and a changed account is kept
 * in the replica too, so a start offline shows the new flags (the stub in localStorage has them
 * already). Runs in every tab: each has its own session store, and the replica's writes reach all.
 */
import type { Account } from '@/contract/users';
import type { OpenReplica } from '../replica/replica-store';
import { ACCOUNT_DOC_ID } from '../replica/types';
import { followRecordFlags, getAccountSnapshot, markFlagsAsOf, onSessionChange } from '../session-store';

type Flag = 0 | 1;
interface Copy {
  readonly updatedAt: string;
  readonly flags: Readonly<Record<string, Flag>>;
}

const flagsOf = (row: Record<string, unknown>): Record<string, Flag> =>
  Object.fromEntries(Object.entries(row).filter((entry): entry is [string, Flag] => entry[0].endsWith('_enabled') && (entry[1] === 0 || entry[1] === 1)));

/**
 * The newest server copy a record document holds: the document itself, or the copy a pull parked
 * beside a change the young person has not sent yet (their app settings; flags are never theirs
 * to change, so the document's own flags are a server copy's too).
 */
function newestCopy(doc: Record<string, unknown> | null): Copy | null {
  if (!doc || doc.kind !== 'details' || typeof doc.updated_at !== 'string') return null;
  let newest: Copy = { updatedAt: doc.updated_at, flags: flagsOf(doc) };
  const parked = doc.sync_server as Record<string, unknown> | null | undefined;
  if (parked && parked._deleted !== true && typeof parked.updated_at === 'string' && parked.updated_at > newest.updatedAt) {
    newest = { updatedAt: parked.updated_at, flags: flagsOf(parked) };
  }
  return newest;
}

/** Writes the account's flags now over the account kept in the replica (its other fields stay). */
async function keepFlags(open: OpenReplica, userId: string): Promise<void> {
  const resident = getAccountSnapshot()?.user.resident;
  if (!resident || getAccountSnapshot()?.user.id !== userId) return;
  const flags = flagsOf(resident as unknown as Record<string, unknown>);
  const doc = await open.db.resident.findOne(ACCOUNT_DOC_ID).exec();
  await doc?.incrementalModify((stored) => {
    const account = stored.account;
    const kept = account?.user.resident;
    if (!account || !kept || account.user.id !== userId) return stored;
    return { ...stored, account: { ...account, user: { ...account.user, resident: { ...kept, ...flags } } } as Account };
  });
}

/** Starts following (a young person's replica only); returns the undo. */
export function followFlags(open: OpenReplica): () => void {
  const residentId = open.identity.residentId;
  if (!residentId) return () => undefined;
  let stopped = false;
  /** The `updated_at` of the newest copy seen ('' when none); undefined before the first answer. */
  let seen: string | undefined;
  const subscription = open.db.resident.findOne(residentId).$.subscribe((doc) => {
    const copy = newestCopy((doc?.toJSON() as Record<string, unknown> | undefined) ?? null);
    // What the replica held when following began: after a server account, that is older than it.
    if (seen === undefined) markFlagsAsOf(residentId, copy?.updatedAt ?? '');
    if (copy && copy.updatedAt > (seen ?? '')) seen = copy.updatedAt;
    seen ??= '';
    if (!copy || stopped) return;
    const changed = followRecordFlags(residentId, copy.flags, copy.updatedAt);
    if (changed) void keepFlags(open, changed.user.id).catch(() => undefined);
  });
  // A server account while following (the refresh at a start): what the replica holds is older.
  const stopSignIns = onSessionChange((change) => {
    if (change.type === 'signed-in' && seen !== undefined) markFlagsAsOf(residentId, seen);
  });
  return () => {
    stopped = true;
    subscription.unsubscribe();
    stopSignIns();
  };
}
