import type { EntryKind } from '../../../src/contract/entry-kind';

/** The table of each kind of entry: journal and voice share one machinery, used twice. */
export const ENTRY_TABLE = { journal: 'journal_entries', voice: 'voice_entries' } as const satisfies Record<EntryKind, string>;
