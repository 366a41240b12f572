import { useEffect, useState } from 'react';
import type { EntryKind } from '@/contract/entry-kind';
import { markIndexVisited, wasIndexVisited } from '../index-visited';

/**
 * Marks the journal or voice index visited (SPEC §2, §9) and says whether this is the first visit:
 * true for the whole of the visit that first set the flag (until the page is left), false after.
 */
export function useFirstIndexVisit(name: EntryKind): boolean {
  const [first] = useState(() => !wasIndexVisited(name));
  useEffect(() => markIndexVisited(name), [name]);
  return first;
}
