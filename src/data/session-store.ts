import type { Account } from '@/contract/users';
import { sessionExpired } from '@/api/events';
import { createStore, local, useStore } from './create-store';

/**
 * The signed-in account from GET /v1/auth/user, kept on the device so a reload or an offline start
 * keeps the person signed in. The seam the encrypted replica replaces in the next issue: until then
 * it is plain localStorage.
 */
export const SESSION_KEY = 'hearth.session';

/**
 * What we stored came from GET /v1/auth/user, parsed with the contract's accountSchema at the time;
 * here only its shape is checked, so the entry chunk does not need zod.
 */
function looksLikeAccount(value: unknown): value is Account {
  if (!value || typeof value !== 'object') return false;
  const account = value as Partial<Account>;
  return (
    account.success === true &&
    typeof account.user?.id === 'string' &&
    typeof account.user.user_type?.system_name === 'string' &&
    typeof account.permissions?.homes === 'object' &&
    Array.isArray(account.mfa_methods)
  );
}

function load(): Account | null {
  const value = local.read(SESSION_KEY);
  return looksLikeAccount(value) ? value : null;
}

const store = createStore<Account | null>(load());

export const getAccountSnapshot = store.get;
export const subscribeSession = store.subscribe;

export function setAccount(account: Account): void {
  local.write(SESSION_KEY, account);
  store.set(account);
}

/** Signs the person out on this device. Only the signed-in state goes; other local data stays. */
export function clearSession(): void {
  local.remove(SESSION_KEY);
  store.set(null);
}

/** A 401 or 419 anywhere: the server forgot the session. Local data is kept (ARCHITECTURE rule 4). */
sessionExpired.subscribe(() => clearSession());

export const useAccount = (): Account | null => useStore(store);

export type FeatureFlags = Readonly<Record<string, boolean>>;
const noFlags: FeatureFlags = Object.freeze({});
const flagCache = new WeakMap<Account, FeatureFlags>();

/** SPEC §3: flags are the resident's keys ending in `_enabled` with value 1. */
export function featureFlagsOf(account: Account | null): FeatureFlags {
  const resident = account?.user.resident;
  if (!account || !resident) return noFlags;
  let flags = flagCache.get(account);
  if (!flags) {
    flags = Object.freeze(
      Object.fromEntries(
        Object.entries(resident)
          .filter(([key, value]) => key.endsWith('_enabled') && value === 1)
          .map(([key]) => [key, true]),
      ),
    );
    flagCache.set(account, flags);
  }
  return flags;
}

export const useFeatureFlags = (): FeatureFlags => featureFlagsOf(useAccount());

const noHomes: readonly string[] = Object.freeze([]);
const homeCache = new WeakMap<Account, readonly string[]>();

/** SPEC §3: home ids are the keys of permissions.homes. */
export function useHomeIds(): readonly string[] {
  const account = useAccount();
  if (!account) return noHomes;
  let ids = homeCache.get(account);
  if (!ids) {
    ids = Object.freeze(Object.keys(account.permissions.homes));
    homeCache.set(account, ids);
  }
  return ids;
}
