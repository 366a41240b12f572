import { describe, expect, it, vi } from 'vitest';
import { IDEMPOTENCY_HEADER } from '@/contract/sync';
import { backoffPolicy, retryDelayMs } from '@/data/outbox/backoff';
import { countRecords, makeWaitingDue, releaseHeld } from '@/data/outbox/queue';
import { replayOutbox, sendTimeoutMs } from '@/data/outbox/replay';
import { openValue } from '@/data/outbox/seal';
import { allRecords, getRecord, updateRecord } from '@/data/outbox/store';
import { claim } from '@/data/outbox/transition';
import { IDEMPOTENCY_KEY_HEADER } from '@/data/outbox/types';
import { enqueue, entryWrite, fakeTransport, freshStore, ok, replayOptions, testKey } from './outbox-support';

describe('outbox replay rules', () => {
  it('uses the contract’s idempotency header name', () => {
    expect(IDEMPOTENCY_KEY_HEADER).toBe(IDEMPOTENCY_HEADER);
  });

  it('2xx: sent exactly once even when two replays run at the same time', async () => {
    const store = freshStore();
    const key = testKey();
    const server = fakeTransport(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return ok();
    });
    const entry = await enqueue(store, key, entryWrite());
    const options = replayOptions(store, key, server.transport);
    const [a, b] = await Promise.all([replayOutbox(options), replayOutbox(options)]);
    expect(server.sent).toHaveLength(1);
    expect(a.sent + b.sent).toBeGreaterThanOrEqual(1);
    const record = await getRecord(store, entry.id);
    expect(record?.state).toBe('sent');
    expect(record?.request).toBeNull(); // the body is wiped once delivered
    expect(record?.files).toEqual([]);
    await replayOutbox(options);
    expect(server.sent).toHaveLength(1);
  });

  it('2xx once even without the lock: the lease on the entry stops a second replayer (two contexts)', async () => {
    const store = freshStore();
    const key = testKey();
    const server = fakeTransport(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return ok();
    });
    await enqueue(store, key, entryWrite());
    await enqueue(store, key, entryWrite());
    const options = replayOptions(store, key, server.transport, { exclusive: false });
    await Promise.all([replayOutbox(options), replayOutbox(options), replayOutbox(options)]);
    expect(server.sent).toHaveLength(2);
    expect(new Set(server.sent.map((s) => s.request.headers[IDEMPOTENCY_HEADER])).size).toBe(2);
  });

  it('a lease left by a replayer that went away mid-flight (a page reloaded while sending) holds the entry back only where no lock spans the contexts', async () => {
    const store = freshStore();
    const key = testKey();
    const server = fakeTransport(() => ok());
    const entry = await enqueue(store, key, entryWrite());
    // Claimed by a replayer whose page then closed: the lease runs LEASE_MS, no answer was ever recorded.
    expect(await updateRecord(store, entry.id, (current) => claim(current, Date.now()))).not.toBeNull();
    const options = replayOptions(store, key, server.transport);

    // This context's mutex alone: another context could still be sending it, so the lease stands.
    expect((await replayOutbox(options)).sent).toBe(0);
    expect(server.sent).toHaveLength(0);

    // The Web Lock page and worker share, free: no replayer is running anywhere, the lease is stale.
    const held: string[] = [];
    const locks = { request: async (name: string, _options: unknown, work: () => Promise<unknown>) => (held.push(name), work()) };
    vi.stubGlobal('navigator', { locks });
    try {
      expect((await replayOutbox(options)).sent).toBe(1);
    } finally {
      vi.unstubAllGlobals();
    }
    expect(held).toHaveLength(1);
    expect(server.sent.map((s) => s.request.headers[IDEMPOTENCY_HEADER])).toEqual([entry.id]);
    expect((await getRecord(store, entry.id))?.state).toBe('sent');
  });

  it('a request that hangs (a half-dead connection) is given up and aborted after its time: retried later, the lock free meanwhile', async () => {
    const store = freshStore();
    const key = testKey();
    const signals: AbortSignal[] = [];
    let hang = true;
    const server = fakeTransport((request) => {
      signals.push(request.signal!);
      if (!hang) return ok();
      return new Promise<never>(() => undefined); // never answers, whatever the signal says
    });
    const entry = await enqueue(store, key, entryWrite());
    const timeouts: number[] = [];
    const options = replayOptions(store, key, server.transport, { timeoutFor: (bytes: number) => (timeouts.push(bytes), 50) });
    const report = await replayOutbox(options);
    expect(report).toMatchObject({ sent: 0, retrying: 1 });
    expect(signals[0]!.aborted).toBe(true);
    expect(timeouts[0]).toBeGreaterThan(0);
    expect(await getRecord(store, entry.id)).toMatchObject({ state: 'pending', attempts: 1, lastStatus: 0, leaseUntil: 0 });

    hang = false;
    await makeWaitingDue(store);
    expect((await replayOutbox(options)).sent).toBe(1);
    expect(server.sent.map((s) => s.request.headers[IDEMPOTENCY_HEADER])).toEqual([entry.id, entry.id]);
  });

  it('waits for a write longer the more it carries: 30 s, and a second per 10 KB', () => {
    expect(sendTimeoutMs(200)).toBe(30_020);
    expect(sendTimeoutMs(2_000_000)).toBe(230_000);
  });

  it('422: failed with the server’s message, the body kept, never sent again by itself', async () => {
    const store = freshStore();
    const key = testKey();
    const server = fakeTransport(() => ({
      status: 422,
      body: { success: false, message: 'personalised_journal theme not found', errors: { journal_colour: ['x'] } },
    }));
    const entry = await enqueue(store, key, entryWrite({ json: { journal_colour: 'tartan' }, fields: undefined }));
    const report = await replayOutbox(replayOptions(store, key, server.transport));
    expect(report.failed).toBe(1);
    const record = await getRecord(store, entry.id);
    expect(record?.state).toBe('failed');
    expect(openValue<string>(key, entry.id, 'failure', record!.failure!)).toBe('personalised_journal theme not found');
    expect(record?.request).not.toBeNull();
    expect(JSON.stringify(openValue(key, entry.id, 'request', record!.request!))).toContain('tartan');
    await replayOutbox(replayOptions(store, key, server.transport));
    expect(server.sent).toHaveLength(1);
    expect(await countRecords(store)).toEqual({ pending: 0, held: 0, failed: 1 });
  });

  it('another refusal without a message: failed with the action’s own message', async () => {
    const store = freshStore();
    const key = testKey();
    const server = fakeTransport(() => ({ status: 403, body: null }));
    const entry = await enqueue(store, key, entryWrite());
    await replayOutbox(replayOptions(store, key, server.transport));
    const record = await getRecord(store, entry.id);
    expect(openValue<string>(key, entry.id, 'failure', record!.failure!)).toBe('There was an error posting your entry');
  });

  for (const status of [401, 419]) {
    it(`${status}: held, nothing more is sent until the person signs in again`, async () => {
      const store = freshStore();
      const key = testKey();
      let answer = status;
      const server = fakeTransport(() => (answer === 200 ? ok() : { status: answer, body: { success: false, message: 'no' } }));
      const messages: string[] = [];
      const first = await enqueue(store, key, entryWrite());
      await enqueue(store, key, entryWrite());
      const options = replayOptions(store, key, server.transport, { notify: (m) => messages.push(m.type) });

      const report = await replayOutbox(options);
      expect(report.held).toBe(true);
      expect(server.sent).toHaveLength(1); // stops at the first
      expect((await getRecord(store, first.id))?.state).toBe('held');
      expect(messages).toContain('outbox:held');
      await replayOutbox(options);
      await replayOutbox(options);
      expect(server.sent).toHaveLength(1);

      answer = 200;
      expect(await releaseHeld(store)).toBe(1);
      await replayOutbox(options);
      expect(server.sent).toHaveLength(3);
      expect((await allRecords(store)).every((r) => r.state === 'sent')).toBe(true);
      // The retried first entry carried the same key as its first attempt.
      expect(server.sent[1]!.request.headers[IDEMPOTENCY_HEADER]).toBe(first.id);
    });
  }

  for (const [label, answer] of [
    ['503', { status: 503, body: null }],
    ['a network error', { status: 0, body: null }],
  ] as const) {
    it(`${label}: retried with exponential backoff, the Idempotency-Key unchanged`, async () => {
      const store = freshStore();
      const key = testKey();
      let clock = 1_000_000;
      let failures = 3;
      const server = fakeTransport(() => (failures-- > 0 ? answer : ok()));
      const entry = await enqueue(store, key, entryWrite(), () => clock);
      const options = replayOptions(store, key, server.transport, { now: () => clock, random: () => 0.5 });

      const delays: number[] = [];
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        const report = await replayOutbox(options);
        expect(report.retrying).toBe(1);
        const record = await getRecord(store, entry.id);
        expect(record?.state).toBe('pending');
        expect(record?.attempts).toBe(attempt);
        delays.push(record!.nextAttemptAt - clock);
        // Not yet due: nothing is sent.
        await replayOutbox(options);
        expect(server.sent).toHaveLength(attempt);
        clock = record!.nextAttemptAt;
      }
      expect(delays[1]).toBeGreaterThan(delays[0]!);
      expect(delays[2]).toBeGreaterThan(delays[1]!);

      const report = await replayOutbox(options);
      expect(report.sent).toBe(1);
      expect(server.sent).toHaveLength(4);
      expect(new Set(server.sent.map((s) => s.request.headers[IDEMPOTENCY_HEADER]))).toEqual(new Set([entry.id]));
    });
  }

  it('coming back online makes an entry waiting out its backoff due at once', async () => {
    const store = freshStore();
    const key = testKey();
    const clock = 1_000_000;
    let offline = true;
    const server = fakeTransport(() => (offline ? { status: 0, body: null } : ok()));
    const entry = await enqueue(store, key, entryWrite(), () => clock);
    const options = replayOptions(store, key, server.transport, { now: () => clock, random: () => 0.5 });
    await replayOutbox(options);
    expect((await getRecord(store, entry.id))?.nextAttemptAt).toBeGreaterThan(clock);

    offline = false;
    // Still backing off: the same instant sends nothing...
    expect((await replayOutbox(options)).sent).toBe(0);
    // ...until the network is back.
    expect(await makeWaitingDue(store)).toBe(1);
    expect((await replayOutbox(options)).sent).toBe(1);
    expect(server.sent).toHaveLength(2);
  });

  it('backoff is capped and jittered', () => {
    expect(retryDelayMs(1, () => 0)).toBe(backoffPolicy.baseMs / 2);
    expect(retryDelayMs(1, () => 1)).toBe(backoffPolicy.baseMs);
    expect(retryDelayMs(30, () => 1)).toBe(backoffPolicy.capMs);
    expect(retryDelayMs(2, () => 0, 60_000)).toBe(60_000); // Retry-After wins when longer
  });

  it('keeps the order per document: a later change waits while an earlier one backs off', async () => {
    const store = freshStore();
    const key = testKey();
    let clock = 5_000_000;
    let down = true;
    const server = fakeTransport(() => (down ? { status: 502, body: null } : ok()));
    const local = { collection: 'feedback' as const, id: 'doc-1' };
    const create = await enqueue(store, key, entryWrite({ local }), () => clock);
    const update = await enqueue(store, key, entryWrite({ local, methodOverride: 'PUT', path: '/v1/x/doc-1' }), () => clock);
    const other = await enqueue(store, key, entryWrite(), () => clock);
    const options = replayOptions(store, key, server.transport, { now: () => clock });
    await replayOutbox(options);
    // The create failed and backs off; its update waits; another document's entry is tried.
    expect(server.sent.map((s) => s.request.headers[IDEMPOTENCY_HEADER])).toEqual([create.id, other.id]);
    down = false;
    clock += 10 * 60_000;
    await replayOutbox(options);
    expect(server.sent.map((s) => s.request.headers[IDEMPOTENCY_HEADER])).toEqual([create.id, other.id, create.id, update.id, other.id]);
  });

  it('without a readable key or a CSRF token, sends nothing and asks for a page', async () => {
    const store = freshStore();
    const key = testKey();
    const server = fakeTransport(ok);
    await enqueue(store, key, entryWrite());
    const messages: unknown[] = [];
    const noKey = await replayOutbox({ ...replayOptions(store, key, server.transport), getKey: async () => null, notify: (m) => messages.push(m) });
    expect(noKey.waitingFor).toBe('key');
    server.setToken(null);
    const noToken = await replayOutbox(replayOptions(store, key, server.transport, { notify: (m) => messages.push(m) }));
    expect(noToken.waitingFor).toBe('csrf');
    expect(server.sent).toHaveLength(0);
    expect(messages).toEqual([
      { type: 'outbox:need-page', reason: 'key' },
      { type: 'outbox:need-page', reason: 'csrf' },
    ]);
  });
});
