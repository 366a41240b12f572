/**
 * The replica a write of the signed-in session goes into (a draft, an entry, a reply, a swap): the
 * one open now, or, in the first moments after a page load (the session known from its stub, its
 * replica still opening: data key, IndexedDB), the one that opens within `waitMs`.
 *
 * Never someone else's, never the next session's: a replica that opens for another person than the
 * one signed in is refused, and so is any replica once a sign-out happened while the write waited,
 * even the same person's next one (its "Sign out and delete them" would be undone). Signed out,
 * only a replica still open will do: a form dropped as its session expires stores into that one
 * (the same person's, kept when a session expires, wiped at sign-out); nothing waits for whoever
 * signs in next.
 */
import { getReplica, whenReplicaOpenWithin, type OpenReplica } from './replica/replica-store';
import { getSessionStub, signOutsSoFar } from './session-store';

export const REPLICA_WAIT_MS = 10_000;

export async function sessionReplica(waitMs: number = REPLICA_WAIT_MS): Promise<OpenReplica | null> {
  const session = signOutsSoFar();
  const signedIn = getSessionStub()?.user_id ?? null;
  const open = getReplica() ?? (signedIn ? await whenReplicaOpenWithin(waitMs) : null);
  if (!open || open.db.closed || signOutsSoFar() !== session) return null;
  const now = getSessionStub()?.user_id ?? null;
  if ((signedIn && open.identity.userId !== signedIn) || (now && open.identity.userId !== now)) return null;
  return open;
}
