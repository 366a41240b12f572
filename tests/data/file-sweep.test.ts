/**
 * The file sweep (src/data/replication/file-sweep.ts) over a real encrypted replica on
 * fake-indexeddb, rows written as a pull writes them: which cached files leave the device (those
 * no row names any more, emptied as they go), which never do (`local:` files, drafts' files, files
 * a draft or a row with a local change names, summaries, kept chunks, the young person's own photo,
 * anything just stored), profile photos of people no row names any more, deleted rows blanked, and
 * what a pass reads (only what was written since the last one).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { closeReplica, openReplicaForAccount, type ReplicaOptions } from '@/data/replica/lifecycle';
import type { OpenReplica } from '@/data/replica/replica-store';
import { summaryDoc, type CommentDoc, type FileDoc, type JournalDoc, type LookupDoc, type ResidentDoc, type RewardExchangeDoc, type RosterDoc, type StaffDoc } from '@/data/replica/types';
import { configureFileSweep, fileSweepIdle, resetFileSweepConfig, sweepCachedFiles, sweepOnce } from '@/data/replication/file-sweep';
import { FILE_SWEEP_SUMMARY_ID } from '@/data/replication/named-files';
import { photoKey } from '@/data/replication/photo-names';
import { fileCacheKey, localFileKey } from '@/entries/data/file-keys';
import { fakeIdb, randomKey, testAccount, uniqueName, uuid } from './fixtures';

const key = randomKey();
const options: ReplicaOptions = { ...fakeIdb, multiInstance: false, key, replicate: false };
const synced = { sync_state: 'synced', sync_message: null, sync_outbox_id: null } as const;
/** Bytes no other document holds, to look for in IndexedDB after the sweep. */
const BYTES = (name: string) => Buffer.from(`bytes of ${name} `.repeat(8)).toString('base64');
const LONG_AGO = '2020-01-01T00:00:00.000Z';

let open: OpenReplica;
let site: string;
beforeEach(async () => {
  configureFileSweep({ graceMs: 0 });
  site = uniqueName('site');
  open = await openReplicaForAccount(testAccount, site, options);
});
afterEach(async () => {
  vi.useRealTimers();
  resetFileSweepConfig();
  await closeReplica();
});

const file = (n: number) => ({ id: uuid(n), name: `p${n}.png`, mime: 'image/png', size: 10 });
const cached = (id: string, overrides: Partial<FileDoc> = {}): FileDoc => ({
  id, kind: 'file', updated_at: LONG_AGO, content_type: 'image/png', data: BYTES(id), ...synced, ...overrides,
});
function entry(n: number, overrides: Partial<JournalDoc> = {}): JournalDoc {
  return {
    id: uuid(1000 + n), updated_at: '2026-01-01T00:00:00.000000Z', resident_id: uuid(2), created_at: '2026-01-01T00:00:00.000000Z', locked_at: null,
    sort_key: `2026-01-01T10:${String(n % 60).padStart(2, '0')}`, local_only: false, creator: { id: uuid(1), first_name: 'K', last_name: 'D', has_photo: false },
    description: `entry ${n}`, reaction: null, canvas: null, files: [], shared_with: [], shared_with_management: false, comments_count: 0,
    entry_date: '2026-01-01', entry_time: '10:00', ...synced, ...overrides,
  };
}
const reward = (n: number, image: number | null): LookupDoc => ({
  id: uuid(3000 + n), kind: 'reward', updated_at: '2026-01-01T00:00:00.000000Z', name: `A reward ${n}`,
  data: { home_id: uuid(3), description: 'Made for a test.', points: 10, image: image === null ? null : file(image), active: true, position: n, created_at: LONG_AGO }, ...synced,
});

/** Every cached-file key still live, and the ones given that IndexedDB holds bytes of. */
const liveKeys = async (): Promise<string[]> => (await open.db.files.find().exec()).map((doc) => doc.primary).sort();
/** Of these files, those whose bytes the device still holds, deleted documents included (RxDB keeps their last data). */
async function bytesOnDevice(ids: readonly string[]): Promise<string[]> {
  const docs = await open.db.files.storageInstance.findDocumentsById([...ids], true);
  return docs.filter((doc) => doc.data !== null).map((doc) => doc.id);
}

describe('the file sweep', () => {
  it('a deleted entry loses its cached photo and drawing, emptied; an entry still here keeps its own; nothing else is collected', async () => {
    await open.db.journal.bulkInsert([
      entry(1, { files: [file(11)] }),
      entry(2, { files: [file(21), file(22)], canvas: file(23) }),
      // A row with a local change names its parked server copy's files too.
      entry(3, { files: [], sync_state: 'pending', sync_outbox_id: uuid(9), sync_server: { ...entry(3, { files: [file(31)] }) } }),
    ]);
    const draft: FileDoc = { ...cached('draft:entry:journal:' + uuid(1001)), kind: 'draft', content_type: 'application/json', data: JSON.stringify({ description: 'x', keep: [file(41)] }) };
    await open.db.files.bulkInsert([
      cached(fileCacheKey('journal', uuid(11))),
      cached(fileCacheKey('journal', uuid(21))),
      cached(fileCacheKey('journal', uuid(22))),
      cached(fileCacheKey('journal', uuid(23))),
      cached(fileCacheKey('journal', uuid(31))),
      // Named by no row but a draft's JSON.
      cached(fileCacheKey('journal', uuid(41))),
      draft,
      // Never collected, whatever names them.
      cached(localFileKey(uuid(51)), { kind: 'local' }),
      cached(`draft-file:entry:journal:new/${uuid(52)}`, { kind: 'draft' }),
      cached('summary:journal-reactions', { kind: 'summary' }),
      cached(`kept:${uuid(53)}:${uuid(54)}:0`, { kind: 'kept' }),
      // The young person's own photo, which no row here names.
      cached(photoKey(testAccount.user.id), { kind: 'photo' }),
      cached(`file:other:${uuid(56)}`),
    ]);
    const before = await liveKeys();

    expect((await sweepOnce(open)).collected).toBe(0);
    expect(await liveKeys()).toEqual([...before, FILE_SWEEP_SUMMARY_ID].sort());

    // Entry 2 is deleted (a tombstone pulled); entry 1 stays.
    await (await open.db.journal.findOne(uuid(1002)).exec())!.remove();
    const report = await sweepOnce(open);
    expect(report.collected).toBe(3);
    const gone = [fileCacheKey('journal', uuid(21)), fileCacheKey('journal', uuid(22)), fileCacheKey('journal', uuid(23))];
    expect(await liveKeys()).toEqual([...before, FILE_SWEEP_SUMMARY_ID].filter((id) => !gone.includes(id)).sort());
    // Emptied in the write that deleted them: RxDB keeps a deleted document's last data.
    expect(await bytesOnDevice(gone)).toEqual([]);
    expect(await bytesOnDevice([fileCacheKey('journal', uuid(11))])).toEqual([fileCacheKey('journal', uuid(11))]);
  });

  it('a reward gone (paused, withdrawn, the old home) loses its picture and its deleted row is blanked; a picture an exchange still names stays', async () => {
    await open.db.lookups.bulkInsert([reward(1, 61), reward(2, 62), reward(3, 63)]);
    const exchange: RewardExchangeDoc = {
      id: uuid(4001), kind: 'exchange', updated_at: LONG_AGO, sort_key: LONG_AGO, local_only: false, created_at: LONG_AGO, resident_id: uuid(2), reward_id: uuid(3003),
      reward: { id: uuid(3003), name: 'A reward 3', description: null, points: 10, image: file(63) }, points: 10, points_adjustment: -10, refunded_points: 0,
      status: 'approved', note: null, decided_by: null, decided_at: null, ...synced,
    } as unknown as RewardExchangeDoc;
    await open.db.points.insert(exchange as never);
    await open.db.files.bulkInsert([61, 62, 63].map((n) => cached(fileCacheKey('reward', uuid(n)))));
    await sweepOnce(open);

    // Rewards 2 and 3 leave the catalogue as a device that pulled them before the server blanked
    // tombstones keeps them: deleted, with their name and picture.
    for (const id of [uuid(3002), uuid(3003)]) await (await open.db.lookups.findOne(id).exec())!.remove();
    const report = await sweepOnce(open);
    expect(report).toMatchObject({ collected: 1, blanked: 2 });
    expect(await bytesOnDevice([61, 62, 63].map((n) => fileCacheKey('reward', uuid(n))))).toEqual([fileCacheKey('reward', uuid(61)), fileCacheKey('reward', uuid(63))]);
    const [deleted] = await open.db.lookups.storageInstance.findDocumentsById([uuid(3002)], true);
    expect(deleted).toMatchObject({ _deleted: true, kind: 'reward', name: '', data: null });
    // The next pass finds nothing more to do.
    expect(await sweepOnce(open)).toMatchObject({ collected: 0, blanked: 0 });
  });

  it("a comment's files go with its entry", async () => {
    await open.db.journal.insert(entry(5));
    const comment: CommentDoc = {
      id: uuid(5001), updated_at: LONG_AGO, entry_type: 'journal', entry_id: uuid(1005), created_at: LONG_AGO, local_only: false,
      comment: 'Lovely', reaction: null, creator: { id: uuid(7), first_name: 'A', last_name: 'C', has_photo: false }, files: [file(71)], ...synced,
    } as CommentDoc;
    await open.db.comments.insert(comment);
    await open.db.files.insert(cached(fileCacheKey('comment', uuid(71))));
    expect((await sweepOnce(open)).collected).toBe(0);
    await (await open.db.journal.findOne(uuid(1005)).exec())!.remove();
    expect((await sweepOnce(open)).collected).toBe(1);
    expect(await bytesOnDevice([fileCacheKey('comment', uuid(71))])).toEqual([]);
  });

  it('keeps a file stored in the last two minutes (settle stores an upload a moment before its entry names it)', async () => {
    resetFileSweepConfig();
    await open.db.files.insert(cached(fileCacheKey('journal', uuid(81)), { updated_at: new Date().toISOString() }));
    await open.db.files.insert(cached(fileCacheKey('journal', uuid(82))));
    expect((await sweepOnce(open)).collected).toBe(1);
    expect(await liveKeys()).toContain(fileCacheKey('journal', uuid(81)));
  });

  it('a file stored again while the pass removes it stays (the removal is made on the revision read)', async () => {
    const id = fileCacheKey('reward', uuid(91));
    await open.db.files.insert(cached(id));
    const storage = open.db.files.storageInstance;
    const write = storage.bulkWrite.bind(storage);
    let raced = false;
    storage.bulkWrite = async (rows, context) => {
      if (!raced && rows.some((row) => row.document.id === id && row.document._deleted)) {
        raced = true;
        // The picture fetched again for a reward that just came back, a moment before the removal lands.
        const current = (await storage.findDocumentsById([id], false))[0]!;
        await write([{ previous: current, document: { ...current, data: BYTES('again'), updated_at: LONG_AGO, _rev: `9-${current._rev.split('-')[1]}` } }], 'fetch');
      }
      return write(rows, context);
    };
    expect((await sweepOnce(open)).collected).toBe(0);
    expect(raced).toBe(true);
    expect((await open.db.files.findOne(id).exec())?.get('data')).toBe(BYTES('again'));
  });

  it('reads only what was written since its last pass, also after the replica is opened again', async () => {
    const N = 801;
    // As a pull writes them: a page of 100 at a time.
    const all = Array.from({ length: N }, (_, n) => entry(n, { files: n % 4 === 0 ? [file(100_000 + n)] : [] }));
    for (let i = 0; i < N; i += 100) await open.db.journal.bulkInsert(all.slice(i, i + 100));
    await open.db.files.bulkInsert(Array.from({ length: 50 }, (_, i) => cached(fileCacheKey('journal', uuid(100_000 + i * 4)))));
    const counted = () => {
      const storage = open.db.journal.storageInstance;
      const query = storage.query.bind(storage);
      const counter = { read: 0 };
      storage.query = async (prepared) => {
        const result = await query(prepared);
        counter.read += result.documents.length;
        return result;
      };
      return counter;
    };
    // The last writes are read again while they may still be landing (SETTLE_MS): a minute on.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 60_000);
    let counter = counted();
    expect((await sweepOnce(open)).collected).toBe(0);
    expect(counter.read).toBe(N);

    counter.read = 0;
    expect((await sweepOnce(open)).collected).toBe(0);
    expect(counter.read).toBe(0);

    // Reopened: the summary is read, not every entry.
    await closeReplica();
    open = await openReplicaForAccount(testAccount, site, options);
    await (await open.db.journal.findOne(uuid(1000)).exec())!.remove();
    vi.setSystemTime(Date.now() + 60_000);
    counter = counted();
    expect((await sweepOnce(open)).collected).toBe(1);
    // The deleted entry, and the same row blanked again before the removal.
    expect(counter.read).toBeLessThanOrEqual(2);
    expect(await liveKeys()).not.toContain(fileCacheKey('journal', uuid(100_000)));
  });

  it('passes asked for while one runs make one more pass, never two at once', async () => {
    await open.db.journal.insert(entry(6, { files: [file(95)] }));
    await open.db.files.insert(cached(fileCacheKey('journal', uuid(95))));
    const storage = open.db.journal.storageInstance;
    const query = storage.query.bind(storage);
    let running = 0;
    let most = 0;
    storage.query = async (prepared) => {
      running += 1;
      most = Math.max(most, running);
      try {
        return await query(prepared);
      } finally {
        running -= 1;
      }
    };
    void sweepCachedFiles(open);
    await (await open.db.journal.findOne(uuid(1006)).exec())!.remove();
    void sweepCachedFiles(open);
    void sweepCachedFiles(open);
    await fileSweepIdle(open.db);
    expect(most).toBe(1);
    expect(await liveKeys()).not.toContain(fileCacheKey('journal', uuid(95)));
  });
});

const person = (n: number, hasPhoto = true) => ({ id: uuid(n), first_name: `First ${n}`, last_name: `Last ${n}`, has_photo: hasPhoto });
const staffRow = (n: number): StaffDoc => ({ ...person(n), updated_at: LONG_AGO, job_title: null, ...synced });
const shift = (n: number, user: number): RosterDoc => ({
  id: uuid(n), updated_at: LONG_AGO, home_id: uuid(3), user_id: uuid(user), shift_date: '2026-01-01', starts_at: '08:00', ends_at: '16:00', user: person(user), ...synced,
});
const photo = (n: number, overrides: Partial<FileDoc> = {}) => cached(photoKey(uuid(n)), { kind: 'photo', content_type: 'image/jpeg', ...overrides });
const photoKeys = (...ns: number[]) => ns.map((n) => photoKey(uuid(n)));

describe('profile photos in the file sweep', () => {
  it("a photo of someone no row names goes, emptied; the staff list, a comment, a task log, the roster, feedback and the key worker keep theirs; the young person's own stays", async () => {
    await open.db.staff.insert(staffRow(601));
    await open.db.journal.insert(entry(7));
    await open.db.comments.insert({
      id: uuid(5002), updated_at: LONG_AGO, entry_type: 'journal', entry_id: uuid(1007), created_at: LONG_AGO, local_only: false,
      comment: 'Well done', reaction: null, creator: person(602), files: [], ...synced,
    } as CommentDoc);
    await open.db.tasks.insert({
      id: uuid(4100), kind: 'log', updated_at: LONG_AGO, task_log_id: uuid(4100), status: 'current', sort_key: LONG_AGO, local_only: false,
      comments: [{ id: uuid(4101), comment: 'Nice', files: [], creator: person(607) }], ...synced,
    } as never);
    await open.db.rota.insert(shift(6030, 603));
    await open.db.resident.insert({ id: uuid(2), kind: 'details', updated_at: LONG_AGO, key_worker: person(604), ...synced } as unknown as ResidentDoc as never);
    await open.db.feedback.insert({
      id: uuid(6080), updated_at: LONG_AGO, type: 'journal', resident_id: uuid(2), entry_id: uuid(1007), comment_id: uuid(6081), count: 1, awaiting_resident_response: true,
      locked_at: null, reaction: null, entry: { id: uuid(1007), excerpt: 'x', created_at: LONG_AGO }, category: null,
      latest_comment: { id: uuid(6081), comment: 'Hi', created_at: LONG_AGO, creator: person(608) }, ...synced,
    } as never);
    // 606 is named only as a person without a photo (a comment's creator): no screen asks for it.
    await open.db.comments.insert({
      id: uuid(5003), updated_at: LONG_AGO, entry_type: 'journal', entry_id: uuid(1007), created_at: LONG_AGO, local_only: false,
      comment: 'Hello', reaction: null, creator: person(606, false), files: [], ...synced,
    } as CommentDoc);
    await open.db.files.bulkInsert([...[601, 602, 603, 604, 605, 606, 607, 608].map((n) => photo(n)), cached(photoKey(testAccount.user.id), { kind: 'photo' })]);

    const report = await sweepOnce(open);
    expect(report).toMatchObject({ photos: 2, collected: 0 });
    const kept = [...photoKeys(601, 602, 603, 604, 607, 608), photoKey(testAccount.user.id)];
    expect(await bytesOnDevice([...kept, ...photoKeys(605, 606)])).toEqual(kept);
    expect((await liveKeys()).filter((id) => id.startsWith('photo:')).sort()).toEqual([...kept].sort());
    expect(await sweepOnce(open)).toMatchObject({ photos: 0 });
  });

  it('a member of staff who leaves the home: their photo goes once neither the staff list nor a shift names them', async () => {
    await open.db.staff.insert(staffRow(611));
    await open.db.rota.insert(shift(6110, 611));
    await open.db.files.insert(photo(611));
    expect(await sweepOnce(open)).toMatchObject({ photos: 0 });

    // The list's tombstone (blank, as the server sends it now): the roster still shows them today.
    await (await open.db.staff.findOne(uuid(611)).exec())!.remove();
    expect(await sweepOnce(open)).toMatchObject({ photos: 0 });
    expect(await bytesOnDevice(photoKeys(611))).toEqual(photoKeys(611));

    await (await open.db.rota.findOne(uuid(6110)).exec())!.remove();
    expect(await sweepOnce(open)).toMatchObject({ photos: 1 });
    expect(await bytesOnDevice(photoKeys(611))).toEqual([]);
  });

  it('keeps a photo stored in the last two minutes, as a cached file', async () => {
    resetFileSweepConfig();
    await open.db.files.bulkInsert([photo(621, { updated_at: new Date().toISOString() }), photo(622)]);
    expect(await sweepOnce(open)).toMatchObject({ photos: 1 });
    expect(await bytesOnDevice(photoKeys(621, 622))).toEqual(photoKeys(621));
  });

  it('a summary stored before photos were counted is rebuilt, not trusted (it names none)', async () => {
    await open.db.staff.insert(staffRow(631));
    await open.db.files.insert(photo(631));
    // What a device that swept before this version keeps: every row read, none naming a photo.
    const past = { id: '\uffff', lwt: Number.MAX_SAFE_INTEGER };
    const checkpoints = Object.fromEntries(['comments', 'journal', 'voice', 'tasks', 'lookups', 'points', 'staff', 'rota', 'calendar', 'feedback'].map((c) => [c, past]));
    await open.db.files.insert(summaryDoc(FILE_SWEEP_SUMMARY_ID, { v: 1, checkpoints, rows: [] }));

    expect(await sweepOnce(open)).toMatchObject({ photos: 0 });
    expect(await bytesOnDevice(photoKeys(631))).toEqual(photoKeys(631));
  });
});
