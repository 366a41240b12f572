/** The table of each kind of entry: journal and voice share one machinery, used twice. */
export const ENTRY_TABLE = { journal: 'journal_entries', voice: 'voice_entries' } as const;
export type EntryKind = keyof typeof ENTRY_TABLE;
