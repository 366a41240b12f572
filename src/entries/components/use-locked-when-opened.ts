import { useState } from 'react';

interface Lockable {
  readonly id: string;
  readonly locked_at: string | null;
}

/**
 * Whether the entry's conversation was already closed when its edit screen opened. A lock that
 * arrives while the person is typing (a pull) must not swap the form for the notice and take their
 * words away: the form stays, and saving then says why it cannot be sent.
 */
export function useLockedWhenOpened(entry: Lockable | null): boolean {
  const [seen, setSeen] = useState<{ id: string; locked: boolean } | null>(null);
  if (entry && seen?.id !== entry.id) {
    const locked = Boolean(entry.locked_at);
    // Remembered from the first render that had the entry (React's "information from previous renders").
    setSeen({ id: entry.id, locked });
    return locked;
  }
  return Boolean(entry && seen?.locked);
}
