/**
 * Ask for a re-sync (after the outbox delivered a change, a push message, a comment...).
 * In the tab that replicates (the elected leader) it runs at once; any other tab, or the service
 * worker, reaches the leader through the `hearth-resync` BroadcastChannel with `{topics}`.
 */
import type { SyncTopic } from '@/contract/sync';
import { RESYNC_CHANNEL } from '@/contract/sync-topics';

export interface ResyncMessage {
  readonly topics?: readonly SyncTopic[];
}

type Target = (topics?: readonly SyncTopic[]) => void;
let local: Target | null = null;
let channel: BroadcastChannel | null = null;

function getChannel(): BroadcastChannel | null {
  if (typeof BroadcastChannel === 'undefined') return null;
  channel ??= new BroadcastChannel(RESYNC_CHANNEL);
  return channel;
}

export function requestResync(topics?: readonly SyncTopic[]): void {
  if (local) {
    local(topics);
    return;
  }
  try {
    getChannel()?.postMessage({ topics: topics ? [...topics] : undefined } satisfies ResyncMessage);
  } catch {
    /* no replica anywhere: the next start pulls anyway */
  }
}

/** The replicating tab registers itself (and listens to the channel); returns the undo. */
export function setResyncTarget(target: Target): () => void {
  local = target;
  const listening = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(RESYNC_CHANNEL);
  if (listening) {
    listening.onmessage = (event: MessageEvent<ResyncMessage>) => target(event.data?.topics);
  }
  return () => {
    if (local === target) local = null;
    listening?.close();
  };
}
