/** What opening documents leaves behind on the device: the version seen ("New"/"Updated" go) and a book's page. */
import { markDocumentOpened, rememberReadingPosition } from '@/data/replica/documents';
import { getReplica } from '@/data/replica/replica-store';
import type { DocumentDoc } from '@/data/replica/types';

export async function rememberOpened(doc: Pick<DocumentDoc, 'id' | 'version'>): Promise<void> {
  const open = getReplica();
  if (open && !open.db.closed) await markDocumentOpened(open.db, doc).catch(() => undefined);
}

export async function rememberPage(documentId: string, pageId: string): Promise<void> {
  const open = getReplica();
  if (open && !open.db.closed) await rememberReadingPosition(open.db, documentId, pageId).catch(() => undefined);
}
