import { paths } from '@/contract/paths';
import { getApiBase } from './base-address';

/**
 * Whether Hearth's server answers, beside `navigator.onLine`, which only says that the device has a
 * network. A home's Wi-Fi that is connected but gets nowhere (a router that lost its line, a hotel
 * portal on a trip) leaves `navigator.onLine` true while every request fails: the young person saw
 * no "You are currently offline", was told an entry had been posted, and screens that need the
 * server tried and failed.
 *
 * The HTTP client and the outbox's transport report each request: an answer (any HTTP status)
 * means reachable; a network failure while the browser says online counts, and two in a row with
 * no answer between mean unreachable. Then a probe asks the server's health every few seconds
 * (5 s, doubling to 30 s) until it answers; the browser coming online probes at once. Nothing runs
 * until a request has failed: importing this starts nothing.
 *
 * The service worker's replays of the outbox count too (`noteOutcomeOf`, heard through the outbox's
 * channel: src/data/outbox/worker-reach.ts): when it is the worker that sends, the page's own
 * requests may be few, and an answer the worker got means the server is back.
 */

/** Network failures in a row, with no answer between, that make the server unreachable. */
export const FAILURES_BEFORE_UNREACHABLE = 2;
export const PROBE_FIRST_MS = 5_000;
export const PROBE_MAX_MS = 30_000;

let failures = 0;
let unreachable = false;
let probeTimer: ReturnType<typeof setTimeout> | null = null;
let probeDelay = PROBE_FIRST_MS;
const listeners = new Set<() => void>();
const reachableAgain = new Set<() => void>();

const browserOnline = (): boolean => typeof navigator === 'undefined' || navigator.onLine !== false;

function set(next: boolean): void {
  if (unreachable === next) return;
  unreachable = next;
  for (const listener of [...listeners]) listener();
  if (!next) for (const listener of [...reachableAgain]) listener();
}

/** The server answered a request (whatever its status). */
export function noteAnswered(): void {
  failures = 0;
  stopProbe();
  set(false);
}

/** A request got no answer: the network failed or it timed out. Not counted while the browser says offline. */
export function noteNetworkFailure(): void {
  if (!browserOnline()) return;
  failures += 1;
  if (failures < FAILURES_BEFORE_UNREACHABLE) return;
  set(true);
  if (!probeTimer) scheduleProbe(PROBE_FIRST_MS);
}

/**
 * The outcome of a request this page did not make (the service worker's replay of the outbox),
 * counted as the page's own are, but only when it went to the server this page talks to: a write
 * queued for another address (before the person changed region) says nothing about this one.
 */
export function noteOutcomeOf(url: string, answered: boolean): void {
  if (!isThisServer(url)) return;
  if (answered) noteAnswered();
  else noteNetworkFailure();
}

function isThisServer(url: string): boolean {
  const here = globalThis.location?.href;
  if (!here) return false;
  try {
    const base = new URL(`${getApiBase()}/`, here);
    const target = new URL(url, here);
    return target.origin === base.origin && target.pathname.startsWith(base.pathname);
  } catch {
    return false;
  }
}

/** True once requests fail while the browser says it is online, until the server answers again. */
export const isServerUnreachable = (): boolean => unreachable;

/** Online as the young person means it: a network, and the server answering on it. */
export const isOnline = (): boolean => browserOnline() && !unreachable;

/** Called whenever `isServerUnreachable` changes. Returns the unsubscribe. */
export function subscribeReachability(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * Called when the server answers again after being unreachable: what the browser's `online` event
 * does for a network that comes back (send what waits, pull what changed). Returns the unsubscribe.
 */
export function onReachableAgain(listener: () => void): () => void {
  reachableAgain.add(listener);
  return () => {
    reachableAgain.delete(listener);
  };
}

function stopProbe(): void {
  if (probeTimer) clearTimeout(probeTimer);
  probeTimer = null;
  probeDelay = PROBE_FIRST_MS;
  if (typeof window !== 'undefined') window.removeEventListener('online', probeNow);
}

function scheduleProbe(delayMs: number): void {
  if (probeTimer) clearTimeout(probeTimer);
  probeTimer = setTimeout(() => void probe(), delayMs);
  if (typeof window !== 'undefined') window.addEventListener('online', probeNow);
}

function probeNow(): void {
  if (unreachable) scheduleProbe(0);
}

async function probe(): Promise<void> {
  probeTimer = null;
  if (!unreachable) return;
  try {
    await fetch(`${getApiBase()}${paths.health.build()}`, { cache: 'no-store', credentials: 'omit', signal: AbortSignal.timeout(10_000) });
    noteAnswered();
  } catch {
    if (!unreachable) return;
    probeDelay = Math.min(PROBE_MAX_MS, probeDelay * 2);
    scheduleProbe(probeDelay);
  }
}

/** Tests: back to the first state, nothing scheduled. */
export function resetReachability(): void {
  stopProbe();
  failures = 0;
  unreachable = false;
}
