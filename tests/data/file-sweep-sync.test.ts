/**
 * Cached files leave the young person's device when nothing on it names them any more, against the
 * real server in-process (PGlite, demo seed): the replica pulls through the real replication, whose
 * pulls ask for the sweep (src/data/replication/file-sweep.ts); staff act through the staff
 * endpoints. The young person's own writes go through the real outbox and settle, which store a
 * photo's bytes under the server's file id.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Reward } from '@/contract/rewards';
import type { Account } from '@/contract/users';
import { flushOutboxNowOnline, resetOutboxConfig, waitForOutboxToDrain } from '@/data/outbox/outbox';
import { closeReplica, getReplication, openReplicaForAccount, type ReplicaOptions } from '@/data/replica/lifecycle';
import type { OpenReplica } from '@/data/replica/replica-store';
import type { FileDoc, JournalDoc } from '@/data/replica/types';
import { configureFileSweep, fileSweepIdle, resetFileSweepConfig, sweepCachedFiles } from '@/data/replication/file-sweep';
import { fileCacheKey, localFileKey } from '@/entries/data/file-keys';
import { photoKey } from '@/data/replication/photo-names';
import { saveEntry } from '@/entries/data/save-entry';
import type { Client } from '../server/support/client';
import { signedIn } from '../server/support/session';
import { FakeClassifier, pngImage, postForm, type FormValue } from '../server/support/uploads';
import { WAIT_MS } from '../support/timeouts';
import { fakeIdb, randomKey, uniqueName } from './fixtures';
import { outboxToServer } from './support/outbox-to-server';
import { eventually, startSyncServer, type SyncTestServer } from './support/sync-server';

// The device's own image check is a separate call (tested elsewhere): here it always passes.
vi.mock('@/api/entries/check-image', () => ({ checkImage: vi.fn(async () => ({ ok: true, status: 200, data: { inappropriate: false } })) }));

let sync: SyncTestServer;
let account: Account;
let ali: Client;
let open: OpenReplica;
let online = true;
const TAG = `sweep-${Date.now().toString(36)}`;
const replica: ReplicaOptions = { ...fakeIdb, multiInstance: false, key: randomKey(), replicate: true, replication: { liveTriggers: false, retryTime: 200 } };

beforeAll(async () => {
  sync = await startSyncServer({ imageClassifier: new FakeClassifier() });
  ali = await signedIn(sync.server, 'carer.ali');
  account = await sync.signIn('jamie');
});
afterAll(async () => {
  await sync?.close();
});
beforeEach(async () => {
  online = true;
  // Files stored a moment ago are kept for two minutes (settle's window): these tests collect at once.
  configureFileSweep({ graceMs: 0 });
  outboxToServer(sync, () => online);
  open = await openReplicaForAccount(account, uniqueName('site'), replica);
  await getReplication()!.awaitInitial();
});
afterEach(async () => {
  resetFileSweepConfig();
  resetOutboxConfig();
  vi.unstubAllGlobals();
  await closeReplica();
});

async function pull(topics: Parameters<NonNullable<ReturnType<typeof getReplication>>['reSync']>[0]): Promise<void> {
  getReplication()!.reSync(topics);
  await getReplication()!.awaitInSync();
}

/** The cached document's bytes, deleted documents included (RxDB keeps a deleted document's last data). */
async function bytesOf(id: string): Promise<{ live: boolean; data: string | null } | null> {
  const [doc] = await open.db.files.storageInstance.findDocumentsById([id], true);
  return doc ? { live: !doc._deleted, data: (doc as unknown as FileDoc).data } : null;
}
const hasBytes = async (id: string) => Boolean((await bytesOf(id))?.live && (await bytesOf(id))?.data);

describe('cached files on the device with the real server', () => {
  it('a reward staff pause loses its cached picture on the young person’s device after the next pull', async () => {
    const fields: [string, FormValue][] = [
      ['name', `${TAG} paused`],
      ['points', '10'],
      ['description', 'Made for a data test.'],
      ['image', { name: 'reward.png', type: 'image/png', data: pngImage(24, 24, [40, 160, 90]) }],
    ];
    const created = await postForm<{ data: Reward }>(sync.server.base, ali, `/api/v1/homes/${account.user.resident!.home_id}/rewards`, fields);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const reward = created.body.data;
    const picture = fileCacheKey('reward', reward.image!.id);
    await pull(['rewards']);
    await eventually(() => hasBytes(picture), WAIT_MS, 'the picture cached');

    expect((await postForm(sync.server.base, ali, `/api/v1/rewards/${reward.id}?_method=PUT`, [['active', '0']])).status).toBe(200);
    await pull(['rewards']);
    await eventually(async () => (await open.db.lookups.findOne(reward.id).exec()) === null, WAIT_MS, 'the reward gone');
    await eventually(async () => (await open.db.files.findOne(picture).exec()) === null, WAIT_MS, 'the picture gone');
    // Its bytes too: the deleted document keeps none.
    expect(await bytesOf(picture)).toEqual({ live: false, data: null });

    // Switched on again, it comes back with its picture.
    expect((await postForm(sync.server.base, ali, `/api/v1/rewards/${reward.id}?_method=PUT`, [['active', '1']])).status).toBe(200);
    await pull(['rewards']);
    await eventually(() => hasBytes(picture), WAIT_MS, 'the picture cached again');
  });

  it('an entry deleted by its author loses its cached photo and its words on this device; an entry still there keeps its photo', async () => {
    const photo = (name: string, rgb: [number, number, number]) => new File([new Uint8Array(pngImage(4, 4, rgb))], name, { type: 'image/png' });
    const kept = await saveEntry('journal', { description: `${TAG} kept`, files: [photo('kept.png', [10, 20, 30])] });
    const gone = await saveEntry('journal', { description: `${TAG} deleted`, files: [photo('gone.png', [30, 20, 10])] });
    const [keptId, goneId] = [kept.ok ? kept.id : '', gone.ok ? gone.id : ''];
    expect((await waitForOutboxToDrain(WAIT_MS)).drained).toBe(true);
    const fileOf = async (id: string) => ((await open.db.journal.findOne(id).exec())?.toJSON() as JournalDoc | undefined)?.files[0]?.id;
    await eventually(async () => Boolean((await fileOf(keptId)) && (await fileOf(goneId)) && (await open.db.journal.findOne(goneId).exec())?.get('sync_state') === 'synced'), WAIT_MS, 'both settled');
    // Settle stored each photo's bytes under the server's file id.
    const keptPhoto = fileCacheKey('journal', (await fileOf(keptId))!);
    const gonePhoto = fileCacheKey('journal', (await fileOf(goneId))!);
    expect(await hasBytes(keptPhoto)).toBe(true);
    expect(await hasBytes(gonePhoto)).toBe(true);
    await pull(['journal']);
    await fileSweepIdle(open.db);
    expect(await hasBytes(gonePhoto)).toBe(true);

    // Deleted on another device: the API has no DELETE for entries (SPEC §7), so the row's deleted_at
    // is set as tests/server/journal-entries.test.ts does; the young person's next pull brings the tombstone.
    await sync.server.db.updateTable('journal_entries').set({ deleted_at: new Date(), updated_at: new Date() }).where('id', '=', goneId).execute();
    await pull(['journal']);
    await eventually(async () => (await open.db.journal.findOne(goneId).exec()) === null, WAIT_MS, 'the entry gone');
    await eventually(async () => (await bytesOf(gonePhoto))?.live === false, WAIT_MS, 'its photo gone');
    expect(await bytesOf(gonePhoto)).toEqual({ live: false, data: null });
    // The deleted row keeps neither the words nor the photo's name.
    await eventually(async () => {
      const [row] = await open.db.journal.storageInstance.findDocumentsById([goneId], true);
      return row?._deleted === true && row.description === null && row.files.length === 0;
    }, WAIT_MS, 'the deleted row blanked');
    expect(await hasBytes(keptPhoto)).toBe(true);
  });

  it('a file written on this device and not sent yet, and a draft’s files, are never collected; once sent, the `local:` copy keeps no bytes', async () => {
    online = false;
    const result = await saveEntry('journal', { description: `${TAG} offline`, files: [new File([new Uint8Array(pngImage(4, 4, [1, 2, 3]))], 'mine.png', { type: 'image/png' })] });
    expect(result).toMatchObject({ ok: true, queuedOffline: true });
    const id = result.ok ? result.id : '';
    const local = localFileKey(((await open.db.journal.findOne(id).exec())?.toJSON() as JournalDoc).files[0]!.id);
    // A draft's kept photo (src/data/drafts.ts keeps them beside the draft, under their own keys).
    const draftFile = `draft-file:entry:journal:new/${crypto.randomUUID()}`;
    await open.db.files.insert({ id: draftFile, kind: 'draft', updated_at: '2020-01-01T00:00:00.000Z', content_type: 'image/png', data: 'AAAA', sync_state: 'synced', sync_message: null, sync_outbox_id: null });
    await pull(['journal', 'rewards']);
    await sweepCachedFiles(open);
    await fileSweepIdle(open.db);
    expect(await hasBytes(local)).toBe(true);
    expect(await hasBytes(draftFile)).toBe(true);

    // Delivered, settle moves the bytes to the server's file id; the `local:` document keeps none.
    online = true;
    flushOutboxNowOnline();
    expect((await waitForOutboxToDrain(WAIT_MS)).drained).toBe(true);
    await eventually(async () => (await open.db.journal.findOne(id).exec())?.get('sync_state') === 'synced', WAIT_MS, 'the entry settled');
    const serverFile = ((await open.db.journal.findOne(id).exec())?.toJSON() as JournalDoc).files[0]!.id;
    expect(await hasBytes(fileCacheKey('journal', serverFile))).toBe(true);
    expect(await bytesOf(local)).toEqual({ live: false, data: null });
  });

  it('a pull of the staff list alone lets go of the photo of someone no row names any more', async () => {
    // Someone who left the home: off the staff list, on no shift, in no thread this device holds.
    const photo = photoKey(crypto.randomUUID());
    await fileSweepIdle(open.db); // the passes the opening's pulls asked for are over
    await open.db.files.insert({ id: photo, kind: 'photo', updated_at: '2020-01-01T00:00:00.000Z', content_type: 'image/svg+xml', data: 'AAAA', sync_state: 'synced', sync_message: null, sync_outbox_id: null });
    await pull(['associated_users']);
    await eventually(async () => (await bytesOf(photo))?.live === false, WAIT_MS, 'the photo gone');
    expect(await bytesOf(photo)).toEqual({ live: false, data: null });
  });
});
