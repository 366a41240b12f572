/**
 * A start with a stored session asks for the data key before the replica's code has loaded
 * (src/data/replica/follow-session.ts, issue 13): the key's IndexedDB read and unwrap no longer wait
 * for that chunk, nor queue behind the replica's own IndexedDB opens.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Account } from '@/contract/users';
import type * as KeyVault from '@/data/crypto/key-vault';
import type * as Owner from '@/data/owner';
import { getOrCreateDataKey } from '@/data/crypto/key-vault';
import { keyDatabaseFor, ownerIdFor } from '@/data/owner';
import { followSession } from '@/data/replica/follow-session';
import { clearSession, getStartingSession, setAccount } from '@/data/session-store';
import { randomKey, testAccount } from './fixtures';

vi.mock('@/data/crypto/key-vault', async (importOriginal) => ({
  ...(await importOriginal<typeof KeyVault>()),
  getOrCreateDataKey: vi.fn(() => new Promise(() => undefined)),
}));
// A fixed owner at once: the key's request then follows within the same turn of the event loop.
vi.mock('@/data/owner', async (importOriginal) => ({
  ...(await importOriginal<typeof Owner>()),
  ownerIdFor: vi.fn(async (site: string | null, userId: string) => `hearth-owner-${site}-${userId}`),
}));
// The replica's code never arrives here: whatever asks for the key, it is not the replica's opening.
vi.mock('@/data/replica/lifecycle', () => new Promise(() => undefined));

let stop: () => void = () => undefined;
afterEach(() => {
  stop();
  clearSession();
  vi.mocked(getOrCreateDataKey).mockClear();
});

describe('the data key at a start with a stored session', () => {
  it('is asked for at once, for that person, before the replica has loaded', async () => {
    setAccount(testAccount as unknown as Account);
    const { stub } = getStartingSession()!;
    stop = followSession({});
    const databaseName = keyDatabaseFor(await ownerIdFor(stub.site, stub.user_id));
    await vi.waitFor(() => expect(getOrCreateDataKey).toHaveBeenCalledWith({ databaseName }));
  });

  it('is not asked for when the replica is given its key (tests), nor with nobody signed in', async () => {
    setAccount(testAccount as unknown as Account);
    stop = followSession({ key: randomKey() });
    await new Promise((resolve) => setTimeout(resolve, 0));
    stop();
    clearSession();
    stop = followSession({});
    // Every promise the start chained has settled by the next task.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(getOrCreateDataKey).not.toHaveBeenCalled();
  });
});
