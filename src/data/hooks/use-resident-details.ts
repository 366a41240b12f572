import { useCallback } from 'react';
import type { OpenReplica } from '../replica/replica-store';
import type { ResidentDoc } from '../replica/types';
import { residentDetails$ } from './queries';
import { useLive, type Live } from './use-live';

/** The signed-in young person's details, flags and app settings (GET /v1/projects/residents/{id}). */
export function useResidentDetails(): Live<ResidentDoc | null> {
  const factory = useCallback((open: OpenReplica) => residentDetails$(open.db, open.identity.residentId), []);
  return useLive('resident', factory, null, (doc) => doc === null);
}
