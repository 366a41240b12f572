/**
 * The journal list's on-device search and filters (src/entries/hooks/journal-entries-query.ts), the
 * reactions offered as a filter, and the time order of comments and feedback, over a real
 * encrypted replica on fake-indexeddb.
 */
import { firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { comments$ } from '@/entries/hooks/entry-queries';
import { journalReactions$ } from '@/entries/data/journal-reactions';
import { journalEntries$ } from '@/entries/hooks/journal-entries-query';
import { feedback$ } from '@/data/hooks/queries';
import { closeReplica, openReplicaForAccount, type ReplicaOptions } from '@/data/replica/lifecycle';
import type { OpenReplica } from '@/data/replica/replica-store';
import type { CommentDoc, FeedbackDoc, JournalDoc } from '@/data/replica/types';
import { fakeIdb, randomKey, testAccount, uniqueName, uuid } from './fixtures';

const synced = { sync_state: 'synced', sync_message: null, sync_outbox_id: null } as const;

const replica: ReplicaOptions = { ...fakeIdb, multiInstance: false, key: randomKey(), replicate: false };

afterEach(async () => {
  await closeReplica();
});

const open = (): Promise<OpenReplica> => openReplicaForAccount(testAccount, uniqueName('site'), replica);

function entry(n: number, date: string, time: string, extra: Partial<JournalDoc> = {}): JournalDoc {
  return {
    id: uuid(1000 + n), updated_at: '2026-01-01T00:00:00.000000Z', resident_id: uuid(2), created_at: '2026-01-01T00:00:00.000000Z', locked_at: null,
    sort_key: `${date}T${time}`, local_only: false, creator: { id: uuid(1), first_name: 'K', last_name: 'D', has_photo: false },
    description: `entry ${n}`, reaction: null, canvas: null, files: [], shared_with: [], shared_with_management: false, comments_count: 0,
    entry_date: date, entry_time: time, ...synced, ...extra,
  };
}

const descriptions = (page: { items: JournalDoc[] }) => page.items.map((d) => d.description);

describe('journal list: search and filters on the device', () => {
  it('a date range on entry_date (both ends included, either way round), newest first, paged', async () => {
    const { db } = await open();
    await db.journal.bulkInsert([
      entry(1, '2026-02-28', '23:59'),
      entry(2, '2026-03-01', '00:00'),
      entry(3, '2026-03-01', '18:30'),
      entry(4, '2026-03-05', '09:00'),
      entry(5, '2026-03-07', '23:59'),
      entry(6, '2026-03-08', '00:00'),
    ]);
    const march = await firstValueFrom(journalEntries$(db, '', 10, { from: '2026-03-01', to: '2026-03-07' }));
    expect(descriptions(march)).toEqual(['entry 5', 'entry 4', 'entry 3', 'entry 2']);
    expect(march.hasMore).toBe(false);
    const swapped = await firstValueFrom(journalEntries$(db, '', 10, { from: '2026-03-07', to: '2026-03-01' }));
    expect(descriptions(swapped)).toEqual(descriptions(march));
    const paged = await firstValueFrom(journalEntries$(db, '', 2, { from: '2026-03-01' }));
    expect(descriptions(paged)).toEqual(['entry 6', 'entry 5']);
    expect(paged.hasMore).toBe(true);
    expect(descriptions(await firstValueFrom(journalEntries$(db, '', 10, { to: '2026-03-01' })))).toEqual(['entry 3', 'entry 2', 'entry 1']);
    expect(descriptions(await firstValueFrom(journalEntries$(db, '', 10, { from: 'not a date' })))).toHaveLength(6);
  });

  it('reaction and sharing filters combine with search and the date range; the reactions used are offered once each', async () => {
    const opened = await open();
    const { db } = opened;
    await db.journal.bulkInsert([
      entry(1, '2026-03-01', '10:00', { reaction: '😀', description: 'football with Sam' }),
      entry(2, '2026-03-02', '10:00', { reaction: '😢', description: 'football lost', shared_with: [uuid(9)] }),
      entry(3, '2026-03-03', '10:00', { reaction: '😀', description: 'park', shared_with_management: true }),
      entry(4, '2026-03-04', '10:00', { reaction: '😀', description: 'football won' }),
      entry(5, '2026-03-05', '10:00', { description: 'football again', shared_with: [uuid(9)] }),
    ]);
    const happy = await firstValueFrom(journalEntries$(db, '', 10, { reaction: '😀' }));
    expect(descriptions(happy)).toEqual(['football won', 'park', 'football with Sam']);
    expect(descriptions(await firstValueFrom(journalEntries$(db, 'football', 10, { reaction: '😀' })))).toEqual(['football won', 'football with Sam']);
    expect(descriptions(await firstValueFrom(journalEntries$(db, '', 10, { sharing: 'shared' })))).toEqual(['football again', 'park', 'football lost']);
    expect(descriptions(await firstValueFrom(journalEntries$(db, '', 10, { sharing: 'private' })))).toEqual(['football won', 'football with Sam']);
    const combined = await firstValueFrom(journalEntries$(db, 'football', 1, { sharing: 'private', from: '2026-03-01', to: '2026-03-03' }));
    expect(descriptions(combined)).toEqual(['football with Sam']);
    expect(combined.hasMore).toBe(false);
    const more = await firstValueFrom(journalEntries$(db, 'football', 1, { sharing: 'private' }));
    expect(descriptions(more)).toEqual(['football won']);
    expect(more.hasMore).toBe(true);
    expect((await firstValueFrom(journalEntries$(db, '', 10, { reaction: '🤩' }))).items).toEqual([]);
    expect(await firstValueFrom(journalReactions$(opened))).toEqual(['😀', '😢']);
  });

  it('1,000 entries: a filtered page comes back quickly and right', async () => {
    const { db } = await open();
    const reactions = ['😀', '😢', '😡', null];
    await db.journal.bulkInsert(
      Array.from({ length: 1_000 }, (_, i) => {
        const day = new Date(Date.UTC(2023, 0, 1) + Math.floor(i / 4) * 86_400_000).toISOString().slice(0, 10);
        return entry(i, day, `${String(8 + (i % 4) * 3).padStart(2, '0')}:00`, { reaction: reactions[i % 4]!, shared_with_management: i % 2 === 0 });
      }),
    );
    const started = performance.now();
    const page = await firstValueFrom(journalEntries$(db, 'entry', 20, { reaction: '😢', sharing: 'private', from: '2023-03-01' }));
    const elapsed = performance.now() - started;
    expect(page.items).toHaveLength(20);
    expect(page.items.every((d) => d.reaction === '😢' && !d.shared_with_management && d.entry_date >= '2023-03-01')).toBe(true);
    expect(page.items.map((d) => d.sort_key)).toEqual([...page.items.map((d) => d.sort_key)].sort().reverse());
    expect(page.hasMore).toBe(true);
    // Generous for a two-core CI machine; a scan that decrypted per document or went quadratic would not make it.
    expect(elapsed).toBeLessThan(3_000);
  });
});

describe('time order, never id order', () => {
  it('comments: oldest first by created_at, then id, whatever their (random) ids', async () => {
    const { db } = await open();
    const comment = (id: string, created_at: string): CommentDoc => ({
      id, updated_at: created_at, entry_type: 'journal', entry_id: uuid(50), created_at, local_only: false, comment: id, reaction: null,
      creator: { id: uuid(1), first_name: 'K', last_name: 'D', has_photo: false }, files: [], ...synced,
    });
    await db.comments.bulkInsert([
      comment('f0000000-0000-4000-8000-000000000001', '2026-03-01T10:00:00.000000Z'),
      comment('a0000000-0000-4000-8000-000000000002', '2026-03-01T11:00:00.000000Z'),
      comment('c0000000-0000-4000-8000-000000000003', '2026-03-01T11:00:00.000000Z'),
      comment('10000000-0000-4000-8000-000000000004', '2026-03-02T09:00:00.000000Z'),
    ]);
    expect((await firstValueFrom(comments$(db, 'journal', uuid(50)))).map((c) => c.id[0])).toEqual(['f', 'a', 'c', '1']);
  });

  it('feedback: newest latest comment first, by its time, not by its (client-made) id', async () => {
    const { db } = await open();
    const item = (n: number, commentId: string, at: string): FeedbackDoc => ({
      id: uuid(600 + n), updated_at: at, type: 'journal', resident_id: uuid(2), entry_id: uuid(700 + n), comment_id: commentId,
      count: 1, awaiting_resident_response: true, locked_at: null, reaction: null,
      entry: { id: uuid(700 + n), excerpt: `x${n}`, created_at: at }, category: null,
      latest_comment: { id: commentId, comment: 'c', created_at: at, creator: { id: uuid(9), first_name: 'A', last_name: 'B', has_photo: false } },
      ...synced,
    });
    await db.feedback.bulkInsert([
      item(1, 'ffffffff-0000-4000-8000-000000000001', '2026-03-01T10:00:00.000000Z'),
      item(2, '00000000-0000-4000-8000-000000000002', '2026-03-03T10:00:00.000000Z'),
      item(3, '88888888-0000-4000-8000-000000000003', '2026-03-02T10:00:00.000000Z'),
    ]);
    expect((await firstValueFrom(feedback$(db, 'journal'))).map((f) => f.entry.excerpt)).toEqual(['x2', 'x3', 'x1']);
  });
});
