import { EventEmitter } from 'node:events';
import type { SyncTopic } from '../../src/contract/sync';

/**
 * In-process change notifications for the event stream (routes/sync/stream.ts). Every write path
 * publishes what it changed with the narrowest scope it knows: a resident (their own rows), a home
 * (rota, staff), or the whole tenant (lookups). One process only: with several server processes
 * on one PostgreSQL, a write in one process does not reach streams held by another (clients still
 * catch up at their next pull); LISTEN/NOTIFY would lift that limit.
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
    this.emitter.emit(scope.tenantId, scope, [...new Set(collections)]);
  }

  /** Calls send with the changed collections this audience may see; returns the unsubscribe. */
  subscribe(tenantId: string, audience: Audience, send: (collections: SyncTopic[]) => void): () => void {
    const listener: Listener = (scope, collections) => {
      if (reaches(audience, scope)) send(collections);
    };
    this.emitter.on(tenantId, listener);
    return () => this.emitter.off(tenantId, listener);
  }

  /** Tells the streams of these sessions that they ended. */
  endSessions(ended: EndedSessions): void {
    this.emitter.emit(`ended:${ended.tenantId}`, ended);
  }

  /** Calls `end` when this session is among ended ones; returns the unsubscribe. */
  onSessionEnded(tenantId: string, session: { sessionId: string; userId: string }, end: () => void): () => void {
    const listener = (ended: EndedSessions) => {
      const thisOne = ended.sessionId === session.sessionId;
      const allOfThem = ended.userId === session.userId && ended.exceptSessionId !== session.sessionId;
      if (thisOne || allOfThem) end();
    };
    this.emitter.on(`ended:${tenantId}`, listener);
    return () => this.emitter.off(`ended:${tenantId}`, listener);
  }

  listenerCount(tenantId: string): number {
    return this.emitter.listenerCount(tenantId);
  }
}
