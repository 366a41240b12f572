/**
 * Saving in the first moments after a page load, before the replica has opened: the write waits
 * for it (bounded) instead of failing; only after REPLICA_WAIT_MS does it answer the §8 text.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { replicaOutcomeSink } from '@/app/start-outbox-side';
import { entryMessages } from '@/contract/entries';
import { postComment } from '@/entries/data/comments';
import { REPLICA_WAIT_MS } from '@/entries/data/replica-for-write';
import { saveEntry } from '@/entries/data/save-entry';
import { configureOutbox, resetOutboxConfig } from '@/data/outbox/outbox';
import { closeReplica, openReplicaForAccount, type ReplicaOptions } from '@/data/replica/lifecycle';
import { clearSession, setAccount } from '@/data/session-store';
import { account, serverJournalRow, uuid } from './entries-support';
import { fakeIdb, randomKey, uniqueName } from './fixtures';
import { fakeTransport, freshStore, testKey } from './outbox-support';

vi.mock('@/api/entries/check-image', () => ({ checkImage: vi.fn(async () => ({ ok: false, status: 0, message: '' })) }));

const now = new Date(2026, 2, 10, 12, 0);

const replica: ReplicaOptions = { ...fakeIdb, multiInstance: false, key: randomKey(), replicate: false };


beforeEach(async () => {
  vi.stubGlobal('navigator', { onLine: false });
  const key = testKey();
  const outbox = { ...freshStore(), getKey: async () => key, transport: fakeTransport(() => ({ status: 0, body: null })).transport, apiBase: () => '/api', pageOnly: true, sink: replicaOutcomeSink };
  configureOutbox(outbox);
  await closeReplica();
  setAccount(account); // signed in, the replica not open yet (a page just loaded)
});
afterEach(async () => {
  vi.useRealTimers();
  resetOutboxConfig();
  vi.unstubAllGlobals();
  clearSession();
  await closeReplica();
});

describe('a save pressed before the replica has opened', () => {
  it('waits for the replica and is saved there', async () => {
    const saving = saveEntry('journal', { description: 'written at once' }, { now });
    // The page is still opening the replica (key, IndexedDB).
    await new Promise((resolve) => setTimeout(resolve, 50));
    const open = await openReplicaForAccount(account, uniqueName('site'), replica);
    const result = await saving;
    expect(result).toMatchObject({ ok: true, queuedOffline: true });
    const docs = (await open.db.journal.find().exec()).map((d) => d.toJSON());
    expect(docs).toEqual([expect.objectContaining({ id: result.ok ? result.id : '', description: 'written at once', sync_state: 'pending' })]);
  });

  it('a reply waits the same way', async () => {
    const replying = postComment('journal', uuid(50), { comment: 'early reply' }, now);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const open = await openReplicaForAccount(account, uniqueName('site'), replica);
    const { deleted_at: _gone, ...row } = serverJournalRow(uuid(50));
    await open.db.journal.insert({ ...row, sort_key: '2026-03-10T09:30', local_only: false, sync_state: 'synced', sync_message: null, sync_outbox_id: null } as never);
    expect(await replying).toMatchObject({ ok: true });
    expect((await open.db.comments.find().exec()).map((c) => c.comment)).toEqual(['early reply']);
  });

  it('gives up after the wait with the §8 message, nothing queued', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const saving = saveEntry('journal', { description: 'no replica' }, { now });
    const replying = postComment('journal', uuid(50), { comment: 'no replica' }, now);
    await vi.advanceTimersByTimeAsync(REPLICA_WAIT_MS - 1);
    let settled = false;
    void saving.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await saving).toEqual({ ok: false, message: entryMessages.postFailed, errors: {} });
    expect(await replying).toEqual({ ok: false, message: entryMessages.replyFailed, errors: {} });
  });
});

describe('a save that waited for a replica never lands in another session’s', () => {
  it('signed out and in again, as the same young person, while it waited: not saved, nothing in the new replica', async () => {
    const saving = saveEntry('journal', { description: 'pressed before signing out' }, { now });
    const replying = postComment('journal', uuid(50), { comment: 'pressed before signing out' }, now);
    clearSession(); // "Sign out and delete them" while it waited
    setAccount(account);
    const open = await openReplicaForAccount(account, uniqueName('site'), replica);
    expect(await saving).toEqual({ ok: false, message: entryMessages.postFailed, errors: {} });
    expect(await replying).toEqual({ ok: false, message: entryMessages.replyFailed, errors: {} });
    expect(await open.db.journal.count().exec()).toBe(0);
    expect(await open.db.comments.count().exec()).toBe(0);
  });

  it('someone else’s replica opening is not the one it waited for', async () => {
    const saving = saveEntry('journal', { description: 'pressed as jamie' }, { now });
    const other = { ...account, user: { ...account.user, id: uuid(77), username: 'sam' } };
    const open = await openReplicaForAccount(other, uniqueName('site'), replica);
    expect(await saving).toEqual({ ok: false, message: entryMessages.postFailed, errors: {} });
    expect(await open.db.journal.count().exec()).toBe(0);
  });

  it('signed out, a save is not kept for whoever signs in next', async () => {
    clearSession();
    const saving = saveEntry('journal', { description: 'nobody signed in' }, { now });
    const other = { ...account, user: { ...account.user, id: uuid(77), username: 'sam' } };
    setAccount(other);
    const open = await openReplicaForAccount(other, uniqueName('site'), replica);
    expect(await saving).toEqual({ ok: false, message: entryMessages.postFailed, errors: {} });
    expect(await open.db.journal.count().exec()).toBe(0);
  });
});
