import { useCallback } from 'react';
import { map } from 'rxjs';
import { useLive } from '@/data/hooks/use-live';
import type { OpenReplica } from '@/data/replica/replica-store';
import type { LookupDoc } from '@/data/replica/types';

export interface FormName {
  readonly id: string;
  readonly name: string;
}

const none: FormName[] = [];

/** Form names (GET /v1/forms, kept in `lookups` as kind `form`): what a related-forms question offers and its answer names (objectives and documents). */
export function useFormNames(): readonly FormName[] {
  const factory = useCallback(
    (open: OpenReplica) =>
      open.db.lookups
        .find({ selector: { kind: 'form' } })
        .$.pipe(map((docs) => docs.map((doc) => doc.toJSON() as unknown as LookupDoc).map((doc) => ({ id: doc.id, name: doc.name })))),
    [],
  );
  return useLive('lookups', factory, none, () => false).data;
}
