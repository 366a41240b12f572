import type { Live } from '@/data/hooks';
import type { CommentDoc, EmojiDoc, JournalDoc, VoiceCategoryDoc, VoiceDoc } from '@/data/replica/types';

/** A tiny replica for screen tests: hooks read it, tests change it and the screen re-renders. */
export interface FakeReplica {
  voiceEntries: VoiceDoc[];
  journalEntries: JournalDoc[];
  categories: VoiceCategoryDoc[];
  emojis: EmojiDoc[];
  comments: CommentDoc[];
  loading: boolean;
  /** The comments alone still coming (default: as `loading`). */
  commentsLoading?: boolean;
  /** The emojis alone still coming (default: not loading). */
  emojisLoading?: boolean;
}

export const ME = '6f1c2b9e-3a41-4c8e-9d2f-1b7a5e3c9d10';
export const STAFF = { id: 'a1111111-1111-4111-8111-111111111111', first_name: 'Ali', last_name: 'Khan', has_photo: false };
export const CATEGORY = {
  concern: '11111111-1111-4111-8111-000000000001',
  complaint: '11111111-1111-4111-8111-000000000002',
  news: '11111111-1111-4111-8111-000000000004',
};

const sync = { sync_state: 'synced' as const, sync_message: null, sync_outbox_id: null };

export function categories(): VoiceCategoryDoc[] {
  const at = '2026-01-01T00:00:00.000Z';
  return [
    { id: CATEGORY.concern, name: 'Raise a concern', description: 'Tell staff about something that worries you.', updated_at: at },
    { id: CATEGORY.complaint, name: 'Make a complaint', description: 'Tell us when something is not fair.', updated_at: at },
    { id: CATEGORY.news, name: 'Share good news', description: null, updated_at: at },
  ];
}

export function voiceEntry(overrides: Partial<VoiceDoc> = {}): VoiceDoc {
  const created = overrides.created_at ?? '2026-03-01T10:00:00.000Z';
  return {
    id: 'e0000000-0000-4000-8000-000000000001',
    updated_at: created,
    resident_id: '0c7d1e2f-8a9b-4c3d-9e1f-2a3b4c5d6e7f',
    creator: { id: ME, first_name: 'Samuel', last_name: 'Jones', has_photo: false },
    description: 'The lock on the bathroom door is broken.',
    reaction: null,
    canvas: null,
    files: [],
    shared_with: [],
    shared_with_management: false,
    comments_count: 0,
    locked_at: null,
    created_at: created,
    category_id: CATEGORY.concern,
    sort_key: created,
    local_only: false,
    ...sync,
    ...overrides,
  };
}

export function journalEntry(overrides: Partial<JournalDoc> = {}): JournalDoc {
  const { category_id: _category, ...base } = voiceEntry();
  return { ...base, id: 'j0000000-0000-4000-8000-000000000001', entry_date: '2026-03-01', entry_time: '10:00', description: 'Had a good day at school.', ...overrides };
}

export function comment(overrides: Partial<CommentDoc> = {}): CommentDoc {
  return {
    id: 'c0000000-0000-4000-8000-000000000001',
    updated_at: '2026-03-02T10:00:00.000Z',
    entry_id: 'e0000000-0000-4000-8000-000000000001',
    entry_type: 'voice',
    local_only: false,
    comment: 'Thanks for telling us.',
    reaction: null,
    created_at: '2026-03-02T10:00:00.000Z',
    creator: STAFF,
    files: [],
    ...sync,
    ...overrides,
  };
}

export const emojis = (): EmojiDoc[] => [
  { id: 'em-1', emoji: '😊', name: 'Happy', position: 0, updated_at: '2026-01-01T00:00:00.000Z' },
  { id: 'em-2', emoji: '😢', name: 'Sad', position: 1, updated_at: '2026-01-01T00:00:00.000Z' },
];

export const live = <T>(data: T, loading = false): Live<T> => ({ data, loading });
