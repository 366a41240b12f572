/**
 * Files written on this device before they reach the server: their bytes are kept encrypted in
 * the replica's `files` collection (`local:<file id>`, kind `local`) so a just-written entry shows
 * its photo or drawing offline; the outbox holds its own sealed copy to upload. Once the server
 * has them, settle.ts moves them to the server's file ids.
 */
import { base64ToBytes, bytesToBase64 } from '@/contract/base64';
import type { EntryFile } from '@/contract/entries';
import type { ReplicaDatabase } from '../../data/replica/replica-store';
import { SYNCED, syncFields, type FileDoc } from '../../data/replica/types';
import { fileCacheKey, localFileKey, type FileModule } from './file-keys';

export async function storeLocalFile(db: ReplicaDatabase, file: Blob, name: string): Promise<EntryFile> {
  const id = crypto.randomUUID();
  const mime = file.type || 'application/octet-stream';
  const doc: FileDoc = {
    id: localFileKey(id),
    kind: 'local',
    updated_at: new Date().toISOString(),
    content_type: mime,
    data: bytesToBase64(new Uint8Array(await file.arrayBuffer())),
    ...syncFields(SYNCED),
  };
  await db.files.upsert(doc);
  return { id, name, mime, size: file.size };
}

/**
 * A file written on this device, read back from the replica as a File (its name and type from
 * `file`): what a write sends again when it is re-queued. Null when its bytes are not here (a
 * server file, or one already moved to the server's id).
 */
export async function readLocalFile(db: ReplicaDatabase, file: EntryFile): Promise<File | null> {
  const doc = await db.files.findOne(localFileKey(file.id)).exec();
  const plain = doc?.toJSON() as FileDoc | undefined;
  if (!plain?.data) return null;
  return new File([base64ToBytes(plain.data)], file.name, { type: file.mime || plain.content_type });
}

/**
 * A server file whose bytes this device cached when it was shown (`file:<module>:<id>`), as a
 * File: what keeping one's own version sends again when the server no longer has that file.
 */
export async function readCachedFile(db: ReplicaDatabase, module: FileModule, file: EntryFile): Promise<File | null> {
  const doc = await db.files.findOne(fileCacheKey(module, file.id)).exec();
  const plain = doc?.toJSON() as FileDoc | undefined;
  if (!plain?.data) return null;
  return new File([base64ToBytes(plain.data)], file.name, { type: file.mime || plain.content_type });
}
