import { useUserPhoto } from './hooks/use-user-photo';

/**
 * The profile photo of a user as an object URL (null while loading, without a photo, or offline
 * with nothing cached). Kept for existing screens; the cached, encrypted version is useUserPhoto.
 */
export function useProfilePhoto(userId: string | null | undefined, hasPhoto = true): string | null {
  return useUserPhoto(hasPhoto && userId ? userId : null);
}
