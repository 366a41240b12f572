/**
 * The page's outbox sending to the in-process server on a connection the test switches: the set-up
 * the sync tests against the real server share.
 */
import { vi } from 'vitest';
import { replicaOutcomeSink } from '@/app/start-outbox-side';
import { sendOutboxRequest } from '@/api/outbox-transport';
import { configureOutbox } from '@/data/outbox/outbox';
import type { Transport, TransportRequest, TransportResponse } from '@/data/outbox/replay';
import { freshStore, testKey } from '../outbox-support';
import type { SyncTestServer } from './sync-server';

/** Sees each answer of the server; what it returns, if anything, is what the outbox gets instead. */
export type AfterAnswer = (request: TransportRequest, response: TransportResponse) => Promise<TransportResponse | void>;

/**
 * `navigator.onLine` follows `isOnline()`, and the outbox (page only, outcomes into the replica)
 * sends to `sync`'s server while it is true; otherwise every send is a network failure. Returns the
 * outbox's store.
 */
export function outboxToServer(sync: SyncTestServer, isOnline: () => boolean, afterAnswer?: () => AfterAnswer | null) {
  vi.stubGlobal('navigator', {
    get onLine() {
      return isOnline();
    },
  });
  const key = testKey();
  const transport: Transport = {
    csrfToken: async () => sync.csrfToken(),
    async send(request) {
      if (!isOnline()) return { status: 0, body: null };
      const response = await sendOutboxRequest(request);
      return (await afterAnswer?.()?.(request, response)) ?? response;
    },
  };
  const store = freshStore();
  configureOutbox({ ...store, getKey: async () => key, transport, apiBase: () => `${sync.server.base}/api`, pageOnly: true, sink: replicaOutcomeSink });
  return store;
}
