import { local } from './create-store';

/**
 * SPEC §2, §9: the journal and voice lists remember that their index was visited
 * (journalIndexVisited, voiceIndexVisited; removed at sign-out). Only the remembering is specified;
 * no screen reads the flag (see docs/decisions.md, issue 8: entries).
 */
export type IndexName = 'journal' | 'voice';

const keyOf = (name: IndexName) => `${name}IndexVisited`;

export function markIndexVisited(name: IndexName): void {
  local.write(keyOf(name), true);
}
