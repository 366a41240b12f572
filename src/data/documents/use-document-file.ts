import { useEffect, useState } from 'react';
import { map } from 'rxjs';
import { documentStreamUrl, getDocumentFile } from '@/api/documents/document-file';
import { useReplica } from '../hooks/use-live';
import { documentStateId, type DocumentFileRef } from '../replica/documents';
import type { DocumentStateDoc, KeptBlob } from '../replica/types';
import { useOnlineStatus } from '../use-online-status';
import { chunkCount, readKeptFile } from './kept-bytes';

/**
 * One file of a document, as a screen shows it:
 * - `ready` with an object URL (and the bytes) from the device when it is kept, decrypted from its
 *   chunks; otherwise, online, fetched through src/api (not stored: the young person chose not to
 *   keep it), or for video and audio streamed from the server by the element itself (`stream`);
 * - `offline`: not on this device and no connection (the screen says so plainly);
 * - `missing`: the server could not give it.
 */
export type DocumentFileView =
  | { readonly status: 'loading' }
  | { readonly status: 'ready'; readonly url: string; readonly blob: Blob | null; readonly source: 'kept' | 'online' | 'stream' }
  | { readonly status: 'offline' }
  | { readonly status: 'missing' };

const canMakeUrls = () => typeof URL !== 'undefined' && typeof URL.createObjectURL === 'function';

const complete = (blob: KeptBlob | undefined): boolean => Boolean(blob && blob.chunks >= chunkCount(blob.size));

/**
 * `file` null: nothing to show. `stream`: a video or audio that may play straight from the server
 * while online (range requests; the bytes are never held whole by the page).
 */
export function useDocumentFile(documentId: string, file: DocumentFileRef | null, options: { stream?: boolean } = {}): DocumentFileView {
  const open = useReplica();
  const online = useOnlineStatus();
  const stream = options.stream === true;
  const fileId = file?.id ?? null;
  const itemId = file?.itemId ?? null;
  const mime = file?.mime ?? '';
  const [view, setView] = useState<{ key: string; view: DocumentFileView } | null>(null);
  const key = `${open?.name ?? ''}:${documentId}:${fileId ?? ''}:${online ? 1 : 0}:${stream ? 1 : 0}`;

  useEffect(() => {
    if (!open || !fileId) return;
    let live = true;
    let objectUrl: string | null = null;
    /** Where what is on screen came from: once something plays or shows, it is not swapped under the person. */
    let shown: 'asking' | 'kept' | 'online' | 'stream' | 'offline' | 'missing' | null = null;
    const controller = new AbortController();
    const show = (next: DocumentFileView) => {
      if (!live) return;
      shown = next.status === 'ready' ? next.source : next.status === 'loading' ? shown : next.status;
      setView({ key, view: next });
    };
    const showBlob = (blob: Blob, source: 'kept' | 'online') => {
      if (objectUrl) URL.revokeObjectURL(objectUrl);
      objectUrl = canMakeUrls() ? URL.createObjectURL(blob) : null;
      show({ status: 'ready', url: objectUrl ?? '', blob, source });
    };

    const fromElsewhere = async () => {
      if (shown) return;
      shown = 'asking';
      if (!online) return show({ status: 'offline' });
      const streamUrl = stream ? documentStreamUrl(documentId, itemId) : null;
      if (streamUrl) return show({ status: 'ready', url: streamUrl, blob: null, source: 'stream' });
      const result = await getDocumentFile(documentId, itemId, { signal: controller.signal });
      if (!live || shown !== 'asking') return;
      if (result.ok) showBlob(mime && !result.data.type ? new Blob([result.data], { type: mime }) : result.data, 'online');
      else show({ status: result.status === 0 ? 'offline' : 'missing' });
    };

    const subscription = open.db.documents
      .findOne(documentStateId(documentId))
      .$.pipe(map((doc) => (doc ? (doc.toJSON() as unknown as DocumentStateDoc) : null)))
      .subscribe({
        next: (state) => {
          const blob = state?.kept?.blobs.find((b) => b.id === fileId);
          const replaceable = shown === null || shown === 'asking' || shown === 'offline' || shown === 'missing';
          if (complete(blob) && replaceable) {
            shown = 'kept';
            void readKeptFile(open.db, documentId, blob!).then((bytes) => {
              if (!live) return;
              if (bytes) {
                showBlob(bytes, 'kept');
              } else {
                shown = null;
                void fromElsewhere();
              }
            });
            return;
          }
          if (shown === null) void fromElsewhere();
        },
        error: () => undefined,
      });
    return () => {
      live = false;
      controller.abort();
      subscription.unsubscribe();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [open, documentId, fileId, itemId, mime, online, stream, key]);

  if (!fileId) return { status: 'missing' };
  return view && view.key === key ? view.view : { status: 'loading' };
}
