/**
 * The two kinds of entry (SPEC §3): one machinery, used twice. Without zod, so the PWA's entry
 * chunk and the service worker can use it; the zod enum is `entryKindSchema` in entries.ts.
 */
export const ENTRY_KINDS = ['journal', 'voice'] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

export const isEntryKind = (value: unknown): value is EntryKind => value === 'journal' || value === 'voice';
