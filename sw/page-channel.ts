import type { ReachMessage } from '@/data/outbox/reach-message';
import { OUTBOX_CHANNEL, type OutboxMessage } from '@/data/outbox/types';

/**
 * What this module uses of the worker's scope, by shape: the page's unit tests load the worker's
 * transport (and with it this module) where the WebWorker types do not exist.
 */
interface WindowsScope {
  readonly clients: { matchAll(options: { type: 'window' }): Promise<readonly { postMessage(message: unknown): void }[]> };
}
declare const self: WindowsScope;

let channel: BroadcastChannel | null = null;

/**
 * Tells every open Hearth window: the outbox's BroadcastChannel reaches each of them, controlled
 * by this worker or not; where a worker has no BroadcastChannel, each window it controls.
 */
export function postToPages(message: OutboxMessage | ReachMessage): void {
  try {
    channel ??= new BroadcastChannel(OUTBOX_CHANNEL);
    channel.postMessage(message);
  } catch {
    void self.clients
      .matchAll({ type: 'window' })
      .then((clients) => clients.forEach((client) => client.postMessage(message)))
      .catch(() => undefined);
  }
}
