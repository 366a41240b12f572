import { ALLOWED_FILE_TYPES, isAllowedMime } from '@/contract/entries';

/**
 * What the file pickers offer: the types the contract allows for any upload (images for image
 * questions). Naming them rather than `image/*` also makes a phone turn a HEIC photo into a JPEG.
 * The caller still checks the bytes when it keeps the file; this only spares a pointless pick.
 */
const accept = (images: boolean) =>
  Object.entries(ALLOWED_FILE_TYPES)
    .filter(([mime]) => !images || mime.startsWith('image/'))
    .flatMap(([mime, extensions]) => [mime, ...extensions])
    .join(',');
export const IMAGE_ACCEPT = accept(true);
export const FILE_ACCEPT = accept(false);
export const isAllowedImage = (file: Blob) => isAllowedMime(file.type) && file.type.startsWith('image/');
export const isAllowedFile = (file: Blob) => isAllowedMime(file.type);

/** A picture's alternative text: the question's label; a signature says it is one when the label does not. */
export const imageAlt = (label: string): string => label;
export const signatureAlt = (label: string): string => (/signature|signed/i.test(label) ? label : `Signature: ${label}`);
export const attachmentAlt = (label: string, index: number, count: number): string => `${label}: file ${index + 1} of ${count}`;
