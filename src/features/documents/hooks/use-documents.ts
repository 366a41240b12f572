import { useCallback } from 'react';
import { useLive, type Live } from '@/data/hooks/use-live';
import { documentWithState$, documentsWithState$, type DocumentWithState } from '@/data/replica/documents';
import type { OpenReplica } from '@/data/replica/replica-store';

const none: DocumentWithState[] = [];

/** Every document shared with the young person, with this device's state of each, live from the replica. */
export function useDocuments(): Live<DocumentWithState[]> {
  const factory = useCallback((open: OpenReplica) => documentsWithState$(open.db), []);
  return useLive('documents', factory, none, (list) => list.length === 0);
}

/** One document; null once loaded: not on this device (unknown, withdrawn, or no longer theirs). */
export function useDocument(id: string): Live<DocumentWithState | null> {
  const factory = useCallback((open: OpenReplica) => documentWithState$(open.db, id), [id]);
  return useLive('documents', id ? factory : null, null, (found) => found === null);
}
