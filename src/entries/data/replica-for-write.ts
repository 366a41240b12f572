/**
 * The replica a journal, voice or comment write goes into. In the first moments after a page load
 * the session is known (its stub) but its replica is still opening (data key, IndexedDB): a save
 * pressed then waits for it instead of failing, for at most REPLICA_WAIT_MS. Only the replica of
 * the person who was signed in when they pressed save will do: a write never lands in someone
 * else's replica on a shared tablet.
 */
import { getReplica, whenReplicaOpenWithin, type OpenReplica } from '../../data/replica/replica-store';
import { getSessionStub } from '../../data/session-store';

export const REPLICA_WAIT_MS = 10_000;

export async function replicaForWrite(waitMs: number = REPLICA_WAIT_MS): Promise<OpenReplica | null> {
  const current = getReplica();
  if (current) return current;
  const signedIn = getSessionStub()?.user_id ?? null;
  const open = await whenReplicaOpenWithin(waitMs);
  if (open && signedIn && open.identity.userId !== signedIn) return null;
  return open;
}
