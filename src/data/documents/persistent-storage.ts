/**
 * Persistent storage: a browser short of space may clear a site's storage unless it is
 * "persisted", and kept documents are exactly what a young person expects to find offline. Hearth
 * asks once per device (`navigator.storage.persist()`: Chromium decides silently, from how the
 * site is used and whether it is installed; Firefox asks the person), after sign-in, the first time
 * the documents keeper stores anything, and remembers the answer.
 *
 * The remembered answer uses the key and shape of the push/install work (`hearth.storage.persist`,
 * `{asked_at, granted, supported}`), so whichever side asks first, the device is asked only once.
 */
import { local } from '../create-store';

export const PERSIST_KEY = 'hearth.storage.persist';

export interface PersistAnswer {
  readonly asked_at: string;
  readonly granted: boolean;
  readonly supported: boolean;
}

export function readPersistAnswer(): PersistAnswer | null {
  const value = local.read(PERSIST_KEY) as Partial<PersistAnswer> | null;
  return value && typeof value.asked_at === 'string' && typeof value.granted === 'boolean' ? (value as PersistAnswer) : null;
}

type StorageLike = Pick<StorageManager, 'persist' | 'persisted'>;
let asking: Promise<PersistAnswer> | null = null;

/** Asks for persistent storage unless this device already did; resolves with the answer kept. */
export function askPersistentStorageOnce(storage: Partial<StorageLike> | undefined = globalThis.navigator?.storage): Promise<PersistAnswer> {
  const previous = readPersistAnswer();
  if (previous) return Promise.resolve(previous);
  asking ??= (async () => {
    const answer = (granted: boolean, supported: boolean): PersistAnswer => ({ asked_at: new Date().toISOString(), granted, supported });
    let result: PersistAnswer;
    if (typeof storage?.persist !== 'function') {
      result = answer(false, false);
    } else {
      const already = (await storage.persisted?.().catch(() => false)) ?? false;
      result = answer(already || (await storage.persist().catch(() => false)), true);
    }
    local.write(PERSIST_KEY, result);
    return result;
  })().finally(() => {
    asking = null;
  });
  return asking;
}
