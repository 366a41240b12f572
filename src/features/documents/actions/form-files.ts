/**
 * Files a young person adds to a form document (a photo, their signature, attachments): prepared as
 * every upload is (photos resized) and kept encrypted on the device (`local:<id>` in the replica's
 * `files`) until the answers are sent; the draft names them by id.
 */
import type { EntryFile } from '@/contract/entries';
import { getReplica } from '@/data/replica/replica-store';
import { readLocalFile, storeLocalFile } from '@/entries/data/local-files';
import { prepareFiles } from '@/entries/data/write-support';

export async function storeFormFile(blob: Blob, name: string): Promise<EntryFile> {
  const open = getReplica();
  if (!open || open.db.closed) throw new Error('The replica is not open');
  const [prepared] = await prepareFiles([blob instanceof File ? blob : new File([blob], name, { type: blob.type })]);
  return storeLocalFile(open.db, prepared!, prepared!.name || name);
}

/** A file added on this device, read back (null when it is not here any more). */
export async function readFormFile(id: string, name: string): Promise<Blob | null> {
  const open = getReplica();
  if (!open || open.db.closed) return null;
  return readLocalFile(open.db, { id, name, mime: '', size: 0 });
}
