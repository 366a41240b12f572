/**
 * Edit conflicts at the data layer (issue 12), against the real server in-process: this device
 * (the real outbox and replica) and jamie's other device (a second session through the API) change
 * the same entry. A change made from a copy the other device has changed since is refused (412)
 * and the device keeps both versions: its own as the entry (failed, words intact), the other one
 * parked beside it; the young person then keeps theirs, the other one, or both. This device's own
 * changes in a row are never a conflict, whatever happens to their answers.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { entryMessages, type JournalEntry } from '@/contract/entries';
import type { Account } from '@/contract/users';
import { allRecords } from '@/data/outbox/store';
import { currentDeviceId, flushOutboxNowOnline, refreshCounts, resetOutboxConfig, waitForOutboxToDrain } from '@/data/outbox/outbox';
import type { TransportRequest, TransportResponse } from '@/data/outbox/replay';
import { closeReplica, getReplication, openReplicaForAccount, type ReplicaOptions } from '@/data/replica/lifecycle';
import type { OpenReplica } from '@/data/replica/replica-store';
import type { JournalDoc } from '@/data/replica/types';
import { isEditConflict, otherVersionOf } from '@/entries/data/conflict-state';
import { keepBoth, keepMine, keepOther } from '@/entries/data/edit-conflict';
import { discardFailedEntry, retryFailedEntry } from '@/entries/data/failed-entry';
import { saveEntry } from '@/entries/data/save-entry';
import type { Client } from '../server/support/client';
import { FakeClassifier, pngImage } from '../server/support/uploads';
import { fakeIdb, randomKey, uniqueName } from './fixtures';
import { outboxToServer } from './support/outbox-to-server';
import { eventually, startSyncServer, type SyncTestServer } from './support/sync-server';

vi.mock('@/api/entries/check-image', () => ({ checkImage: vi.fn(async () => ({ ok: true, status: 200, data: { inappropriate: false } })) }));

const ENTRIES = '/api/v1/projects/residents/journal/entries';
const OTHER_DEVICE = 'jamies-other-tablet';

let sync: SyncTestServer;
let account: Account;
let other: Client;
let open: OpenReplica;
let online = true;
let outbox: ReturnType<typeof outboxToServer>;
/** Runs after the server answered a write and before the outbox hears of it. */
let afterServerAnswered: ((request: TransportRequest, response: TransportResponse) => Promise<TransportResponse | void>) | null = null;
const TAG = `conflict-${Date.now().toString(36)}`;
const replica: ReplicaOptions = { ...fakeIdb, multiInstance: false, key: randomKey(), replicate: true, replication: { liveTriggers: false, retryTime: 200 } };

beforeAll(async () => {
  sync = await startSyncServer({ imageClassifier: new FakeClassifier() });
  account = await sync.signIn('jamie');
  // Cookies of its own from the start, so the fetch wrapper never lends it this device's session.
  other = sync.server.client();
  other.jar.set('other-device', '1');
  expect((await other.login('jamie', 'hearth-demo-1', 'demo')).status).toBe(200);
});
afterAll(async () => {
  await sync?.close();
});
beforeEach(async () => {
  online = true;
  afterServerAnswered = null;
  outbox = outboxToServer(sync, () => online, () => afterServerAnswered);
  open = await openReplicaForAccount(account, uniqueName('site'), replica);
  await getReplication()!.awaitInitial();
});
afterEach(async () => {
  resetOutboxConfig();
  vi.unstubAllGlobals();
  await closeReplica();
});

const doc = async (id: string) => (await open.db.journal.findOne(id).exec())?.toJSON() as JournalDoc | undefined;
const serverRow = (id: string) => sync.server.db.selectFrom('journal_entries').select(['description', 'reaction']).where('id', '=', id).executeTakeFirstOrThrow();
const photo = (name: string, rgb: [number, number, number]) => new File([new Uint8Array(pngImage(4, 4, rgb))], name, { type: 'image/png' });
const drained = async () => expect((await waitForOutboxToDrain(15_000)).drained).toBe(true);
const nothingLeft = async () => expect(await refreshCounts()).toMatchObject({ pending: 0, failed: 0 });

/** A synced entry on this device. */
async function syncedEntry(words: string, extra: { files?: File[] } = {}): Promise<string> {
  const saved = await saveEntry('journal', { description: words, ...extra });
  expect(saved.ok).toBe(true);
  const id = saved.ok ? saved.id : '';
  await drained();
  await eventually(async () => (await doc(id))?.sync_state === 'synced' && (await doc(id))?.local_only === false, 10_000, 'the synced entry');
  return id;
}

/** jamie's other device changes the entry from the copy the server has now. */
async function otherDeviceEdits(id: string, words: string, extra: Record<string, unknown> = {}): Promise<JournalEntry> {
  const now = await other.get<{ data: JournalEntry }>(`${ENTRIES}/${id}`);
  const res = await other.post<{ data: JournalEntry }>(`${ENTRIES}/${id}?_method=PUT`, { description: words, base_updated_at: now.body.data.updated_at, device_id: OTHER_DEVICE, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** This device changes the entry offline, the other device changes it meanwhile, then this one comes online. */
async function conflictOn(id: string, mine: string, theirs: string, extra: { files?: File[] } = {}): Promise<void> {
  online = false;
  expect(await saveEntry('journal', { description: mine, ...extra }, { id })).toMatchObject({ ok: true, queuedOffline: true });
  await otherDeviceEdits(id, theirs);
  online = true;
  await waitForOutboxToDrain(15_000);
  await eventually(async () => (await doc(id))?.sync_state === 'failed', 10_000, 'the refused change');
}

describe('edit conflicts on the device', () => {
  it('an update carries its base and this device’s id (derived from the data key, the same every time)', async () => {
    const id = await syncedEntry(`${TAG} carries`);
    const before = (await doc(id))!.updated_at;
    let sent: FormData | null = null;
    afterServerAnswered = async (request) => {
      if (typeof request.body !== 'string' && request.url.includes(id)) sent = request.body;
    };
    await saveEntry('journal', { description: `${TAG} carries 2` }, { id });
    await drained();
    const device = await currentDeviceId();
    expect(device).toMatch(/^[0-9a-f]{32}$/);
    expect(await currentDeviceId()).toBe(device);
    expect(sent!.get('base_updated_at')).toBe(before);
    expect(sent!.get('device_id')).toBe(device);
  });

  it('a change made from a copy the other device changed since: both versions kept, nothing sent twice, and Keep mine puts it on top', async () => {
    const id = await syncedEntry(`${TAG} both`);
    await conflictOn(id, `${TAG} both mine`, `${TAG} both theirs`);

    const conflicted = (await doc(id))!;
    expect(conflicted).toMatchObject({ description: `${TAG} both mine`, sync_state: 'failed', sync_message: entryMessages.editConflict });
    expect(isEditConflict(conflicted)).toBe(true);
    expect(otherVersionOf(conflicted)).toMatchObject({ description: `${TAG} both theirs` });
    expect((await serverRow(id)).description).toBe(`${TAG} both theirs`);
    // It waits for the young person: counted as something still to send or save.
    expect((await refreshCounts()).failed).toBe(1);
    // A pull changes nothing of it.
    getReplication()!.reSync(['journal']);
    await getReplication()!.awaitInSync();
    expect(await doc(id)).toMatchObject({ description: `${TAG} both mine`, sync_state: 'failed' });

    expect(await keepMine('journal', id)).toEqual({ ok: true, id });
    await drained();
    await eventually(async () => (await doc(id))?.sync_state === 'synced', 10_000, 'mine on top');
    expect((await serverRow(id)).description).toBe(`${TAG} both mine`);
    expect(await doc(id)).toMatchObject({ description: `${TAG} both mine`, sync_server: null });
    await nothingLeft();
  });

  it('Try again on a conflict is Keep mine (sending the refused request again would only be refused again)', async () => {
    const id = await syncedEntry(`${TAG} retry`);
    await conflictOn(id, `${TAG} retry mine`, `${TAG} retry theirs`);
    expect(await retryFailedEntry('journal', id)).toMatchObject({ ok: true });
    await drained();
    await eventually(async () => (await doc(id))?.sync_state === 'synced', 10_000, 'mine sent');
    expect((await serverRow(id)).description).toBe(`${TAG} retry mine`);
  });

  it('Keep the other one: the other device’s version on the device, offline too, and nothing left to send', async () => {
    const id = await syncedEntry(`${TAG} other`);
    await conflictOn(id, `${TAG} other mine`, `${TAG} other theirs`);
    online = false;
    expect(await keepOther('journal', id)).toEqual({ ok: true });
    expect(await doc(id)).toMatchObject({ description: `${TAG} other theirs`, sync_state: 'synced', sync_server: null });
    await nothingLeft();
    // Discard on a conflict is the same answer.
    online = true;
    const second = await syncedEntry(`${TAG} other 2`);
    await conflictOn(second, `${TAG} other 2 mine`, `${TAG} other 2 theirs`);
    expect(await discardFailedEntry('journal', second)).toEqual({ ok: true });
    expect(await doc(second)).toMatchObject({ description: `${TAG} other 2 theirs`, sync_state: 'synced' });
    await nothingLeft();
  });

  it('Keep both: the young person’s version (with its photo) becomes a new entry, this one shows the other version', async () => {
    const id = await syncedEntry(`${TAG} keep both`);
    const image = photo('mine.png', [10, 200, 30]);
    await conflictOn(id, `${TAG} keep both mine`, `${TAG} keep both theirs`, { files: [image] });
    const result = await keepBoth('journal', id);
    expect(result).toMatchObject({ ok: true });
    const copy = result.ok ? result.id! : '';
    expect(copy).not.toBe(id);
    await drained();
    await eventually(async () => (await doc(copy))?.sync_state === 'synced' && (await doc(id))?.sync_state === 'synced', 10_000, 'both kept');
    expect((await serverRow(id)).description).toBe(`${TAG} keep both theirs`);
    expect((await serverRow(copy)).description).toBe(`${TAG} keep both mine`);
    const files = await sync.server.db.selectFrom('entry_files').select(['name', 'size']).where('entry_id', '=', copy).where('deleted_at', 'is', null).execute();
    expect(files).toEqual([{ name: 'mine.png', size: image.size }]);
    expect(await doc(id)).toMatchObject({ description: `${TAG} keep both theirs`, sync_server: null });
    await nothingLeft();
  });

  it('edits made one after the other offline from the same copy are not conflicts, even when the first one’s answer is lost', async () => {
    const id = await syncedEntry(`${TAG} chain`);
    online = false;
    for (const words of ['one', 'two', 'three']) expect((await saveEntry('journal', { description: `${TAG} chain ${words}` }, { id })).ok).toBe(true);
    // The first change reaches the server but its answer is lost: sent again, answered from the idempotency store.
    let lost = false;
    afterServerAnswered = async (_request, response) => {
      if (lost || response.status !== 200) return;
      lost = true;
      return { status: 0, body: null };
    };
    online = true;
    await eventually(async () => (await waitForOutboxToDrain(2_000)).drained, 20_000, 'the chain delivered');
    expect(lost).toBe(true);
    await eventually(async () => (await doc(id))?.sync_state === 'synced', 10_000, 'the chain settled');
    expect((await serverRow(id)).description).toBe(`${TAG} chain three`);
    expect((await doc(id))!.description).toBe(`${TAG} chain three`);
    await nothingLeft();
  });

  it('changes queued behind a refused one wait, then go with Keep mine as the young person’s latest words, once', async () => {
    const id = await syncedEntry(`${TAG} queued`);
    online = false;
    expect((await saveEntry('journal', { description: `${TAG} queued first` }, { id })).ok).toBe(true);
    expect((await saveEntry('journal', { description: `${TAG} queued second` }, { id })).ok).toBe(true);
    await otherDeviceEdits(id, `${TAG} queued theirs`);
    online = true;
    await waitForOutboxToDrain(5_000);
    await eventually(async () => (await doc(id))?.sync_state === 'failed', 10_000, 'the refusal');
    expect(await doc(id)).toMatchObject({ description: `${TAG} queued second` });
    expect(isEditConflict((await doc(id))!)).toBe(true);

    const puts = () => sync.requests.filter((r) => r.method === 'POST' && r.url.pathname.endsWith(`/journal/entries/${id}`)).length;
    const before = puts();
    expect(await keepMine('journal', id)).toMatchObject({ ok: true });
    await drained();
    await eventually(async () => (await doc(id))?.sync_state === 'synced', 10_000, 'mine on top');
    // Only the new write went: the refused one and the one behind it were taken back.
    expect(puts() - before).toBe(1);
    expect((await serverRow(id)).description).toBe(`${TAG} queued second`);
    expect(await allRecords(outbox)).toEqual([]);
  });

  it('a pull that read the entry while its change was pending does not bring "pending" back over the refusal', async () => {
    const id = await syncedEntry(`${TAG} held`);
    online = false;
    expect((await saveEntry('journal', { description: `${TAG} held first` }, { id })).ok).toBe(true);
    expect((await saveEntry('journal', { description: `${TAG} held second` }, { id })).ok).toBe(true);
    await otherDeviceEdits(id, `${TAG} held theirs`);
    // The pull reads the entry (pending, the second change), then the refusal of the first lands, then the pull writes.
    // The pull's modifier reads a page's stored entries with one findByIds.
    const collection = open.db.journal;
    const findByIds = collection.findByIds.bind(collection);
    let race: (() => Promise<void>) | null = async () => {
      online = true;
      flushOutboxNowOnline();
      await eventually(async () => (await doc(id))?.sync_state === 'failed', 10_000, 'the refusal, mid-pull');
    };
    let raced = false;
    collection.findByIds = ((ids: string[]) => {
      const rxQuery = findByIds(ids);
      if (!race || !ids.includes(id)) return rxQuery;
      const run = race;
      race = null;
      return {
        exec: async () => {
          const read = await rxQuery.exec();
          await run();
          raced = true;
          return read;
        },
      };
    }) as unknown as typeof collection.findByIds;
    try {
      getReplication()!.reSync(['journal']);
      await eventually(() => raced, 15_000, 'the pull with the refusal in between');
      await getReplication()!.awaitInSync();
    } finally {
      delete (collection as unknown as Record<string, unknown>).findByIds;
    }
    await eventually(async () => otherVersionOf((await doc(id))!)?.description === `${TAG} held theirs`, 10_000, 'the other version beside it');
    expect(await doc(id)).toMatchObject({ description: `${TAG} held second`, sync_state: 'failed', sync_message: entryMessages.editConflict });
    // One entry waiting for the young person, not a refusal and a change "on its way".
    expect(await refreshCounts()).toMatchObject({ pending: 0, failed: 1 });
  });

  it('editing an entry in conflict writes over the other version: no new conflict', async () => {
    const id = await syncedEntry(`${TAG} edit`);
    await conflictOn(id, `${TAG} edit mine`, `${TAG} edit theirs`);
    expect((await saveEntry('journal', { description: `${TAG} edit mine, changed` }, { id })).ok).toBe(true);
    await drained();
    await eventually(async () => (await doc(id))?.sync_state === 'synced', 10_000, 'the edit');
    expect((await serverRow(id)).description).toBe(`${TAG} edit mine, changed`);
    await nothingLeft();
  });

  it('a photo added with a change that is taken back goes with the change that replaces it', async () => {
    // Never sent: the create is replaced by the edit.
    online = false;
    const image = photo('first.png', [250, 10, 10]);
    const created = await saveEntry('journal', { description: `${TAG} carried`, files: [image] });
    const id = created.ok ? created.id : '';
    expect((await saveEntry('journal', { description: `${TAG} carried, edited` }, { id })).ok).toBe(true);
    online = true;
    await drained();
    await eventually(async () => (await doc(id))?.sync_state === 'synced', 10_000, 'the entry');
    const files = await sync.server.db.selectFrom('entry_files').select(['name', 'size']).where('entry_id', '=', id).where('deleted_at', 'is', null).execute();
    expect(files).toEqual([{ name: 'first.png', size: image.size }]);
  });
});
