import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JOURNAL_THEME_NOT_FOUND } from '@/contract/residents';
import {
  NOT_SENT_MESSAGE,
  configureOutbox,
  countUnsent,
  discardUnsent,
  enqueueWrite,
  replayHere,
  resetOutboxConfig,
  resumeOutbox,
  retryFailedWrite,
  waitForOutboxToDrain,
  wipeOutbox,
} from '@/data/outbox/outbox';
import type { OutcomeSink, SyncStateValue } from '@/data/outbox/outcomes';
import { allRecords, updateRecord } from '@/data/outbox/store';
import type { LocalRef } from '@/data/outbox/types';
import { entryWrite, fakeTransport, freshStore, ok, testKey } from './outbox-support';
import { waitUntil } from '../support/wait';

const localWrites = vi.hoisted(() => ({ applyLocalChange: vi.fn(async () => undefined) }));
vi.mock('@/data/replica/local-writes', () => localWrites);
const { updateAppSettings, ERROR_UPDATING_JOURNAL } = await import('@/features/journal/actions/update-app-settings');

function recordingSink() {
  const states: [LocalRef, SyncStateValue][] = [];
  const resyncs: string[][] = [];
  const sink: OutcomeSink = {
    setSyncState: async (local, sync) => void states.push([local, sync]),
    requestResync: (topics) => void resyncs.push([...topics]),
  };
  return { sink, states, resyncs };
}

let store: ReturnType<typeof freshStore>;
beforeEach(() => {
  store = freshStore();
  localWrites.applyLocalChange.mockClear();
});
afterEach(() => resetOutboxConfig());

function setUp(answer: Parameters<typeof fakeTransport>[0]) {
  const key = testKey();
  const server = fakeTransport(answer);
  const recorded = recordingSink();
  configureOutbox({ ...store, getKey: async () => key, transport: server.transport, sink: recorded.sink, apiBase: () => '/api', pageOnly: true });
  return { key, server, ...recorded };
}

describe('the page side of the outbox (no service worker)', () => {
  it('sends what was enqueued, marks the local document synced and asks for a re-sync', async () => {
    const { server, states, resyncs } = setUp(ok);
    const input = entryWrite();
    await enqueueWrite(input);
    const { drained } = await waitForOutboxToDrain(5_000);
    expect(drained).toBe(true);
    await waitUntil(() => expect(states).toHaveLength(1));
    expect(server.sent).toHaveLength(1);
    // The sink learns which entry the outcome is for (a later change to the document is not settled by it).
    const [sent] = server.sent;
    expect(states[0]).toEqual([{ ...input.local, outboxId: sent!.request.headers['Idempotency-Key'] }, { state: 'synced', message: null, outbox_id: null }]);
    expect(resyncs).toEqual([['journal']]);
    await waitUntil(async () => expect(await allRecords(store)).toEqual([]));
  });

  it('updateAppSettings: optimistic pending document, then failed with the server’s 422 message', async () => {
    const { server, states } = setUp(() => ({ status: 422, body: { success: false, message: JOURNAL_THEME_NOT_FOUND } }));
    const current = { journal_colour: 'sky', journal_paper: 'plain', theme: 'fun' } as const;
    const result = await updateAppSettings('resident-1', current, { journal_colour: 'tartan' });
    expect(result.ok).toBe(true);
    const outboxId = result.ok ? result.data.outboxId : '';
    expect(localWrites.applyLocalChange).toHaveBeenCalledWith(
      'resident',
      'resident-1',
      { app_settings: { journal_colour: 'tartan', journal_paper: 'plain', theme: 'fun' } },
      { state: 'pending', message: null, outbox_id: outboxId },
    );
    await waitUntil(() => expect(states).toHaveLength(1));
    expect(server.sent[0]!.request.url).toBe('/api/v1/projects/residents/resident-1/app-settings');
    expect(server.sent[0]!.json).toBe('{"journal_colour":"tartan"}');
    expect(states[0]).toEqual([
      { collection: 'resident', id: 'resident-1', outboxId },
      { state: 'failed', message: JOURNAL_THEME_NOT_FOUND, outbox_id: outboxId },
    ]);
    expect(await countUnsent()).toEqual({ pending: 0, held: 0, failed: 1 });
    expect(ERROR_UPDATING_JOURNAL).toBe('There was an error updating your journal.');
  });

  it('held entries wait for sign-in; resumeOutbox sends them', async () => {
    let status = 401;
    const { server } = setUp(() => (status === 200 ? ok() : { status, body: null }));
    await enqueueWrite(entryWrite());
    const first = await waitForOutboxToDrain(2_000);
    expect(first).toMatchObject({ drained: false, counts: { held: 1 } });
    status = 200;
    await resumeOutbox();
    expect(server.sent).toHaveLength(2);
    expect(await countUnsent()).toEqual({ pending: 0, held: 0, failed: 0 });
  });

  it('Try again after a refusal goes under a new Idempotency-Key (the server gives a key\'s refusal back for a day); it reaches the server once the reason passed', async () => {
    let refuse = 2;
    const { server, states } = setUp(() => (refuse-- > 0 ? { status: 422, body: { success: false, message: 'Closed' } } : ok()));
    const input = entryWrite();
    await enqueueWrite(input);
    await waitUntil(() => expect(states.map(([, sync]) => sync.state)).toEqual(['failed']));
    expect(await retryFailedWrite(input.idempotencyKey)).toBe(true);
    await waitUntil(() => expect(states.map(([, sync]) => sync.state)).toEqual(['failed', 'failed']));
    expect(await retryFailedWrite(input.idempotencyKey)).toBe(true);
    await waitUntil(() => expect(states.map(([, sync]) => sync.state)).toEqual(['failed', 'failed', 'synced']));
    const keys = server.sent.map((sent) => sent.request.headers['Idempotency-Key']);
    expect(keys).toEqual([input.idempotencyKey, `${input.idempotencyKey}.1`, `${input.idempotencyKey}.2`]);
    // The local document keeps its outbox id through every try.
    expect(states.map(([local]) => local.outboxId)).toEqual([input.idempotencyKey, input.idempotencyKey, input.idempotencyKey]);
  });

  it('a write that failed without a refusal is sent again under its own key: the server may have it already', async () => {
    let answers = 0;
    const { server } = setUp(() => (answers++ === 0 ? { status: 0, body: null } : ok()));
    const input = entryWrite();
    await enqueueWrite(input);
    await waitUntil(() => expect(server.sent).toHaveLength(1));
    // What a write left when it ran out of tries: failed, its last answer no answer at all.
    await updateRecord(store, input.idempotencyKey, (current) => ({ ...current, state: 'failed', leaseUntil: 0, nextAttemptAt: 0 }));
    expect(await retryFailedWrite(input.idempotencyKey)).toBe(true);
    await waitUntil(() => expect(server.sent).toHaveLength(2));
    expect(server.sent[1]!.request.headers['Idempotency-Key']).toBe(input.idempotencyKey);
  });

  it('counts, discards (keeping the text, marked not sent) and wipes', async () => {
    const { states } = setUp(() => ({ status: 0, body: null }));
    const a = entryWrite();
    await enqueueWrite(a);
    await enqueueWrite(entryWrite());
    await replayHere();
    expect((await countUnsent()).pending).toBe(2);
    const { drained } = await waitForOutboxToDrain(50);
    expect(drained).toBe(false);

    expect(await discardUnsent()).toBe(2);
    expect(states).toContainEqual([a.local, { state: 'failed', message: NOT_SENT_MESSAGE, outbox_id: null }]);
    expect(await countUnsent()).toEqual({ pending: 0, held: 0, failed: 0 });

    await enqueueWrite(entryWrite());
    await wipeOutbox();
    const names = (await store.indexedDB.databases()).map((d) => d.name);
    expect(names).not.toContain(store.databaseName);
  });
});
