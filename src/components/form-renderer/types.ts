import type { ComponentType } from 'react';
import type { FileAnswer } from '@/contract/forms';

export interface FormFilePreviewProps {
  file: FileAnswer;
  alt: string;
}

/**
 * How the renderer reaches files without knowing where they live: the caller (objectives now,
 * documents next) encrypts, stores and shows them; the renderer only holds `{ file_id }` answers.
 */
export interface FormFiles {
  /** Keeps a file the young person attached or drew (the caller encrypts and stores it on the device) and returns the answer to hold. */
  store(blob: Blob, name: string): Promise<FileAnswer>;
  /** Shows a file answer (stored locally or on the server): the caller's component, e.g. an <img> from the encrypted cache. */
  Preview: ComponentType<FormFilePreviewProps>;
}

export interface RelatedFormOption {
  id: string;
  name: string;
}
