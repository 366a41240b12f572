import { useEffect, useState } from 'react';
import { getProfilePhoto } from '@/api/users/get-profile-photo';

/**
 * The profile photo of a user as an object URL (null while loading, without a photo, or offline).
 * The URL is revoked when the component unmounts or the user changes.
 */
export function useProfilePhoto(userId: string | null | undefined, hasPhoto = true): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    setUrl(null);
    if (!userId || !hasPhoto || typeof URL.createObjectURL !== 'function') return;
    const controller = new AbortController();
    let objectUrl: string | null = null;
    void getProfilePhoto(userId, controller.signal).then((result) => {
      if (controller.signal.aborted || !result.ok || result.data.size === 0) return;
      objectUrl = URL.createObjectURL(result.data);
      setUrl(objectUrl);
    });
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [userId, hasPhoto]);
  return url;
}
