/**
 * A deleted entry is sent to replicas only as a tombstone: its id and when it went, nothing a young
 * person wrote (no description, reaction, files or sharing). No endpoint deletes a journal or voice
 * entry today, so this is checked on the presenter every list and pull goes through.
 */
import { describe, expect, it } from 'vitest';
import { presentEntries, type EntryRow } from '../../server/domain/entries/queries';

const row = (deletedAt: string | null): EntryRow =>
  ({
    id: '11111111-1111-4111-8111-111111111111',
    updated_at: '2026-03-10T10:00:00.000000Z',
    deleted_at: deletedAt,
    resident_id: '22222222-2222-4222-8222-222222222222',
    description: '<p>what I wrote</p>',
    reaction: 'sad',
    shared_with: ['33333333-3333-4333-8333-333333333333'],
    shared_with_management: true,
    locked_at: null,
    created_at: '2026-03-10T09:00:00.000000Z',
    creator_id: '22222222-2222-4222-8222-222222222222',
    creator_first_name: 'Jamie',
    creator_last_name: 'Doe',
    creator_has_photo: true,
    comments_count: 2,
    entry_files: [{ id: '44444444-4444-4444-8444-444444444444', role: 'attachment', name: 'me.jpg', mime: 'image/jpeg', size: 10 }],
    entry_date: '2026-03-10',
    entry_time: '09:00',
    category_id: '',
  }) as unknown as EntryRow;

describe('entries as the replicas receive them', () => {
  it('a live entry carries what was written', () => {
    const [entry] = presentEntries('journal', [row(null)]);
    expect(entry).toMatchObject({ description: '<p>what I wrote</p>', reaction: 'sad', deleted_at: null, files: [expect.objectContaining({ name: 'me.jpg' })] });
  });

  it.each(['journal', 'voice'] as const)('a deleted %s entry carries its id and deletion only', (kind) => {
    const [entry] = presentEntries(kind, [row('2026-03-11T08:00:00.000000Z')]);
    expect(entry).toMatchObject({ id: row(null).id, updated_at: '2026-03-10T10:00:00.000000Z', deleted_at: '2026-03-11T08:00:00.000000Z' });
    expect(entry).toMatchObject({ description: null, reaction: null, files: [], canvas: null, shared_with: [], shared_with_management: false, comments_count: 0 });
    expect(JSON.stringify(entry)).not.toMatch(/what I wrote|me\.jpg|Jamie|sad/);
  });
});
