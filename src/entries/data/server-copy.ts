/**
 * A delivered entry or comment as the server has it: its row from the outbox's answer (when it
 * reads as the contract says) and the move of files written on this device to the server's ids.
 */
import type { EntryKind } from '@/contract/entry-kind';
import type { RxCollection } from 'rxdb';
import { commentSchema } from '@/contract/comments';
import { journalEntrySchema, voiceEntrySchema, type EntryFile } from '@/contract/entries';
import type { LocalRef } from '../../data/outbox/types';
import { incrementalRemoveEmptied } from '../../data/replica/remove-emptied';
import type { ReplicaDatabase } from '../../data/replica/replica-store';
import { SYNCED, syncFields, type FileDoc } from '../../data/replica/types';
import { commentDocOf, journalDocOf, voiceDocOf } from '../../data/replication/endpoints';
import { fileCacheKey, localFileKey, type FileModule } from './file-keys';

export type Doc = Record<string, unknown> & { id: string };

/** The answer's row as a replica document (without sync fields), or null when it does not read. */
export function serverDocOf(local: LocalRef, localDoc: Doc, data: Record<string, unknown> | null): Doc | null {
  if (!data) return null;
  if (local.collection === 'journal') {
    const parsed = journalEntrySchema.safeParse(data);
    return parsed.success ? (journalDocOf(parsed.data) as Doc) : null;
  }
  if (local.collection === 'voice') {
    const parsed = voiceEntrySchema.safeParse(data);
    return parsed.success ? (voiceDocOf(parsed.data) as Doc) : null;
  }
  if (local.collection === 'comments') {
    const parsed = commentSchema.safeParse(data);
    return parsed.success ? (commentDocOf(localDoc.entry_type as EntryKind, parsed.data) as Doc) : null;
  }
  return null;
}

export const moduleOf = (local: LocalRef): FileModule =>
  local.collection === 'comments' ? 'comment' : (local.collection as EntryKind);

function filesOf(doc: Doc): EntryFile[] {
  const list = Array.isArray(doc.files) ? (doc.files as EntryFile[]) : [];
  const canvas = doc.canvas && typeof doc.canvas === 'object' ? [doc.canvas as EntryFile] : [];
  return [...list, ...canvas];
}

/**
 * Moves the bytes of files written on this device (`local:<id>`) to the server's file ids
 * (`file:<module>:<id>`, matched by name and size), so a photo or drawing stays viewable offline
 * without a download; bytes the server's copy does not list are dropped (and the `local:` document
 * keeps none).
 */
export async function moveLocalFiles(db: ReplicaDatabase, module: FileModule, localDoc: Doc, serverDoc: Doc | null): Promise<void> {
  const files = db.files as unknown as RxCollection<FileDoc>;
  const remaining = serverDoc ? filesOf(serverDoc) : [];
  for (const file of filesOf(localDoc)) {
    const stored = await files.findOne(localFileKey(file.id)).exec();
    if (!stored) continue;
    const index = remaining.findIndex((f) => f.name === file.name && f.size === file.size);
    if (index >= 0) {
      const [match] = remaining.splice(index, 1);
      const plain = stored.toJSON() as unknown as FileDoc;
      await files.upsert({ ...plain, id: fileCacheKey(module, match!.id), kind: 'file', updated_at: new Date().toISOString(), ...syncFields(SYNCED) });
    }
    // Emptied as it goes: RxDB keeps a removed document's last data, here the photo's bytes.
    await incrementalRemoveEmptied(stored);
  }
}
