/**
 * The image check before queueing (SPEC §5: "Image added is inappropriate"): online, each new photo
 * and the new drawing go to POST .../photos/nsfw. The drawing is checked here because the server
 * classifies attachments only (a canvas part is checked for being a PNG, not for what it shows).
 */
import { checkImage } from '@/api/entries/check-image';
import { isOnline } from './write-support';

/** Which field a refused image belongs to, so the form shows the message beside it. */
export type ImageField = 'files' | 'canvas';

export type ImageCheck =
  | { readonly outcome: 'ok' }
  /** The check could not be made for want of a network (status 0): queued anyway, the server checks. */
  | { readonly outcome: 'offline' }
  | { readonly outcome: 'refused'; readonly field: ImageField };

const OK: ImageCheck = { outcome: 'ok' };
const OFFLINE: ImageCheck = { outcome: 'offline' };

/**
 * `refused` when one image is inappropriate; `offline` when there is no network; otherwise `ok`
 * (a failing check does not block: the server checks attachments again when the entry arrives).
 */
export async function checkImages(residentId: string | null, files: readonly File[], canvas: Blob | null = null): Promise<ImageCheck> {
  if (!isOnline()) return OFFLINE;
  if (!residentId) return OK;
  const images: { blob: Blob; name: string; field: ImageField }[] = [
    ...files.filter((file) => file.type.startsWith('image/')).map((file) => ({ blob: file, name: file.name, field: 'files' as const })),
    ...(canvas ? [{ blob: canvas, name: 'canvas.png', field: 'canvas' as const }] : []),
  ];
  for (const image of images) {
    const result = await checkImage(residentId, image.blob, image.name);
    if (result.ok && result.data.inappropriate) return { outcome: 'refused', field: image.field };
    if (!result.ok && result.status === 0) return OFFLINE;
  }
  return OK;
}
