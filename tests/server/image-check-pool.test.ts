import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BroadcastChannel } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';
import { ClassifierUnavailableError, createNsfwClassifier, defaultImageCheckWorkers, type NsfwClassifier, type NsfwClassifierOptions } from '../../server/lib/image-classifier';
import { WAIT_MS } from '../support/timeouts';

/**
 * The image check's pool of worker threads, with a stand-in worker (support/fake-nsfw-worker.mjs:
 * the real messages, no model, so these run in milliseconds): checks run on several workers at
 * once, an animation's frames are spread over them, a check past its time limit ends only its own
 * workers, a worker that dies fails only its own check, and close() ends every worker.
 */
const FAKE = new URL('./support/fake-nsfw-worker.mjs', import.meta.url);
const picture = (script: Record<string, unknown>) => Buffer.from(JSON.stringify(script));

interface Event {
  event: 'start' | 'end';
  tag: string;
  frame: number;
  thread: number;
}

let channel: BroadcastChannel;
let events: Event[];
const pools: NsfwClassifier[] = [];
beforeEach(() => {
  events = [];
  channel = new BroadcastChannel('fake-nsfw');
  channel.onmessage = (message) => {
    const data = (message as { data: Event | { word: string } }).data;
    if ('event' in data) events.push(data);
  };
});
afterEach(async () => {
  channel.close();
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

/** Two stand-in workers; `options` stays the classifier's own object (timeoutMs is read per check). */
function pool(options: NsfwClassifierOptions = {}) {
  options.workerUrl ??= FAKE;
  options.workers ??= 2;
  options.timeoutMs ??= WAIT_MS;
  const p = createNsfwClassifier(options);
  pools.push(p);
  return p;
}
/** Lets waiting tasks answer (`wait` in their script). */
const say = (word: string) => {
  const c = new BroadcastChannel('fake-nsfw');
  c.postMessage({ word });
  c.close();
};
async function until(what: string, ok: () => boolean) {
  const deadline = Date.now() + WAIT_MS;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`waited ${WAIT_MS} ms for ${what}; events: ${JSON.stringify(events)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
const started = (tag: string) => events.filter((e) => e.event === 'start' && e.tag === tag);

describe('the image check pool', () => {
  it('runs checks on every worker at once and answers each', async () => {
    const p = pool();
    // Both first checks hold their worker until released: the third waits for a free one.
    const first = p.classify(picture({ tag: 'a', wait: 'go' }), 'image/png');
    const second = p.classify(picture({ tag: 'b', wait: 'go' }), 'image/png');
    const third = p.classify(picture({ tag: 'c' }), 'image/png');
    await until('a and b running together', () => started('a').length === 1 && started('b').length === 1);
    expect(started('a')[0]!.thread).not.toBe(started('b')[0]!.thread);
    expect(p.stats()).toEqual({ workers: 2, busy: 2, queued: 1 });
    expect(started('c')).toEqual([]);
    say('go');
    for (const result of await Promise.all([first, second, third])) {
      expect(result).toMatchObject({ kind: 'ok', frames: [{ frame: 0 }] });
    }
    expect(p.stats()).toEqual({ workers: 2, busy: 0, queued: 0 });
  });

  it("spreads an animation's frames over the workers and keeps the most explicit frame", async () => {
    const p = pool();
    // Each frame holds its worker until released: frames 0 and 1 must be running at the same time.
    const check = p.classify(picture({ tag: 'gif', frames: 3, wait: 'spread' }), 'image/gif');
    await until('two frames running together', () => started('gif').length === 2);
    expect(new Set(started('gif').map((e) => e.thread)).size).toBe(2);
    expect(started('gif').map((e) => e.frame).sort()).toEqual([0, 1]);
    say('spread');
    const result = await check;
    if (result?.kind !== 'ok') throw new Error(`not classified: ${JSON.stringify(result)}`);
    expect(result.frames!.map((f) => f.frame)).toEqual([0, 1, 2]);
    // The stand-in scores Porn = frame / 100: the last frame is the most explicit.
    expect(result.probabilities).toEqual(result.frames![2]!.probabilities);
    expect(result.probabilities.Porn).toBe(0.02);
  });

  it('a check past its time limit ends only its own worker: the other checks are answered', async () => {
    const options: NsfwClassifierOptions = { timeoutMs: 500 };
    const p = pool(options);
    await p.warm();
    const stuck = p.classify(picture({ tag: 'stuck', hang: [0] }), 'image/png');
    await until('the stuck check running', () => started('stuck').length === 1);
    options.timeoutMs = WAIT_MS;
    // One check runs on the other worker while the stuck one times out; one waits for a worker.
    const running = p.classify(picture({ tag: 'running', wait: 'finish' }), 'image/png');
    const waiting = p.classify(picture({ tag: 'waiting' }), 'image/png');
    await expect(stuck).rejects.toBeInstanceOf(ClassifierUnavailableError);
    await expect(stuck).rejects.toThrow(/timed out/);
    say('finish');
    await expect(running).resolves.toMatchObject({ kind: 'ok' });
    await expect(waiting).resolves.toMatchObject({ kind: 'ok' });
    // The workers report on a broadcast channel that may deliver after their answers.
    await until('both checks seen starting', () => started('running').length === 1 && started('waiting').length === 1);
    const runningThread = started('running')[0]!.thread;
    expect(runningThread).not.toBe(started('stuck')[0]!.thread);
    // The stuck worker was replaced: the waiting check ran on a new thread, and the pool is whole.
    expect([started('stuck')[0]!.thread, runningThread]).not.toContain(started('waiting')[0]!.thread);
    expect(p.stats()).toEqual({ workers: 2, busy: 0, queued: 0 });
  });

  it('a worker that dies fails its own check only; an undecodable frame makes the picture undecodable', async () => {
    const p = pool();
    const crashed = p.classify(picture({ tag: 'crash', crash: [0] }), 'image/png');
    const fine = p.classify(picture({ tag: 'fine' }), 'image/png');
    await expect(crashed).rejects.toBeInstanceOf(ClassifierUnavailableError);
    await expect(fine).resolves.toMatchObject({ kind: 'ok' });
    await expect(p.classify(picture({ tag: 'broken', frames: 3, undecodable: [2] }), 'image/webp')).resolves.toEqual({ kind: 'undecodable', reason: 'frame 2 is broken' });
    await expect(p.classify(picture({ tag: 'after' }), 'image/png')).resolves.toMatchObject({ kind: 'ok' });
    // Not an image the check decodes: nothing is sent to a worker.
    await expect(p.classify(picture({ tag: 'pdf' }), 'application/pdf')).resolves.toBeNull();
    expect(started('pdf')).toEqual([]);
  });

  it('close() ends every worker; checks waiting or running reject as unavailable', async () => {
    const p = pool();
    expect(await p.warm()).toEqual([{ backend: 'fake', loadMs: 0 }, { backend: 'fake', loadMs: 0 }]);
    expect(p.stats().workers).toBe(2);
    const running = p.classify(picture({ tag: 'one', hang: [0] }), 'image/png');
    const other = p.classify(picture({ tag: 'two', hang: [0] }), 'image/png');
    const queued = p.classify(picture({ tag: 'three' }), 'image/png');
    await until('both workers busy', () => started('one').length + started('two').length === 2);
    const outcomes = Promise.allSettled([running, other, queued]);
    await p.close();
    expect(p.stats()).toEqual({ workers: 0, busy: 0, queued: 0 });
    for (const outcome of await outcomes) {
      expect(outcome.status).toBe('rejected');
      expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(ClassifierUnavailableError);
      expect(String((outcome as PromiseRejectedResult).reason)).toMatch(/stopped/);
    }
    await expect(p.classify(picture({ tag: 'late' }), 'image/png')).rejects.toBeInstanceOf(ClassifierUnavailableError);
    expect(started('three')).toEqual([]);
  });
});

describe('image check configuration', () => {
  const env = (more: Record<string, string>) => ({ APP_KEY: randomBytes(32).toString('base64'), DATA_DIR: mkdtempSync(join(tmpdir(), 'hearth-image-check-')), ...more });

  it('defaults: WebAssembly, one worker per core up to two, warm at start in production only', () => {
    expect(defaultImageCheckWorkers()).toBeGreaterThanOrEqual(1);
    expect(defaultImageCheckWorkers()).toBeLessThanOrEqual(2);
    expect(loadConfig(env({ NODE_ENV: 'production' })).imageCheck).toEqual({ workers: defaultImageCheckWorkers(), backend: 'wasm', warm: true });
    expect(loadConfig(env({ NODE_ENV: 'test' })).imageCheck.warm).toBe(false);
    expect(loadConfig(env({ NODE_ENV: 'development' })).imageCheck.warm).toBe(false);
  });

  it('IMAGE_CHECK_WORKERS, IMAGE_CHECK_BACKEND and IMAGE_CHECK_WARM are read and checked', () => {
    expect(loadConfig(env({ NODE_ENV: 'test', IMAGE_CHECK_WORKERS: '4', IMAGE_CHECK_BACKEND: 'cpu', IMAGE_CHECK_WARM: 'true' })).imageCheck).toEqual({ workers: 4, backend: 'cpu', warm: true });
    expect(loadConfig(env({ NODE_ENV: 'production', IMAGE_CHECK_WARM: 'false' })).imageCheck.warm).toBe(false);
    for (const bad of [{ IMAGE_CHECK_WORKERS: '0' }, { IMAGE_CHECK_WORKERS: 'two' }, { IMAGE_CHECK_BACKEND: 'webgl' }] as Record<string, string>[]) {
      expect(() => loadConfig(env(bad))).toThrow(ConfigError);
    }
  });
});
