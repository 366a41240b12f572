/**
 * Type-only: src/data/crypto/key-vault.ts (shared with the page) names the DOM's Storage and reads
 * `globalThis.localStorage` when present. Workers have neither; the worker always passes
 * `localStorage: null`, so these declarations only let the shared file type-check here.
 */
interface Storage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}
// eslint-disable-next-line no-var
declare var localStorage: Storage | undefined;
