/**
 * The young person's choices about what stays on the device (issue 11): the Keep offline switch of
 * one document, and "Free all". The keeper (src/data/documents/keeper.ts) then fetches or erases the
 * encrypted bytes.
 */
import { freeAllKept, setKeepOffline } from '@/data/documents/keeper';
import { getReplica } from '@/data/replica/replica-store';

export async function keepOffline(documentId: string, keep: boolean): Promise<boolean> {
  const open = getReplica();
  if (!open || open.db.closed) return false;
  await setKeepOffline(open, documentId, keep);
  return true;
}

export async function freeAllDocuments(): Promise<boolean> {
  const open = getReplica();
  if (!open || open.db.closed) return false;
  await freeAllKept(open);
  return true;
}
