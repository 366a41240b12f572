/**
 * Persistent storage (issue 10): the encrypted replica and the outbox are what let a young person
 * write offline; a browser short of space may clear a site's storage unless it is "persisted". After
 * sign-in Hearth asks once per device (`navigator.storage.persist()`: Chromium decides silently, from
 * how the site is used and whether it is installed; Firefox asks the person) and remembers the answer,
 * which /dev shows beside `persisted()` now. Not personal, so sign-out keeps it.
 */
import { local } from './create-store';
import { getStartingSession, onSessionChange } from './session-store';

export const PERSIST_KEY = 'hearth.storage.persist';

export interface PersistAnswer {
  /** When Hearth asked (ISO). */
  readonly asked_at: string;
  /** What the browser answered (true also when it was persisted already). */
  readonly granted: boolean;
  /** False when this browser has no `navigator.storage.persist`. */
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
    if (typeof storage?.persist !== 'function') result = answer(false, false);
    else {
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

/** The composition root: ask after a sign-in, and at a start that is signed in already. */
export function startPersistAfterSignIn(): () => void {
  if (getStartingSession()) void askPersistentStorageOnce();
  return onSessionChange((change) => {
    if (change.type === 'signed-in') void askPersistentStorageOnce();
  });
}
