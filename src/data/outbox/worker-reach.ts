import { noteOutcomeOf } from '@/api/reachability';
import { readReachMessage } from './reach-message';
import { OUTBOX_CHANNEL } from './types';

function take(data: unknown): void {
  const message = readReachMessage(data);
  if (message) noteOutcomeOf(message.url, message.answered);
}

/**
 * This page hears what the service worker's replays of the outbox got (./reach-message.ts) and
 * counts it towards "the server is unreachable", as its own requests are. The worker posts on the
 * outbox's BroadcastChannel, which every open window of this origin hears, whether the worker
 * controls it or not; a worker without one posts to each window it controls, which arrives here on
 * `navigator.serviceWorker`, taken only from this origin. Started by `startOutbox`; returns the undo.
 */
export function listenToWorkerReach(): () => void {
  const stops: (() => void)[] = [];
  if (typeof BroadcastChannel === 'function') {
    const channel = new BroadcastChannel(OUTBOX_CHANNEL);
    channel.addEventListener('message', (event: MessageEvent) => take(event.data));
    stops.push(() => channel.close());
  }
  const container = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
  if (container) {
    const onMessage = (event: MessageEvent) => {
      if (event.origin === location.origin) take(event.data);
    };
    container.addEventListener('message', onMessage);
    stops.push(() => container.removeEventListener('message', onMessage));
  }
  return () => {
    for (const stop of stops) stop();
  };
}
