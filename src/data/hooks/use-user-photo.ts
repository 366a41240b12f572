import { useEffect, useState } from 'react';
import { getProfilePhoto } from '@/api/users/get-profile-photo';
import type { FileDoc } from '../replica/types';
import { photoKey } from '../replication/photo-names';
import { blobOf, fetchAndCachePhoto, photoNeedsFetch } from './photo-cache';
import { useReplica } from './use-live';

const canMakeUrls = () => typeof URL !== 'undefined' && typeof URL.createObjectURL === 'function';

/**
 * A user's profile photo as an object URL (null while loading, without a photo, or offline with
 * nothing cached). Cached encrypted in the replica; fetched through src/api when missing and
 * online. Without an open replica it falls back to the network only. URLs are revoked on change.
 */
export function useUserPhoto(userId: string | null): string | null {
  const open = useReplica();
  const [url, setUrl] = useState<{ key: string; url: string } | null>(null);
  const key = userId ? `${open?.name ?? 'network'}:${userId}` : '';

  useEffect(() => {
    if (!userId || !canMakeUrls()) return;
    let objectUrl: string | null = null;
    const show = (blob: Blob | null) => {
      if (objectUrl) URL.revokeObjectURL(objectUrl);
      objectUrl = blob && blob.size > 0 ? URL.createObjectURL(blob) : null;
      setUrl(objectUrl ? { key, url: objectUrl } : null);
    };

    if (!open) {
      const controller = new AbortController();
      void getProfilePhoto(userId, controller.signal).then((result) => {
        if (!controller.signal.aborted && result.ok) show(result.data);
      });
      return () => {
        controller.abort();
        if (objectUrl) URL.revokeObjectURL(objectUrl);
      };
    }

    const subscription = open.db.files.findOne(photoKey(userId)).$.subscribe({
      next: (doc) => {
        const plain = doc ? (doc.toJSON() as unknown as FileDoc) : null;
        if (plain?.data) show(blobOf(plain));
        if (photoNeedsFetch(plain)) void fetchAndCachePhoto(open.db, userId);
      },
      error: () => undefined,
    });
    return () => {
      subscription.unsubscribe();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [open, userId, key]);

  return url && url.key === key ? url.url : null;
}
