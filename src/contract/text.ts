import type { z } from 'zod';
import { chosenMessages } from './messages';

/**
 * Text no field may hold, on either side: NUL (PostgreSQL text and jsonb refuse 0x00) and lone
 * UTF-16 surrogates (half of a pair: not Unicode, so it cannot be written as UTF-8). A whole
 * emoji is a proper pair and is fine. Matched on code units (no `u` flag) on purpose.
 */
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const UNSAVABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isSavableText(text: string): boolean {
  return !UNSAVABLE.test(text);
}

/** Where the field names of a report would themselves hold such a character. */
export function printableKey(key: string): string {
  return key.replace(new RegExp(UNSAVABLE.source, 'g'), '\uFFFD');
}

/** A string schema that also refuses unsavable text (the server checks every field at the edge too). */
export const savable = <T extends z.ZodType<string>>(schema: T) => schema.refine(isSavableText, { error: chosenMessages.unsavableText });
