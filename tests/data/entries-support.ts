import type { Account } from '@/contract/users';
import type { JournalEntry } from '@/contract/entries';
import type { TransportRequest } from '@/data/outbox/replay';

export const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export const account = {
  success: true,
  user: {
    id: uuid(1), username: 'kid', first_name: 'Kit', last_name: 'Doe', email: null, user_type_id: 1,
    user_type: { id: 1, system_name: 'young_person_user', name: 'Young person' }, themes: [], has_photo: false,
    resident: { id: uuid(2), home_id: uuid(3), first_name: 'Kit', last_name: 'Doe', preferred_name: null, reward_points: 0, journal_enabled: 1, voice_enabled: 1, rewards_enabled: 1 },
  },
  mfa_configured: false, mfa_methods: [], mfa_required: false, permissions: { homes: {} },
} satisfies Account;

/** A tiny but real PNG header followed by `tail` bytes (sniffed as image/png). */
export function pngFile(name: string, tail = 'pixels'): File {
  const head = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  return new File([new Uint8Array(head), tail], name, { type: 'image/png' });
}

export function jpegFile(name: string, tail = 'photo'): File {
  return new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0]), tail], name, { type: 'image/jpeg' });
}

/** What the server would answer for a created journal entry (its own id). */
export function serverJournalRow(id: string, overrides: Partial<JournalEntry> = {}): JournalEntry {
  return {
    id,
    updated_at: '2026-03-10T10:00:00.123456Z',
    deleted_at: null,
    resident_id: uuid(2),
    creator: { id: uuid(1), first_name: 'Kit', last_name: 'Doe', has_photo: false },
    description: 'from the server',
    reaction: null,
    canvas: null,
    files: [],
    shared_with: [],
    shared_with_management: false,
    comments_count: 0,
    locked_at: null,
    created_at: '2026-03-10T10:00:00.123456Z',
    entry_date: '2026-03-10',
    entry_time: '09:30',
    ...overrides,
  };
}

/** The `id` part of a multipart create: the id the client gave its optimistic document. */
export function sentId(request: TransportRequest): string | null {
  if (!(request.body instanceof FormData)) return null;
  const id = request.body.get('id');
  return typeof id === 'string' ? id : null;
}

/** A multipart part's text (null when absent or a file). */
export function sentField(request: TransportRequest, name: string): string | null {
  if (!(request.body instanceof FormData)) return null;
  const value = request.body.get(name);
  return typeof value === 'string' ? value : null;
}
