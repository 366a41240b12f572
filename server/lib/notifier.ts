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
}

/** Who holds a stream: their own resident record (young people) and the homes they belong to. */
export interface Audience {
  residentId: string | null;
  /** Every home the person belongs to (their own, or where they work). */
  homeIds: string[];
  /** Homes where they are staff: they see every resident's changes there. */
  staffHomeIds: string[];
}

type Listener = (scope: ChangeScope, collections: SyncTopic[]) => void;

export function reaches(audience: Audience, scope: ChangeScope): boolean {
  if (scope.residentId) {
    return audience.residentId === scope.residentId || (scope.homeId !== null && audience.staffHomeIds.includes(scope.homeId));
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

  listenerCount(tenantId: string): number {
    return this.emitter.listenerCount(tenantId);
  }
}
