import { local } from './create-store';

/**
 * SPEC §2, §9: the journal and voice lists remember that their index was visited
 * (journalIndexVisited, voiceIndexVisited; removed at sign-out). Nothing reads the flag yet.
 */
export type IndexName = 'journal' | 'voice';

const keyOf = (name: IndexName) => `${name}IndexVisited`;

export function markIndexVisited(name: IndexName): void {
  local.write(keyOf(name), true);
}
