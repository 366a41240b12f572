import { EventEmitter } from 'node:events';
import { SYNC_TOPICS, type SyncTopic } from '../../src/contract/sync-topics';

/**
 * Change notifications for the event stream (routes/sync/stream.ts). Every write path publishes
 * what it changed with the narrowest scope it knows: a resident (their own rows), a home (rota,
 * staff), or the whole tenant (lookups). This class delivers to the streams of this process only,
 * which is all there is on the embedded database (one process). On PostgreSQL the server may run
 * as several processes: lib/postgres-notifier.ts extends it so that what one process publishes
 * reaches the streams every process holds (LISTEN/NOTIFY). Either way the audience rule below
 * (`reaches`) is applied where the stream is, to ids, never to content.
 */
export interface ChangeScope {
  tenantId: string;
  homeId: string | null;
  residentId: string | null;
  /**
   * A young person's change that only some staff may read (an entry and its thread: issue 12,
   * finding 7). Set, it narrows the staff reached to these users, and to managers when `managers`;
   * the young person is reached as ever. Unset: every member of staff of the home.
   */
  readers?: { userIds: readonly string[]; managers: boolean };
}

/** Which sessions end (logout, a password change): their event streams close at once (finding 8). */
export interface EndedSessions {
  tenantId: string;
  /** This one session. */
  sessionId?: string;
  /** Every session of this person... */
  userId?: string;
  /** ...but this one (the session that changed the password stays). */
  exceptSessionId?: string;
  /**
   * This session stays but has a new token: its streams opened with an older one end (a copy of the
   * cookie taken before the password change). Only the session id travels; each stream asks the
   * database whether its token is still the session's, so no token or hash leaves the process.
   */
  renewedSessionId?: string;
}

/** What a stream does when its session ends, or gets a new token. */
export interface SessionEndHandlers {
  /** The session ended: close now. */
  end(): void;
  /** The session has a new token: close if this stream was opened with another. */
  renewed(): void;
}

/** Who holds a stream: their own resident record (young people) and the homes they belong to. */
export interface Audience {
  userId: string;
  /** A manager: reached by entries shared with management. */
  isManager: boolean;
  residentId: string | null;
  /** Every home the person belongs to (their own, or where they work). */
  homeIds: string[];
  /** Homes where they are staff: they see every resident's changes there. */
  staffHomeIds: string[];
}

type Listener = (scope: ChangeScope, collections: SyncTopic[]) => void;

/** Every topic: what a stream is told when this process may have missed changes (a lost feed). */
const EVERYTHING = 'everything';

export function reaches(audience: Audience, scope: ChangeScope): boolean {
  if (scope.residentId) {
    if (audience.residentId === scope.residentId) return true;
    if (scope.homeId === null || !audience.staffHomeIds.includes(scope.homeId)) return false;
    if (!scope.readers) return true;
    return scope.readers.userIds.includes(audience.userId) || (scope.readers.managers && audience.isManager);
  }
  if (scope.homeId) return audience.homeIds.includes(scope.homeId);
  return true;
}

export class Notifier {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  publish(scope: ChangeScope, collections: SyncTopic[]): void {
    this.deliver(scope, [...new Set(collections)]);
  }

  /** Calls send with the changed collections this audience may see; returns the unsubscribe. */
  subscribe(tenantId: string, audience: Audience, send: (collections: SyncTopic[]) => void): () => void {
    const listener: Listener = (scope, collections) => {
      if (reaches(audience, scope)) send(collections);
    };
    const everything = () => send([...SYNC_TOPICS]);
    this.emitter.on(tenantId, listener);
    this.emitter.on(EVERYTHING, everything);
    return () => {
      this.emitter.off(tenantId, listener);
      this.emitter.off(EVERYTHING, everything);
    };
  }

  /** Tells the streams of these sessions that they ended. */
  endSessions(ended: EndedSessions): void {
    this.deliverEnded(ended);
  }

  /** To the streams of this process: a change. */
  protected deliver(scope: ChangeScope, collections: SyncTopic[]): void {
    this.emitter.emit(scope.tenantId, scope, collections);
  }

  /** To the streams of this process: sessions that ended. */
  protected deliverEnded(ended: EndedSessions): void {
    this.emitter.emit(`ended:${ended.tenantId}`, ended);
  }

  /**
   * To every stream of this process: anything may have changed (the feed from the other processes
   * was cut, and what it carried meanwhile is lost). Topic names only, so nothing is revealed;
   * each replica pulls what it may read, as it does when its stream opens.
   */
  protected deliverEverything(): void {
    this.emitter.emit(EVERYTHING);
  }

  /** Calls `end` when this session is among ended ones, `renewed` when it got a new token; returns the unsubscribe. */
  onSessionEnded(tenantId: string, session: { sessionId: string; userId: string }, on: SessionEndHandlers): () => void {
    const listener = (ended: EndedSessions) => {
      const thisOne = ended.sessionId === session.sessionId;
      const allOfThem = ended.userId === session.userId && ended.exceptSessionId !== session.sessionId;
      if (thisOne || allOfThem) on.end();
      else if (ended.renewedSessionId === session.sessionId) on.renewed();
    };
    this.emitter.on(`ended:${tenantId}`, listener);
    return () => this.emitter.off(`ended:${tenantId}`, listener);
  }

  listenerCount(tenantId: string): number {
    return this.emitter.listenerCount(tenantId);
  }
}
