/**
 * The change stream after EventSource gave up on it (src/api/sync/change-stream.ts): a browser's
 * EventSource reconnects by itself after a network error, but any answer other than a 200 event
 * stream (a proxy's 502 during a deploy, a 503 while the server restarts, a 401) closes it for
 * good. The app opens a new one after a wait that grows and resets, only once the server is
 * reachable, never after it was closed, and a 401 signs the person out instead of looping.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isServerUnreachable, noteAnswered, noteNetworkFailure } from '@/api/reachability';
import { openChangeStream } from '@/api/sync/change-stream';
import { REOPEN_FIRST_MS, REOPEN_MAX_MS, reopenDelayMs } from '@/api/sync/stream-reopen';
import { getSessionStub, setAccount } from '@/data/session-store';
import { makeAccount } from './support/account';
import { DrivenEventSource } from '../support/driven-event-source';
import { fakeFetch, json, type FakeRequest } from './support/fake-fetch';

const STREAM = '/v1/sync/stream';
const streams = () => DrivenEventSource.made;
const last = () => streams().at(-1)!;

/** Polls (between I/O turns, which the fake timers leave alone) until `done` holds. */
async function until(done: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (done()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`never happened: ${what}`);
}

/** Lets a request in flight finish and whatever it starts run, without moving the fake clock. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

let heads: FakeRequest[];
/** How the server answers `HEAD` of the stream (the app's own ask before it opens one again). */
let headStatus: number;
/** False: the network reaches nothing (the reachability module's probes of /health fail). */
let reaching: boolean;

beforeEach(() => {
  DrivenEventSource.made = [];
  heads = [];
  headStatus = 200;
  reaching = true;
  vi.stubGlobal('EventSource', DrivenEventSource);
  fakeFetch((request) => {
    if (!reaching) throw new TypeError('Failed to fetch');
    if (request.path !== STREAM) return undefined;
    heads.push(request);
    if (headStatus === 200) return new Response(null, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    return json(headStatus, { success: false, message: 'Unauthenticated.' });
  });
  // Only the timeouts are fake: the fetch answers and the polling above go on as usual.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});

let closeStream: () => void = () => undefined;
afterEach(() => {
  closeStream();
  closeStream = () => undefined;
});

function open(onOpen = vi.fn(), onChange = vi.fn()) {
  closeStream = openChangeStream({ onOpen, onChange });
  return { onOpen, onChange };
}

describe('the wait before trying again', () => {
  it('doubles from 5 s to a cap of 5 minutes, at a random point in its second half', () => {
    const nominal = [5, 10, 20, 40, 80, 160, 300, 300, 300].map((s) => s * 1000);
    expect(nominal.map((_, failures) => reopenDelayMs(failures, () => 0))).toEqual(nominal.map((ms) => ms / 2));
    expect(nominal.map((_, failures) => reopenDelayMs(failures, () => 0.999_999))).toEqual(nominal);
    expect(reopenDelayMs(1_000, () => 0.5)).toBe(Math.round(REOPEN_MAX_MS * 0.75));
  });
});

describe('a stream the browser gave up on', () => {
  it('is opened again after the wait, asking HEAD first, and its opening asks for everything again', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.999_999);
    const { onOpen } = open();
    const first = last();
    first.opens();
    expect(onOpen).toHaveBeenCalledTimes(1);

    // The browser reconnecting by itself is left to the browser.
    first.reconnects();
    await vi.advanceTimersByTimeAsync(REOPEN_MAX_MS);
    expect(streams()).toHaveLength(1);
    expect(heads).toHaveLength(0);

    first.givesUp();
    await vi.advanceTimersByTimeAsync(REOPEN_FIRST_MS - 1);
    expect(heads).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => streams().length === 2, 'a second stream');
    expect(heads.map((h) => h.method)).toEqual(['HEAD']);
    const second = last();
    expect(second.url).toBe(first.url);
    expect(second.init.withCredentials).toBe(true);
    second.opens();
    expect(onOpen).toHaveBeenCalledTimes(2);
  });

  it('waits longer after each try that opened nothing (a refused HEAD, or a stream given up at once), and from the start again once one opens', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    open();
    const waits: number[] = [];
    /** How long after giving up the next try came, in whole seconds of fake time. */
    const nextTry = async (): Promise<void> => {
      const before = heads.length;
      let waited = 0;
      while (heads.length === before) {
        await vi.advanceTimersByTimeAsync(500);
        waited += 500;
        if (waited > REOPEN_MAX_MS) throw new Error('no try');
      }
      waits.push(waited / 1000);
      await settle();
    };

    last().givesUp();
    headStatus = 502;
    await nextTry(); // 2.5 s, refused
    await nextTry(); // 5 s, refused
    headStatus = 200;
    await nextTry(); // 10 s: a stream, which is given up at once
    expect(streams()).toHaveLength(2);
    last().givesUp();
    await nextTry(); // 20 s: a stream that opens
    expect(streams()).toHaveLength(3);
    last().opens();
    last().givesUp();
    await nextTry(); // 2.5 s again
    expect(waits).toEqual([2.5, 5, 10, 20, 2.5]);
  });

  it('waits for the server to be reachable again, or for the browser to come online, before trying', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    open();
    reaching = false;
    noteNetworkFailure();
    noteNetworkFailure();
    last().givesUp();
    await vi.advanceTimersByTimeAsync(REOPEN_MAX_MS);
    expect(heads).toHaveLength(0);
    expect(isServerUnreachable()).toBe(true);
    // The reachability module's next probe gets an answer.
    reaching = true;
    await vi.advanceTimersByTimeAsync(30_000);
    await until(() => streams().length === 2, 'a stream once the server answers');
    expect(heads).toHaveLength(1);

    const offline = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    last().givesUp();
    await vi.advanceTimersByTimeAsync(REOPEN_MAX_MS);
    expect(heads).toHaveLength(1);
    offline.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    await until(() => streams().length === 3, 'a stream once the browser is online');
    expect(heads).toHaveLength(2);
  });
});

describe('never after it was closed', () => {
  it('closed while waiting: no try comes', async () => {
    open();
    last().givesUp();
    closeStream();
    await vi.advanceTimersByTimeAsync(REOPEN_MAX_MS * 2);
    await settle();
    expect(heads).toHaveLength(0);
    expect(streams()).toHaveLength(1);
  });

  it('closed while waiting for the server to be reachable: no try comes when it is', async () => {
    open();
    reaching = false;
    noteNetworkFailure();
    noteNetworkFailure();
    last().givesUp();
    await vi.advanceTimersByTimeAsync(REOPEN_MAX_MS);
    closeStream();
    reaching = true;
    noteAnswered();
    window.dispatchEvent(new Event('online'));
    await settle();
    expect(heads).toHaveLength(0);
    expect(streams()).toHaveLength(1);
  });

  it('closed while its HEAD was on its way: no stream opens when the answer comes', async () => {
    let answer: (response: Response) => void = () => undefined;
    fakeFetch((request) => {
      if (request.path !== STREAM) return undefined;
      heads.push(request);
      return new Promise<Response>((resolve) => (answer = resolve));
    });
    open();
    last().givesUp();
    await vi.advanceTimersByTimeAsync(REOPEN_FIRST_MS);
    await until(() => heads.length === 1, 'the HEAD');
    closeStream();
    answer(new Response(null, { status: 200, headers: { 'content-type': 'text/event-stream' } }));
    await settle();
    await vi.advanceTimersByTimeAsync(REOPEN_MAX_MS * 2);
    expect(streams()).toHaveLength(1);
    expect(heads).toHaveLength(1);
  });

  it('a 401 signs the person out, as any request does, and nothing is tried again', async () => {
    setAccount(makeAccount());
    expect(getSessionStub()).not.toBeNull();
    headStatus = 401;
    open();
    last().givesUp();
    await vi.advanceTimersByTimeAsync(REOPEN_FIRST_MS);
    await until(() => heads.length === 1, 'the HEAD');
    await settle();
    // The HTTP client's 401 expired the session: the app signs out, which stops the replication and its stream.
    expect(getSessionStub()).toBeNull();
    await vi.advanceTimersByTimeAsync(REOPEN_MAX_MS * 4);
    await settle();
    expect(heads).toHaveLength(1);
    expect(streams()).toHaveLength(1);
  });
});
