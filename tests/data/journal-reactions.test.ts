/**
 * The journal's Feeling filter choices (src/entries/data/journal-reactions.ts): the reactions used,
 * each once, most recent first, live, from an encrypted summary that a reopened replica reads
 * instead of every entry. Over a real encrypted replica on fake-indexeddb.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Subscription } from 'rxjs';
import { journalReactions$, REACTIONS_SUMMARY_ID } from '@/entries/data/journal-reactions';
import { closeReplica, openReplicaForAccount, type ReplicaOptions } from '@/data/replica/lifecycle';
import type { OpenReplica } from '@/data/replica/replica-store';
import type { FileDoc, JournalDoc } from '@/data/replica/types';
import { dumpIndexedDb, fakeIdb, listDatabases, randomKey, testAccount, uniqueName, uuid } from './fixtures';
import { eventually } from './support/sync-server';

const subscriptions: Subscription[] = [];
afterEach(async () => {
  subscriptions.splice(0).forEach((s) => s.unsubscribe());
  await closeReplica();
});

function entry(n: number, sortKey: string, reaction: string | null): JournalDoc {
  const [date, time] = sortKey.split('T') as [string, string];
  return {
    id: uuid(1000 + n), updated_at: '2026-01-01T00:00:00.000000Z', resident_id: uuid(2), created_at: '2026-01-01T00:00:00.000000Z', locked_at: null,
    sort_key: sortKey, local_only: false, creator: { id: uuid(1), first_name: 'K', last_name: 'D', has_photo: false },
    description: `entry ${n}`, reaction, canvas: null, files: [], shared_with: [], shared_with_management: false, comments_count: 0,
    entry_date: date, entry_time: time, sync_state: 'synced', sync_message: null, sync_outbox_id: null,
  };
}

/** Watches the reactions; `now()` is the latest list, `read` the journal records read from storage meanwhile, in `reads` reads. */
function watch(open: OpenReplica) {
  let latest: string[] | null = null;
  const storage = open.db.journal.storageInstance;
  const query = storage.query.bind(storage);
  const counter = { read: 0, reads: 0 };
  storage.query = async (prepared) => {
    const result = await query(prepared);
    counter.read += result.documents.length;
    counter.reads += 1;
    return result;
  };
  subscriptions.push(journalReactions$(open).subscribe((list) => (latest = list)));
  return {
    now: () => latest,
    counter,
    until: (expected: string[]) =>
      eventually(() => JSON.stringify(latest) === JSON.stringify(expected), 10_000, `reactions ${JSON.stringify(expected)}`).catch((error: Error) => {
        throw new Error(`${error.message}; have ${JSON.stringify(latest)}`);
      }),
  };
}

const stored = async (open: OpenReplica): Promise<FileDoc | null> => ((await open.db.files.findOne(REACTIONS_SUMMARY_ID).exec())?.toJSON() as FileDoc | undefined) ?? null;

describe('journal reactions: the Feeling filter choices', () => {
  it('are the reactions used, each once, most recent first, and follow new, changed and deleted entries', async () => {
    const options: ReplicaOptions = { ...fakeIdb, multiInstance: false, key: randomKey(), replicate: false };
    const open = await openReplicaForAccount(testAccount, uniqueName('site'), options);
    await open.db.journal.bulkInsert([
      entry(1, '2026-03-01T10:00', '😀'),
      entry(2, '2026-03-02T10:00', '😢'),
      entry(3, '2026-03-03T10:00', '😀'),
      entry(4, '2026-03-04T10:00', null),
    ]);
    const reactions = watch(open);
    await reactions.until(['😀', '😢']);

    await open.db.journal.insert(entry(5, '2026-03-05T09:00', '😡'));
    await reactions.until(['😡', '😀', '😢']);
    // An older entry's reaction does not move a more recent use.
    await open.db.journal.insert(entry(6, '2026-02-01T09:00', '😡'));
    await reactions.until(['😡', '😀', '😢']);
    // The only sad entry changes its feeling: sad is no longer offered.
    await (await open.db.journal.findOne(uuid(1002)).exec())!.incrementalPatch({ reaction: '😀' });
    await reactions.until(['😡', '😀']);
    // Deleting the newest angry entry leaves the older one, now after happy.
    await (await open.db.journal.findOne(uuid(1005)).exec())!.remove();
    await reactions.until(['😀', '😡']);
    await (await open.db.journal.findOne(uuid(1006)).exec())!.remove();
    await reactions.until(['😀']);
  });

  it('are stored encrypted, and read back after a reopen with only the entries written since, not every entry', async () => {
    const options: ReplicaOptions = { ...fakeIdb, multiInstance: false, key: randomKey(), replicate: false };
    const site = uniqueName('site');
    let open = await openReplicaForAccount(testAccount, site, options);
    const feelings = ['😀', '😢', '🦄'];
    await open.db.journal.bulkInsert(
      Array.from({ length: 600 }, (_, i) => entry(i, new Date(Date.UTC(2025, 0, 1) + i * 3_600_000).toISOString().slice(0, 16), feelings[i % 3]!)),
    );
    const first = watch(open);
    await eventually(() => first.now()?.length === 3, 10_000, 'three reactions');
    expect(first.counter.read).toBeGreaterThanOrEqual(600);
    await eventually(async () => (await stored(open)) !== null, 10_000, 'the stored summary');
    subscriptions.splice(0).forEach((s) => s.unsubscribe());

    // Nothing in clear: the unicorn is only in entries and the summary, both encrypted.
    const raw = (await Promise.all((await listDatabases()).filter((n) => n.includes(open.name)).map((n) => dumpIndexedDb(n)))).map((d) => d.text).join('\n');
    expect(raw).toContain(REACTIONS_SUMMARY_ID);
    expect(raw).not.toContain('🦄');

    // Written while nobody watched: a newer feeling, and a unicorn-free journal.
    await open.db.journal.insert(entry(700, '2026-06-01T10:00', '🤩'));
    await open.db.journal.find({ selector: { id: { $in: Array.from({ length: 200 }, (_, k) => uuid(1000 + 3 * k + 2)) } } }).remove();
    await closeReplica();

    open = await openReplicaForAccount(testAccount, site, options);
    const again = watch(open);
    // Sad was used after happy (entries 598 and 597).
    await again.until(['🤩', '😢', '😀']);
    // The entries written since the summary (201), not the 600 before them.
    expect(again.counter.read).toBeLessThan(300);
  });

  it('remember how far they read even when no reaction changed, so a reopen does not read those entries again', async () => {
    const options: ReplicaOptions = { ...fakeIdb, multiInstance: false, key: randomKey(), replicate: false };
    const site = uniqueName('site');
    let open = await openReplicaForAccount(testAccount, site, options);
    await open.db.journal.insert(entry(1, '2026-03-01T10:00', '😀'));
    const first = watch(open);
    await first.until(['😀']);
    await eventually(async () => (await stored(open)) !== null, 10_000, 'the first stored summary');
    // Entries with no feeling arrive while the list is on screen (a pull's page, one write).
    await open.db.journal.bulkInsert(Array.from({ length: 300 }, (_, i) => entry(10 + i, '2026-03-02T10:00', null)));
    await eventually(async () => (await stored(open))?.data?.includes(uuid(1000 + 309)) ?? false, 10_000, 'the checkpoint past the 300 stored');
    subscriptions.splice(0).forEach((s) => s.unsubscribe());
    await closeReplica();

    open = await openReplicaForAccount(testAccount, site, options);
    const again = watch(open);
    await again.until(['😀']);
    await eventually(() => again.counter.reads > 0, 10_000, 'the catch-up');
    expect(again.counter.read).toBeLessThan(10);
  });

  it('are rebuilt from the entries when the stored summary cannot be read', async () => {
    const options: ReplicaOptions = { ...fakeIdb, multiInstance: false, key: randomKey(), replicate: false };
    const open = await openReplicaForAccount(testAccount, uniqueName('site'), options);
    await open.db.journal.bulkInsert([entry(1, '2026-03-01T10:00', '😀'), entry(2, '2026-03-02T10:00', '😢')]);
    await open.db.files.insert({
      id: REACTIONS_SUMMARY_ID, kind: 'summary', updated_at: '2026-01-01T00:00:00.000Z', content_type: 'application/json', data: '{"v":1,"checkpoint":',
      sync_state: 'synced', sync_message: null, sync_outbox_id: null,
    });
    await watch(open).until(['😢', '😀']);
  });
});
