/**
 * The service worker's replays of the outbox count towards "the server is unreachable"
 * (sw/worker-transport.ts → the outbox's channel → src/data/outbox/worker-reach.ts →
 * src/api/reachability.ts): on a Wi-Fi that reaches nothing, a page learns it from the worker's
 * failed sends, and that the server is back from an answer the worker got. Only this origin's
 * worker, well-formed messages and requests to the page's own server count.
 */
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isServerUnreachable, onReachableAgain, subscribeReachability } from '@/api/reachability';
import { messages } from '@/contract/messages';
import { OfflineBanner } from '@/app/shell/offline-banner';
import { reachMessage, type ReachMessage } from '@/data/outbox/reach-message';
import { startOutbox } from '@/data/outbox/start-outbox';
import { listenToWorkerReach } from '@/data/outbox/worker-reach';
import { workerTransport } from '../../sw/worker-transport';
import { waitUntil } from '../support/wait';
import { fakeFetch, json } from './support/fake-fetch';

/** A network that reaches nothing until `reach()`; then the server answers 503 (busy, but there). */
function lieFi() {
  let reaching = false;
  fakeFetch(() => {
    if (!reaching) throw new TypeError('Failed to fetch');
    return json(503, { success: false, message: 'Busy' });
  });
  return { reach: () => (reaching = true) };
}

/** One write as the outbox's replayer hands it to the worker's transport. */
const send = (transport = workerTransport, url = '/api/v1/journal') =>
  transport.send({ method: 'POST', url, headers: { 'Content-Type': 'application/json' }, body: '{}' });

/** Another open window: its own copy of the page's modules (its own count, its own channel). */
async function anotherWindow() {
  vi.resetModules();
  const reachability = await import('@/api/reachability');
  const { listenToWorkerReach: listen } = await import('@/data/outbox/worker-reach');
  return { reachability, stop: listen() };
}

/** `navigator.serviceWorker`, where a worker without BroadcastChannel posts to the windows it controls. */
function serviceWorkerContainer(): EventTarget {
  const container = new EventTarget();
  Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: container });
  return container;
}

const fromWorker = (data: unknown, origin = location.origin) => new MessageEvent('message', { data, origin });

const stops: (() => void)[] = [];
beforeEach(() => {
  stops.length = 0;
});
afterEach(() => {
  for (const stop of stops) stop();
  delete (navigator as { serviceWorker?: unknown }).serviceWorker;
});

describe("the service worker's replays tell the page whether the server answers", () => {
  it('two failed replays make every open window unreachable; an answer the worker got, of any status, makes them reachable again', async () => {
    const net = lieFi();
    stops.push(listenToWorkerReach());
    const other = await anotherWindow();
    stops.push(other.stop);
    const back = vi.fn();
    stops.push(onReachableAgain(back));
    render(<OfflineBanner />);

    expect(await send()).toMatchObject({ status: 0 });
    expect(await send()).toMatchObject({ status: 0 });
    await waitUntil(() => expect(screen.getByRole('status').textContent).toBe(messages.offline));
    expect(isServerUnreachable()).toBe(true);
    await waitUntil(() => expect(other.reachability.isServerUnreachable()).toBe(true));

    net.reach();
    expect(await send()).toMatchObject({ status: 503 });
    await waitUntil(() => expect(screen.queryByText(messages.offline)).toBeNull());
    expect(back).toHaveBeenCalledOnce();
    await waitUntil(() => expect(other.reachability.isServerUnreachable()).toBe(false));
  });

  it("is heard from the app's start of the outbox", async () => {
    lieFi();
    await act(async () => {
      stops.push(startOutbox());
    });
    await send();
    await send();
    await waitUntil(() => expect(isServerUnreachable()).toBe(true));
  });

  it('a worker without BroadcastChannel tells each window it controls', async () => {
    lieFi();
    vi.stubGlobal('BroadcastChannel', undefined);
    const container = serviceWorkerContainer();
    stops.push(listenToWorkerReach());
    const elsewhere = vi.fn();
    const windows = [{ postMessage: (message: unknown) => container.dispatchEvent(fromWorker(message)) }, { postMessage: elsewhere }];
    vi.stubGlobal('clients', { matchAll: vi.fn(async () => windows) });
    vi.resetModules();
    const worker = (await import('../../sw/worker-transport')).workerTransport;

    await send(worker);
    await send(worker);
    await waitUntil(() => expect(isServerUnreachable()).toBe(true));
    await waitUntil(() => expect(elsewhere).toHaveBeenCalledTimes(2));
    expect(elsewhere).toHaveBeenCalledWith(reachMessage(`${location.origin}/api/v1/journal`, false));
  });

  it("another origin's message, a malformed one or a request to another server changes nothing", () => {
    const container = serviceWorkerContainer();
    stops.push(listenToWorkerReach());
    const changes = vi.fn();
    stops.push(subscribeReachability(changes));
    const failed: ReachMessage = reachMessage(`${location.origin}/api/v1/journal`, false);

    for (let i = 0; i < 3; i += 1) container.dispatchEvent(fromWorker(failed, 'https://elsewhere.example'));
    const malformed: unknown[] = [
      { type: failed.type, url: failed.url },
      { type: failed.type, url: failed.url, answered: 'false' },
      { type: failed.type, answered: false },
      { type: failed.type, url: 7, answered: false },
      { ...failed, type: 'outbox:changed' },
      [failed.type, failed.url, false],
      null,
      failed.type,
    ];
    for (const data of [...malformed, ...malformed]) container.dispatchEvent(fromWorker(data));
    // Only requests to the server this page talks to (its API base, /api here).
    for (const url of ['https://elsewhere.example/api/v1/journal', `${location.origin}/assets/pdf.min-1.mjs`, `${location.origin}/apiary`]) {
      container.dispatchEvent(fromWorker(reachMessage(url, false)));
      container.dispatchEvent(fromWorker(reachMessage(url, false)));
    }
    expect(isServerUnreachable()).toBe(false);
    expect(changes).not.toHaveBeenCalled();

    // The same two failures from this origin's worker do count.
    container.dispatchEvent(fromWorker(failed));
    container.dispatchEvent(fromWorker(failed));
    expect(isServerUnreachable()).toBe(true);
  });
});
