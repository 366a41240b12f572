import { ALLOWED_FILE_TYPES } from '@/contract/entries';

/** What the file pickers offer: images for image questions; for attachments, the types the contract allows anywhere. */
export const IMAGE_ACCEPT = 'image/*';
export const FILE_ACCEPT = Object.entries(ALLOWED_FILE_TYPES)
  .flatMap(([mime, extensions]) => [mime, ...extensions])
  .join(',');

/** A picture's alternative text: the question's label; a signature says it is one when the label does not. */
export const imageAlt = (label: string): string => label;
export const signatureAlt = (label: string): string => (/signature|signed/i.test(label) ? label : `Signature: ${label}`);
export const attachmentAlt = (label: string, index: number, count: number): string => `${label}: file ${index + 1} of ${count}`;
