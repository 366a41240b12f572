import type { Account } from '@/contract/users';
import { getAppConfigSnapshot } from './app-config-store';
import { effectiveClientSite } from './client-site';
import { createStore, local, useStore } from './create-store';
import { getSettings } from './settings-store';

/**
 * The signed-in account (GET /v1/auth/user).
 *
 * Plain localStorage keeps only a non-personal stub: enough to know that a session exists and which
 * replica to open (user id, site, user type, resident and home ids, feature flags, whether
 * two-factor is set up). The whole account, names and email included, lives encrypted in the
 * replica (`resident` collection, document `account`) and comes back when the replica opens.
 * Until then `useAccount()` returns a provisional account built from the stub (empty names).
 */
export const SESSION_KEY = 'hearth.session';

type Flag = 0 | 1;
export interface SessionStub {
  v: 1;
  user_id: string;
  site: string | null;
  user_type: { id: number; system_name: string };
  resident_id: string | null;
  home_id: string | null;
  flags: { journal_enabled: Flag; voice_enabled: Flag; rewards_enabled: Flag };
  mfa_configured: boolean;
  mfa_required: boolean;
  /**
   * How new the flags are, as the young person's record in the replica counts it (its `updated_at`,
   * the server's clock): a copy of the record no later than this is not news to them
   * (src/data/replication/follow-flags.ts). Null: the account came from the server since the last
   * copy was compared, so the copy the replica holds now is older than it. Absent: never compared.
   */
  flags_as_of?: string | null;
}

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

function looksLikeStub(value: unknown): value is SessionStub {
  if (!value || typeof value !== 'object') return false;
  const stub = value as Partial<SessionStub>;
  return (
    stub.v === 1 &&
    typeof stub.user_id === 'string' &&
    typeof stub.user_type?.system_name === 'string' &&
    typeof stub.user_type.id === 'number' &&
    typeof stub.flags === 'object' &&
    stub.flags !== null
  );
}

const flag = (value: unknown): Flag => (value === 1 ? 1 : 0);

function currentSite(): string | null {
  try {
    return effectiveClientSite(getSettings(), getAppConfigSnapshot());
  } catch {
    return null;
  }
}

export function stubOf(account: Account, site: string | null): SessionStub {
  const resident = account.user.resident;
  return {
    v: 1,
    user_id: account.user.id,
    site,
    user_type: { id: account.user.user_type.id, system_name: account.user.user_type.system_name },
    resident_id: resident?.id ?? null,
    home_id: resident?.home_id ?? null,
    flags: {
      journal_enabled: flag(resident?.journal_enabled),
      voice_enabled: flag(resident?.voice_enabled),
      rewards_enabled: flag(resident?.rewards_enabled),
    },
    mfa_configured: account.mfa_configured,
    mfa_required: account.mfa_required,
  };
}

/** The account as far as the stub knows it; names stay empty until the replica gives them. */
function provisionalAccount(stub: SessionStub): Account {
  return {
    success: true,
    user: {
      id: stub.user_id,
      username: '',
      first_name: '',
      last_name: '',
      email: null,
      user_type_id: stub.user_type.id,
      user_type: { id: stub.user_type.id, system_name: stub.user_type.system_name, name: '' },
      themes: [],
      has_photo: false,
      resident: stub.resident_id
        ? {
            id: stub.resident_id,
            home_id: stub.home_id ?? '',
            first_name: '',
            last_name: '',
            preferred_name: null,
            reward_points: 0,
            ...stub.flags,
          }
        : null,
    },
    mfa_configured: stub.mfa_configured,
    mfa_methods: [],
    mfa_required: stub.mfa_required,
    permissions: { homes: {} },
  };
}

let stub: SessionStub | null = null;
/** True once this page has the account from the server: the replica's stored copy is then older. */
let fromServer = false;

function load(): Account | null {
  const value = local.read(SESSION_KEY);
  if (looksLikeStub(value)) {
    stub = value;
    return provisionalAccount(value);
  }
  if (looksLikeAccount(value)) {
    // An account stored in plain by an earlier version: keep only the stub from now on.
    stub = stubOf(value, currentSite());
    local.write(SESSION_KEY, stub);
    pendingMigration = value;
    return value;
  }
  return null;
}

/** A plain account found at start (earlier version): it moves into the replica when that opens. */
let pendingMigration: Account | null = null;

const store = createStore<Account | null>(load());

export const getAccountSnapshot = store.get;
export const subscribeSession = store.subscribe;
/** The stored stub (null when signed out): which replica to open. */
export const getSessionStub = (): SessionStub | null => stub;

/**
 * Sign-in and sign-out as events, for whoever follows the session (the replica does, wired by the
 * composition root, src/app/start-data.ts). The store above says who is signed in; these say what
 * just happened, which a store change cannot tell apart from the replica restoring the account.
 */
export type SessionChange = { readonly type: 'signed-in'; readonly account: Account; readonly site: string | null } | { readonly type: 'signed-out' };
const changeListeners = new Set<(change: SessionChange) => void>();

export function onSessionChange(listener: (change: SessionChange) => void): () => void {
  changeListeners.add(listener);
  return () => {
    changeListeners.delete(listener);
  };
}

function announce(change: SessionChange): void {
  for (const listener of [...changeListeners]) listener(change);
}

/**
 * The session this page started with, for opening its replica: the stub, and the plain account an
 * earlier version stored (to move into the replica), if any. Null when signed out.
 */
export function getStartingSession(): { readonly stub: SessionStub; readonly migrating: Account | null } | null {
  return stub ? { stub, migrating: pendingMigration } : null;
}

export function setAccount(account: Account): void {
  const site = currentSite();
  stub = { ...stubOf(account, site), flags_as_of: null };
  pendingMigration = null;
  fromServer = true;
  local.write(SESSION_KEY, stub);
  // The server's answer at a start is most often the account already shown: keeping the same object
  // re-renders nobody (every reader of the account re-rendered at once, interrupting the screens
  // that were rendering the replica: issue 13).
  store.set((previous) => (previous && JSON.stringify(previous) === JSON.stringify(account) ? previous : account));
  announce({ type: 'signed-in', account, site });
}

/**
 * The replica gave back the stored account (start from the stub): show it, unless the server's
 * answer arrived first (src/data/refresh-account.ts), which is newer.
 */
export function restoreAccount(account: Account): void {
  if (!stub || account.user.id !== stub.user_id || fromServer) return;
  // The stub is written first when the flags follow the record (the replica's copy a moment later):
  // a page closed in between must not bring the old flags back.
  store.set(withFlags(account, stub.flags) ?? account);
}

/** `account` with the resident's `flags` (only `_enabled` keys), or null when it has them already. */
function withFlags(account: Account, flags: Readonly<Record<string, Flag>>): Account | null {
  const resident = account.user.resident;
  if (!resident) return null;
  const changed = Object.entries(flags).filter(([key, value]) => key.endsWith('_enabled') && (resident as Record<string, unknown>)[key] !== value);
  if (changed.length === 0) return null;
  return { ...account, user: { ...account.user, resident: { ...resident, ...Object.fromEntries(changed) } } };
}

/**
 * The young person's record in the replica was written (staff switch their features while the app
 * runs: docs/decisions.md "Staff switch a young person's features"); its `_enabled` keys as of its
 * `updated_at`. The account takes them when the copy is newer than what its flags were compared
 * with (`flags_as_of`); the first copy compared after a server account only marks how new that
 * account is. Nothing else of the account changes, and an account that has the flags already stays
 * the same object. Returns the changed account (to store in the replica), else null.
 */
export function followRecordFlags(residentId: string, flags: Readonly<Record<string, Flag>>, asOf: string): Account | null {
  const account = store.get();
  if (!stub || stub.resident_id !== residentId || !account || account.user.resident?.id !== residentId) return null;
  const seen = stub.flags_as_of;
  if (seen !== undefined && (seen === null || asOf <= seen)) {
    if (seen === null) markFlagsAsOf(residentId, asOf);
    return null;
  }
  const changed = withFlags(account, flags);
  stub = { ...stub, ...(changed ? { flags: stubOf(changed, stub.site).flags } : {}), flags_as_of: asOf };
  local.write(SESSION_KEY, stub);
  if (changed) store.set(changed);
  return changed;
}

/**
 * A server account arrived (`flags_as_of` null): the record the replica holds now (`asOf`, empty
 * when none) is no newer than it. Nothing happens when the flags were compared since.
 */
export function markFlagsAsOf(residentId: string, asOf: string): void {
  if (!stub || stub.resident_id !== residentId || stub.flags_as_of !== null) return;
  stub = { ...stub, flags_as_of: asOf };
  local.write(SESSION_KEY, stub);
}

let signOuts = 0;
/**
 * How many sign-outs this page has seen: a write that began before one (a draft waiting for a
 * replica) must not land in the next session's replica, even the same person's.
 */
export const signOutsSoFar = (): number => signOuts;

/** Signs the person out on this device. Only the signed-in state goes; the replica stays (closed). */
export function clearSession(): void {
  signOuts += 1;
  local.remove(SESSION_KEY);
  stub = null;
  pendingMigration = null;
  fromServer = false;
  store.set(null);
  announce({ type: 'signed-out' });
}

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
