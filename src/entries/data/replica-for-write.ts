/**
 * The replica a journal, voice or comment write goes into. In the first moments after a page load
 * the session is known (its stub) but its replica is still opening (data key, IndexedDB): a save
 * pressed then waits for it instead of failing, for at most REPLICA_WAIT_MS. Only the replica of
 * the session that was signed in when they pressed save will do: a write never lands in someone
 * else's replica on a shared tablet, nor in the next session's after a sign-out (whose "delete
 * them" it would undo), even the same person's.
 */
import { getReplica, whenReplicaOpenWithin, type OpenReplica } from '../../data/replica/replica-store';
import { getSessionStub, signOutsSoFar } from '../../data/session-store';

export const REPLICA_WAIT_MS = 10_000;

export async function replicaForWrite(waitMs: number = REPLICA_WAIT_MS): Promise<OpenReplica | null> {
  // Open already: the signed-in person's, or (a session that just expired) still the same person's.
  const current = getReplica();
  if (current) return current;
  const signedIn = getSessionStub()?.user_id ?? null;
  if (!signedIn) return null; // nobody's replica is on its way: the next one to open is another sign-in's
  const session = signOutsSoFar();
  const open = await whenReplicaOpenWithin(waitMs);
  if (!open || open.db.closed || open.identity.userId !== signedIn) return null;
  return signOutsSoFar() === session ? open : null;
}
