/**
 * What the outbox's outcome does to the replica for a form document's answers (the `documents`
 * collection, wired by the composition root, src/app/start-data.ts):
 * - delivered (2xx): the row carries the server's submission at once (the next pull brings the same),
 *   the answers on their way are done, and the draft and the files kept for sending are erased;
 * - refused (422 or another 4xx): this device's state of the document is failed with the message and
 *   the server's field errors (shown beside the questions); the draft and the files stay.
 * Applying either twice changes nothing.
 */
import { documentSubmissionSchema } from '@/contract/documents';
import { draftId } from '@/data/drafts';
import { eraseFileDocs } from '@/data/documents/kept-bytes';
import type { LocalRef, OutboxResult } from '@/data/outbox/types';
import { changeDocumentState, isDocumentStateId } from '@/data/replica/documents';
import type { SyncState } from '@/data/replica/local-writes';
import { whenReplicaOpen } from '@/data/replica/replica-store';
import type { DocumentDoc } from '@/data/replica/types';
import { localFileKey } from '@/entries/data/file-keys';
import { documentDraftKey } from './submit-form';

const documentIdOf = (local: LocalRef): string | null => (isDocumentStateId(local.id) ? local.id.slice('state:'.length) : null);

export async function settleSubmission(local: LocalRef, sync: SyncState, result: OutboxResult | null | undefined): Promise<void> {
  const documentId = documentIdOf(local);
  if (!documentId) return;
  const { db } = await whenReplicaOpen();

  if (sync.state !== 'synced') {
    await changeDocumentState(db, documentId, (state) => {
      // A refusal of an earlier attempt never marks a newer one.
      if (state.sync_outbox_id !== sync.outbox_id) return null;
      return {
        ...state,
        sync_state: sync.state,
        sync_message: sync.message,
        sync_outbox_id: sync.outbox_id,
        errors: sync.state === 'failed' ? ((result?.errors as Record<string, string[]> | undefined) ?? null) : null,
      };
    });
    return;
  }

  let files: string[] = [];
  const settled = await changeDocumentState(db, documentId, (state) => {
    files = (state.outgoing?.files ?? []).map((file) => localFileKey(file.id));
    return state.outgoing || state.sync_state !== 'synced' ? { ...state, outgoing: null, errors: null, sync_state: 'synced', sync_message: null, sync_outbox_id: null } : null;
  });
  const parsed = result?.data ? documentSubmissionSchema.safeParse(result.data) : null;
  if (parsed?.success) {
    const row = await db.documents.findOne(documentId).exec();
    const current = row?.toJSON() as unknown as DocumentDoc | undefined;
    if (row && current && current.kind === 'form' && !current.submission) {
      await row.incrementalModify((doc) => ({ ...doc, submission: parsed.data }) as typeof doc);
    }
  }
  if (settled) {
    await eraseFileDocs(db, [draftId(documentDraftKey(documentId)), ...files]).catch(() => undefined);
  }
}
