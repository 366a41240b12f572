/**
 * A start with a stored session (a reload, reopening the app): the account kept in the replica is
 * only as new as the last sign-in, so the composition root asks the server for it once online
 * (src/data/refresh-account.ts), and the older stored copy never takes its place.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, expect, it, vi } from 'vitest';
import type { Account } from '@/contract/users';
import { memoryStorage, randomKey, testAccount } from './fixtures';

const before = testAccount as unknown as Account;
const after: Account = { ...before, mfa_configured: true, mfa_methods: ['authenticator'] };

type Modules = Awaited<ReturnType<typeof load>>;
const load = async () => ({
  start: await import('@/app/start-data'),
  session: await import('@/data/session-store'),
  lifecycle: await import('@/data/replica/lifecycle'),
  replicas: await import('@/data/replica/replica-store'),
});

let running: Modules | null = null;
let stop: () => void = () => undefined;

afterEach(async () => {
  stop();
  stop = () => undefined;
  running?.session.clearSession();
  await running?.lifecycle.closeReplica();
  running = null;
  vi.unstubAllGlobals();
  vi.resetModules();
});

/** The page as it was: signed in before two-factor was turned on, the account stored in the replica. */
async function lastSession() {
  const browser = { window: new EventTarget(), navigator: { onLine: true } };
  vi.stubGlobal('localStorage', memoryStorage());
  vi.stubGlobal('window', browser.window);
  vi.stubGlobal('navigator', browser.navigator);
  const replica = { indexedDB: new IDBFactory(), IDBKeyRange, multiInstance: false, key: randomKey(), replicate: false };
  vi.resetModules();
  const page = await load();
  stop = page.start.startData({ replica, outbox: false, shell: false, persistStorage: false, refreshAccount: false });
  page.session.setAccount(before);
  await page.replicas.whenReplicaOpen();
  stop();
  await page.lifecycle.closeReplica();
  return { browser, replica };
}

/** The server's answer to GET /v1/auth/user, now that two-factor is on (from another device, say). */
function serverWithAccount(account: Account) {
  const fetch = vi.fn(async (input: RequestInfo | URL) =>
    String(input).endsWith('/v1/auth/user')
      ? new Response(JSON.stringify(account), { status: 200, headers: { 'Content-Type': 'application/json' } })
      : new Response('{}', { status: 404, headers: { 'Content-Type': 'application/json' } }),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

const accountRequests = (fetch: ReturnType<typeof serverWithAccount>) => fetch.mock.calls.filter(([input]) => String(input).endsWith('/v1/auth/user')).length;

it('a reload shows the server’s account, and the older copy the replica restores afterwards does not take its place', async () => {
  const { replica } = await lastSession();
  const fetch = serverWithAccount(after);
  vi.resetModules();
  const page = (running = await load());
  // From the plain stub until the replica or the server answers: no methods known.
  expect(page.session.getAccountSnapshot()?.mfa_methods).toEqual([]);
  stop = page.start.startData({ replica, outbox: false, shell: false, persistStorage: false, refreshAccount: true });

  await vi.waitFor(() => expect(page.session.getAccountSnapshot()?.mfa_methods).toEqual(['authenticator']), { timeout: 10_000, interval: 20 });
  const open = await page.replicas.whenReplicaOpen();
  await vi.waitFor(
    async () => expect(((await open.db.resident.findOne('account').exec())?.get('account') as Account).mfa_methods).toEqual(['authenticator']),
    { timeout: 10_000, interval: 20 },
  );
  // The replica restored its older copy in between; the server's answer is still what shows.
  expect(page.session.getAccountSnapshot()?.mfa_methods).toEqual(['authenticator']);
  expect(accountRequests(fetch)).toBe(1);
});

it('offline at start, the stored account shows; the server is asked once the browser is online', async () => {
  const { browser, replica } = await lastSession();
  const fetch = serverWithAccount(after);
  browser.navigator.onLine = false;
  vi.resetModules();
  const page = (running = await load());
  stop = page.start.startData({ replica, outbox: false, shell: false, persistStorage: false, refreshAccount: true });

  await page.replicas.whenReplicaOpen();
  await vi.waitFor(() => expect(page.session.getAccountSnapshot()?.user.first_name).toBe(before.user.first_name), { timeout: 10_000, interval: 20 });
  expect(accountRequests(fetch)).toBe(0);

  browser.navigator.onLine = true;
  browser.window.dispatchEvent(new Event('online'));
  await vi.waitFor(() => expect(page.session.getAccountSnapshot()?.mfa_methods).toEqual(['authenticator']), { timeout: 10_000, interval: 20 });
  // Once answered, going online again asks nothing more.
  browser.window.dispatchEvent(new Event('online'));
  // A second ask would have loaded the account module on demand and then called fetch: let both settle.
  await vi.dynamicImportSettled();
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(accountRequests(fetch)).toBe(1);
});
