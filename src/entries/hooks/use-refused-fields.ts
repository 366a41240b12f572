import { useCallback } from 'react';
import type { OpenReplica } from '../../data/replica/replica-store';
import { useLive } from '../../data/hooks/use-live';
import { refusedFields$, type RefusedFields } from '../data/refused-fields';

/**
 * The field errors the server gave when it refused what the form under `formKey` (its draft key)
 * sent, while the entry is still failed on that write; null otherwise, and while the replica opens.
 */
export function useRefusedFields(formKey: string | null): RefusedFields | null {
  const factory = useCallback((open: OpenReplica) => refusedFields$(open.db, formKey ?? ''), [formKey]);
  return useLive<RefusedFields | null>('files', formKey ? factory : null, null, () => false).data;
}
