import { useCallback } from 'react';
import { map } from 'rxjs';
import type { RelatedFormOption } from '@/components/form-renderer/types';
import { useLive } from '@/data/hooks/use-live';
import type { OpenReplica } from '@/data/replica/replica-store';
import type { LookupDoc } from '@/data/replica/types';

const none: RelatedFormOption[] = [];

/** Form names (`lookups` kind `form`, replicated for objectives): what a related-forms question offers by name. */
export function useFormNames(): readonly RelatedFormOption[] {
  const factory = useCallback(
    (open: OpenReplica) =>
      open.db.lookups
        .find({ selector: { kind: 'form' } })
        .$.pipe(map((docs) => docs.map((doc) => doc.toJSON() as unknown as LookupDoc).map((doc) => ({ id: doc.id, name: doc.name })))),
    [],
  );
  return useLive('lookups', factory, none, () => false).data;
}
