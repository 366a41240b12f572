import { useEffect, useState } from 'react';
import { viewFile } from '@/api/files/view-file';
import { fileCacheKey, localFileKey, type FileModule } from '../data/file-keys';
import type { FileDoc } from '../../data/replica/types';
import { blobOf, fetchAndCacheFile } from '../../data/hooks/photo-cache';
import { useReplica } from '../../data/hooks/use-live';

const canMakeUrls = () => typeof URL !== 'undefined' && typeof URL.createObjectURL === 'function';

/**
 * An entry's (or comment's) attachment or drawing as an object URL; null while loading, when
 * missing, or offline with nothing cached. Looks in the replica's `files` collection (encrypted):
 * first the server file's cached bytes, then the bytes of a file written on this device that is
 * not uploaded yet; otherwise fetches GET /v1/files/view through src/api when online and caches it.
 * URLs are revoked on change and unmount.
 */
export function useEntryFile(fileId: string | null, module: FileModule): string | null {
  return useEntryFileView(fileId, module)?.url ?? null;
}

/** As useEntryFile, with the file's content type (a form's file answer does not say whether it is a picture). */
export function useEntryFileView(fileId: string | null, module: FileModule): { url: string; type: string } | null {
  const open = useReplica();
  const [url, setUrl] = useState<{ key: string; url: string; type: string } | null>(null);
  const key = fileId ? `${open?.name ?? ''}:${module}:${fileId}` : '';

  useEffect(() => {
    if (!open || !fileId || !canMakeUrls()) return;
    let objectUrl: string | null = null;
    const show = (blob: Blob | null) => {
      if (objectUrl) URL.revokeObjectURL(objectUrl);
      objectUrl = blob && blob.size > 0 ? URL.createObjectURL(blob) : null;
      setUrl(objectUrl && blob ? { key, url: objectUrl, type: blob.type } : null);
    };
    const cached = fileCacheKey(module, fileId);
    const pending = localFileKey(fileId);
    let asked = false;
    const subscription = open.db.files.find({ selector: { id: { $in: [cached, pending] } } }).$.subscribe({
      next: (docs) => {
        const plain = docs.map((doc) => doc.toJSON() as unknown as FileDoc);
        const hit = plain.find((doc) => doc.id === cached && doc.data) ?? plain.find((doc) => doc.id === pending && doc.data);
        if (hit) {
          show(blobOf(hit));
          return;
        }
        if (!asked && !plain.some((doc) => doc.id === cached)) {
          asked = true;
          void fetchAndCacheFile(open.db, cached, 'file', () => viewFile(fileId, module));
        }
      },
      error: () => undefined,
    });
    return () => {
      subscription.unsubscribe();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [open, fileId, module, key]);

  return url && url.key === key ? { url: url.url, type: url.type } : null;
}
