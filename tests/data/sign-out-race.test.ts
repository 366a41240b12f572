/**
 * A sign-out whose server session ends while requests are still out: one answered 401 meanwhile (a
 * pull, the change stream) clears the signed-in state before the wipe starts. The wipe must still be
 * of the person who signed out and be noted as pending, so a page reloaded or closed while it runs
 * finishes it at the next start (found in e2e: a draft deleted with "Sign out and delete them" came
 * back after a reload during the wipe).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Account } from '@/contract/users';
import { sessionExpired } from '@/api/events';
import { startData } from '@/app/start-data';
import { clearSession, getSessionStub, setAccount } from '@/data/session-store';
import { signOut, type WipeStep } from '@/data/sign-out';
import { memoryStorage, testAccount, uniqueName } from './fixtures';

vi.mock('@/api/auth/logout', () => ({
  // The server ends the session; a request of the page's, still out, comes back 401 before this answer.
  logout: vi.fn(async () => {
    sessionExpired.emit({ status: 401 });
    return { ok: true, status: 204, data: null };
  }),
}));

let stop: () => void = () => undefined;
afterEach(() => {
  stop();
  clearSession();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('a sign-out raced by a 401', () => {
  it('wipes the person who signed out, and notes the wipe as pending until it has finished', async () => {
    const storage = memoryStorage();
    vi.stubGlobal('localStorage', storage);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const person = { ...(testAccount as unknown as Account), user: { ...(testAccount as unknown as Account).user, id: uniqueName('user') } };
    const wiped: (string | null)[] = [];
    // The page goes while the wipe runs: its step never finishes.
    const interrupted: WipeStep = {
      name: 'replica',
      run: ({ userId }) => {
        wiped.push(userId);
        return Promise.reject(new Error('the page went'));
      },
    };
    stop = startData({ replica: false, outbox: false, shell: false, wipeSteps: [interrupted] });
    setAccount(person);

    await signOut();

    expect(getSessionStub()).toBeNull();
    expect(wiped).toEqual([person.user.id]);
    expect(storage.getItem('hearth.pendingWipes')).toContain(person.user.id);
  });
});
