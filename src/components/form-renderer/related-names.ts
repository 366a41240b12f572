import type { RelatedFormOption } from './types';

/**
 * The name shown for a related form. An id the caller has no name for (a form not synced yet, or
 * one removed since) is shown as "Form 1a2b3c4d" rather than skipped: in a filled form that is an
 * answer, and an answer is never hidden; in fill-in it keeps a ticked choice visible, so it can be
 * unticked.
 */
export function relatedFormName(id: string, relatedForms: readonly RelatedFormOption[] | undefined): string {
  return relatedForms?.find((f) => f.id === id)?.name ?? `Form ${id.slice(0, 8)}`;
}
