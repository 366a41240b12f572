import type { EntryKind } from '@/contract/entry-kind';
import { local } from './create-store';

/**
 * SPEC §2, §9: the journal and voice lists remember that their index was visited
 * (journalIndexVisited, voiceIndexVisited; removed at sign-out). /journal and /voice read it to
 * explain themselves on the first visit only (src/data/hooks/use-first-index-visit.ts,
 * docs/decisions.md "Shell gaps (issue 11)").
 */
const keyOf = (name: EntryKind) => `${name}IndexVisited`;

export function markIndexVisited(name: EntryKind): void {
  local.write(keyOf(name), true);
}

export function wasIndexVisited(name: EntryKind): boolean {
  return local.read(keyOf(name)) === true;
}
