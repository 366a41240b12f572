import { onReachableAgain } from '@/api/reachability';
import { getAccountSnapshot, subscribeSession } from '../session-store';
import { currentOwner, onOwnerChange } from '../owner';
import {
  applyOutcomes,
  configureOutbox,
  countsStore,
  flushOutbox,
  flushOutboxNowOnline,
  handleOutboxMessage,
  listenToOutboxChannel,
  ownerParts,
  replayHereNow,
  resumeOutbox,
} from './outbox';
import type { OutboxMessage } from './types';
import { listenToWorkerReach } from './worker-reach';

let started = false;
const HEARTBEAT_MS = 10_000;

/**
 * App start (and the person's queue becoming known): a natural moment to try everything again,
 * backoff or not. A reload after the Wi-Fi came back fires no `online` event in the new page.
 */
function tryNow(): void {
  if (navigator.onLine) flushOutboxNowOnline();
  else flushOutbox();
}

/**
 * App start: replay what is waiting (entries written offline before the app was closed), apply
 * outcomes the worker produced while no page was open, and replay again when the browser comes
 * back online, when the page becomes visible, and after the person signs in again. What the
 * worker's replays got counts towards whether the server is reachable (./worker-reach.ts).
 */
export function startOutbox(): () => void {
  if (started) return () => undefined;
  started = true;

  // The outbox belongs to the signed-in person: it follows them before anything below replays.
  configureOutbox(ownerParts(currentOwner()));
  const cleanups: (() => void)[] = [onOwnerChange((owner) => configureOutbox(ownerParts(owner))), listenToOutboxChannel()];
  const onOnline = () => flushOutboxNowOnline();
  window.addEventListener('online', onOnline);
  cleanups.push(() => window.removeEventListener('online', onOnline));
  // A Wi-Fi that reached nothing reaches the server again: no `online` event says so.
  cleanups.push(onReachableAgain(onOnline));
  // The worker's replays tell whether the server answers, as this page's own requests do.
  cleanups.push(listenToWorkerReach());

  const onVisible = () => {
    if (document.visibilityState === 'visible') flushOutbox();
  };
  document.addEventListener('visibilitychange', onVisible);
  cleanups.push(() => document.removeEventListener('visibilitychange', onVisible));

  // A safety net while the app is open: online, visible and something still waiting means try
  // again now, whatever trigger was missed (a worker that restarted, a message lost in a reload).
  // After two beats still waiting, the page sends itself (one replayer at a time still holds:
  // the lock, the per-entry lease and the Idempotency-Key make a double send harmless).
  let waitingBeats = 0;
  const heartbeat = setInterval(() => {
    if (!navigator.onLine || document.visibilityState !== 'visible' || countsStore.get().pending === 0) {
      waitingBeats = 0;
      return;
    }
    waitingBeats += 1;
    if (waitingBeats >= 2) void replayHereNow().catch(() => undefined);
    else tryNow();
  }, HEARTBEAT_MS);
  cleanups.push(() => clearInterval(heartbeat));

  const container = navigator.serviceWorker;
  if (container) {
    const onMessage = (event: MessageEvent<OutboxMessage>) => {
      if (typeof event.data?.type === 'string' && event.data.type.startsWith('outbox:')) handleOutboxMessage(event.data);
    };
    container.addEventListener('message', onMessage);
    cleanups.push(() => container.removeEventListener('message', onMessage));
  }

  let signedIn = getAccountSnapshot() !== null;
  cleanups.push(
    subscribeSession(() => {
      const now = getAccountSnapshot() !== null;
      if (now && !signedIn) void resumeOutbox();
      signedIn = now;
    }),
  );

  // The replica opens (and names its owner) after start-up: that is when this person's queue exists.
  cleanups.push(
    onOwnerChange((owner) => {
      if (owner) void applyOutcomes().finally(tryNow);
    }),
  );
  void applyOutcomes().finally(tryNow);

  return () => {
    for (const cleanup of cleanups) cleanup();
    started = false;
  };
}
