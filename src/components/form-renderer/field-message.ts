import { formLimits, formMessages, type FormField } from '@/contract/forms';

interface FoundError {
  message: string;
  type: string;
  nested: boolean;
}

/** The first error with a message in react-hook-form's error tree (tables nest theirs by row and column). */
function firstError(error: unknown, nested = false): FoundError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const own = error as { message?: unknown; type?: unknown };
  if (typeof own.message === 'string' && own.message !== '') return { message: own.message, type: typeof own.type === 'string' ? own.type : '', nested };
  for (const [key, child] of Object.entries(error)) {
    if (key === 'ref' || key === 'types') continue; // ref is a DOM element: never walk into it
    const found = firstError(child, true);
    if (found) return found;
  }
  return undefined;
}

const shared = new Set<string>((Object.values(formMessages) as unknown[]).filter((m): m is string => typeof m === 'string'));

/** The messages the contract's schema gives this field (the ones it words for people). */
function wordedFor(field: FormField): Set<string> {
  const own = new Set<string>(shared);
  if (field.kind === 'text') own.add(formMessages.tooLong(formLimits.textMaxLength));
  if (field.kind === 'large_text') own.add(formMessages.tooLong(formLimits.largeTextMaxLength));
  if (field.kind === 'slider') {
    own.add(formMessages.outOfRange(field.min, field.max));
    own.add(formMessages.offStep(field.step));
  }
  return own;
}

/**
 * The message to show beside a field. The server's words and the contract's own messages are
 * shown as they are; zod's generic wording (a check the schema left unworded, such as a table
 * cell's length or a file id) is replaced by the contract's plain message for it.
 */
export function fieldMessage(field: FormField, error: unknown): string | undefined {
  const found = firstError(error);
  if (!found) return undefined;
  if (found.type === 'server' || wordedFor(field).has(found.message)) return found.message;
  if (field.kind === 'table' && found.nested) return formMessages.tooLong(formLimits.cellMaxLength);
  return formMessages.wrongAnswer;
}
