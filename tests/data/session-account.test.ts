/**
 * The account the server sends back at a start is most often the one already shown: readers are not
 * told about an equal copy (each reader re-rendered at once, interrupting the screens: issue 13),
 * while whoever follows sign-ins still hears of it, and a changed account still reaches everyone.
 */
import { afterEach, expect, it, vi } from 'vitest';
import type { Account } from '@/contract/users';
import { testAccount } from './fixtures';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

it('keeps the account shown when the server sends an equal copy, and takes a changed one', async () => {
  const items = new Map<string, string>();
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  });
  vi.resetModules();
  const session = await import('@/data/session-store');
  const account = testAccount as unknown as Account;
  session.setAccount(account);
  const shown = session.getAccountSnapshot();

  const readers = vi.fn();
  const signIns = vi.fn();
  const stopReading = session.subscribeSession(readers);
  const stopFollowing = session.onSessionChange(signIns);
  session.setAccount(structuredClone(account));
  expect(session.getAccountSnapshot()).toBe(shown);
  expect(readers).not.toHaveBeenCalled();
  expect(signIns).toHaveBeenCalledTimes(1);

  const changed: Account = { ...account, mfa_configured: true, mfa_methods: ['authenticator'] };
  session.setAccount(changed);
  expect(session.getAccountSnapshot()).toEqual(changed);
  expect(readers).toHaveBeenCalledTimes(1);
  stopReading();
  stopFollowing();
});
