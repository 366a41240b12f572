import type { EntryKind } from '@/contract/entry-kind';
import { local } from './create-store';

/**
 * SPEC §2, §9: the journal and voice lists remember that their index was visited
 * (journalIndexVisited, voiceIndexVisited; removed at sign-out). Only the remembering is specified;
 * no screen reads the flag (see docs/decisions.md, issue 8: entries).
 */
const keyOf = (name: EntryKind) => `${name}IndexVisited`;

export function markIndexVisited(name: EntryKind): void {
  local.write(keyOf(name), true);
}
