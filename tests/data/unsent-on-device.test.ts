/**
 * A change whose write never reached the outbox (the page died between the replica's write and the
 * outbox's) is not left "pending" for ever, and the logout warning counts what the wipe would
 * delete although no queued write holds it (src/data/unsent-on-device.ts).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { replicaOutcomeSink } from '@/app/start-outbox-side';
import { NOT_SENT_MESSAGE, configureOutbox, countUnsent, resetOutboxConfig } from '@/data/outbox/outbox';
import type { DataKey } from '@/data/crypto/key-vault';
import { closeReplica, openReplicaForAccount, type ReplicaOptions } from '@/data/replica/lifecycle';
import type { OpenReplica } from '@/data/replica/replica-store';
import type { JournalDoc } from '@/data/replica/types';
import { markNeverQueued } from '@/data/replica/unsent-documents';
import { countUnsentOnDevice, startNeverQueuedSweep, sweepNeverQueued } from '@/data/unsent-on-device';
import { saveJournalEntry } from '@/features/journal/actions/save-journal-entry';
import { account } from './entries-support';
import { fakeIdb, randomKey, uniqueName } from './fixtures';
import { fakeTransport, freshStore, testKey } from './outbox-support';
import { waitUntil } from '../support/wait';

vi.mock('@/api/entries/check-image', () => ({ checkImage: vi.fn(async () => ({ ok: false, status: 0, message: '' })) }));

const WORDS = 'what I wrote before the tablet died';
const replica: ReplicaOptions = { ...fakeIdb, multiInstance: false, key: randomKey(), replicate: false };
let open: OpenReplica;
let store: ReturnType<typeof freshStore>;

beforeEach(async () => {
  // Offline: nothing is delivered, so whatever is queued stays queued.
  vi.stubGlobal('navigator', { onLine: false });
  store = freshStore();
  open = await openReplicaForAccount(account, uniqueName('site'), replica);
});
afterEach(async () => {
  resetOutboxConfig();
  vi.unstubAllGlobals();
  await closeReplica();
});

function outboxWith(getKey: () => Promise<DataKey>) {
  const fake = fakeTransport(() => ({ status: 0, body: null }));
  configureOutbox({ ...store, getKey, transport: fake.transport, apiBase: () => '/api', pageOnly: true, sink: replicaOutcomeSink });
}

const journalDoc = async (id: string) => (await open.db.journal.findOne(id).exec())?.toJSON() as JournalDoc | undefined;

/**
 * Saves an entry whose write never reaches the queue, as when the page dies after the replica's
 * write: the data key never comes, so the save stops right there (its promise never settles).
 */
async function saveThenDie(): Promise<JournalDoc> {
  outboxWith(() => new Promise<DataKey>(() => undefined));
  void saveJournalEntry({ description: WORDS });
  let doc: JournalDoc | undefined;
  await waitUntil(async () => {
    doc = (await open.db.journal.find().exec())[0]?.toJSON() as JournalDoc | undefined;
    expect(doc?.sync_state).toBe('pending');
  });
  // The page is gone: what is left is this device's storage, read by the next page.
  const key = testKey();
  outboxWith(async () => key);
  return doc!;
}

describe('a change whose write never reached the outbox', () => {
  it('is marked not sent once no save can still be on its way, keeping the words', async () => {
    const orphan = await saveThenDie();
    expect(orphan.sync_outbox_id).toBeTruthy();

    // A moment later another tab could still be sealing its files: left alone, due later.
    const early = await sweepNeverQueued(open, { now: Date.now(), graceMs: 60_000 });
    expect(early.marked).toBe(0);
    expect(early.nextDueAt).toBeGreaterThan(Date.now());
    expect((await journalDoc(orphan.id))?.sync_state).toBe('pending');

    const late = await sweepNeverQueued(open, { now: Date.now() + 60_001, graceMs: 60_000 });
    expect(late).toEqual({ marked: 1, nextDueAt: null });
    expect(await journalDoc(orphan.id)).toMatchObject({ description: WORDS, sync_state: 'failed', sync_message: NOT_SENT_MESSAGE, sync_outbox_id: null });
  });

  it('leaves a change whose write is queued, and a change made since, as they are', async () => {
    const key = testKey();
    outboxWith(async () => key);
    const queued = await saveJournalEntry({ description: 'queued while offline' });
    expect(queued.ok).toBe(true);
    const id = queued.ok ? queued.id : '';
    const before = await journalDoc(id);
    expect(await countUnsent()).toMatchObject({ pending: 1 });

    expect(await sweepNeverQueued(open, { now: Date.now() + 3_600_000 })).toEqual({ marked: 0, nextDueAt: null });
    expect(await journalDoc(id)).toMatchObject({ sync_state: 'pending', sync_outbox_id: before?.sync_outbox_id });
    // A mark decided on an older write does not touch the document's newer one.
    expect(await markNeverQueued(open.db, { collection: 'journal', id, outboxId: 'an-older-write' }, NOT_SENT_MESSAGE)).toBe(false);
    expect((await journalDoc(id))?.sync_state).toBe('pending');
  });

  it('is swept a little after the replica opens, and again when one held back is due', async () => {
    const orphan = await saveThenDie();
    const stop = startNeverQueuedSweep({ delayMs: 20, graceMs: 300 });
    try {
      await waitUntil(async () => expect((await journalDoc(orphan.id))?.sync_state).toBe('failed'));
      expect((await journalDoc(orphan.id))?.sync_message).toBe(NOT_SENT_MESSAGE);
    } finally {
      stop();
    }
  });
});

describe('the logout warning', () => {
  it('counts a change whose write never reached the outbox, which the wipe would delete', async () => {
    await saveThenDie();
    expect(await countUnsent()).toEqual({ pending: 0, held: 0, failed: 0 });
    expect(await countUnsentOnDevice()).toEqual({ pending: 0, held: 0, failed: 1, notQueued: 1, drafts: 0 });
  });

  it('counts an entry the outbox could not take (kept on the device, marked failed), once', async () => {
    outboxWith(() => Promise.reject(new Error('no data key here')));
    const result = await saveJournalEntry({ description: WORDS });
    expect(result.ok).toBe(false);
    const [doc] = (await open.db.journal.find().exec()).map((d) => d.toJSON() as JournalDoc);
    expect(doc).toMatchObject({ description: WORDS, sync_state: 'failed', sync_outbox_id: null });
    expect(await countUnsentOnDevice()).toMatchObject({ failed: 1, notQueued: 1 });
  });

  it('does not count a queued change twice', async () => {
    const key = testKey();
    outboxWith(async () => key);
    expect((await saveJournalEntry({ description: 'queued' })).ok).toBe(true);
    expect(await countUnsentOnDevice()).toEqual({ pending: 1, held: 0, failed: 0, notQueued: 0, drafts: 0 });
  });
});
