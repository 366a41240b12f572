/**
 * The replica a journal, voice or comment write goes into: the signed-in session's, waited for a
 * moment after a page load, never another person's or the next session's (src/data/session-replica.ts).
 */
export { REPLICA_WAIT_MS, sessionReplica as replicaForWrite } from '../../data/session-replica';
