/**
 * Which cached files (./cached-files.ts keys) a replica row names, collection by collection: what
 * the screens show of it (src/entries/hooks/use-entry-file.ts asks for exactly these keys).
 * - journal, voice: the entry's files and drawing (module = the entry's kind);
 * - comments: the comment's files (`comment`); the comment counts only while its entry is here;
 * - tasks: a log's comments' files (`task_comment`) and its file answers (`task_log`, any
 *   `file_id` in the answers); this device's comment overlay's files (`task_comment`);
 * - lookups: a reward's picture; points: an exchange's reward picture (`reward`).
 * A row with a local change names what its parked server copy (`sync_server`) names too: keeping
 * one's own version or the other one shows either.
 */
import { fileCacheKey, type FileModule } from './cached-files';

/** The collections whose rows name cached files. */
export const NAMING_COLLECTIONS = ['comments', 'journal', 'voice', 'tasks', 'lookups', 'points'] as const;
export type NamingCollection = (typeof NAMING_COLLECTIONS)[number];

type Plain = Record<string, unknown>;

const isObject = (value: unknown): value is Plain => typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const idOf = (file: unknown): string | null => (isObject(file) && typeof file.id === 'string' ? file.id : null);

function fileIds(files: unknown): string[] {
  return list(files).flatMap((file) => idOf(file) ?? []);
}

/** Every `file_id` in a form's answers, however the fields nest them (one file, a list, embedded files). */
function answerFileIds(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) answerFileIds(item, found);
  else if (isObject(value)) {
    if (typeof value.file_id === 'string') found.push(value.file_id);
    for (const inner of Object.values(value)) if (typeof inner === 'object') answerFileIds(inner, found);
  }
  return found;
}

function namesOfCopy(collection: NamingCollection, doc: Plain): string[] {
  const keys = (module: FileModule, ids: readonly string[]) => ids.map((id) => fileCacheKey(module, id));
  switch (collection) {
    case 'journal':
    case 'voice':
      return keys(collection, [...fileIds(doc.files), ...(idOf(doc.canvas) ? [idOf(doc.canvas)!] : [])]);
    case 'comments':
      return keys('comment', fileIds(doc.files));
    case 'tasks':
      if (doc.kind === 'comment') return keys('task_comment', fileIds(doc.files));
      return [...keys('task_comment', list(doc.comments).flatMap((comment) => (isObject(comment) ? fileIds(comment.files) : []))), ...keys('task_log', answerFileIds(doc.answers))];
    case 'lookups': {
      const image = doc.kind === 'reward' && isObject(doc.data) ? idOf(doc.data.image) : null;
      return image ? keys('reward', [image]) : [];
    }
    case 'points': {
      const image = doc.kind === 'exchange' && isObject(doc.reward) ? idOf(doc.reward.image) : null;
      return image ? keys('reward', [image]) : [];
    }
  }
}

/** What a row names: its keys, and for a comment its entry (`journal:<id>` or `voice:<id>`), which it needs to count. */
export interface RowNames {
  readonly keys: readonly string[];
  readonly entry: string | null;
}

/** The cached files a row names (none for a deleted row). */
export function namesOf(collection: NamingCollection, doc: Plain): RowNames {
  if (doc._deleted === true) return { keys: [], entry: null };
  const parked = isObject(doc.sync_server) && doc.sync_server._deleted !== true ? namesOfCopy(collection, doc.sync_server) : [];
  const keys = [...new Set([...namesOfCopy(collection, doc), ...parked])];
  const entry = collection === 'comments' && typeof doc.entry_type === 'string' && typeof doc.entry_id === 'string' ? `${doc.entry_type}:${doc.entry_id}` : null;
  return { keys, entry };
}
