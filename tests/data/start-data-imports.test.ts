/**
 * Importing the data layer starts nothing (issue 8 §2): no replica opens, nobody subscribes to the
 * session's expiry, no timer, no window listener. Its own file: it loads the modules afresh.
 */
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testAccount } from './fixtures';

const account = testAccount;

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('importing the data layer', () => {
  it('opens nothing, subscribes to nothing, starts no timer and adds no listener', async () => {
    vi.resetModules();
    // A stored session: the old session store opened its replica as it loaded.
    const items = new Map<string, string>();
    const storage = {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
      removeItem: (key: string) => void items.delete(key),
    };
    items.set(
      'hearth.session',
      JSON.stringify({
        v: 1,
        user_id: account.user.id,
        site: null,
        user_type: { id: 1, system_name: 'young_person' },
        resident_id: null,
        home_id: null,
        flags: { journal_enabled: 1, voice_enabled: 1, rewards_enabled: 1 },
        mfa_configured: false,
        mfa_required: false,
      }),
    );
    vi.stubGlobal('localStorage', storage);
    const factory = new IDBFactory();
    const opened = vi.spyOn(factory, 'open');
    vi.stubGlobal('indexedDB', factory);
    const target = { addEventListener: vi.fn(), removeEventListener: vi.fn() };
    vi.stubGlobal('window', target);
    vi.stubGlobal('document', { ...target, visibilityState: 'visible' });
    const intervals = vi.spyOn(globalThis, 'setInterval');

    await import('@/data/session-store');
    await import('@/data/replica/lifecycle');
    await import('@/data/replica/follow-session');
    await import('@/data/outbox/outbox');
    await import('@/data/outbox/outcomes');
    await import('@/data/outbox/start-outbox');
    await import('@/data/sign-out');
    await import('@/data/wipe-steps');
    await import('@/data/api-base-sync');
    await import('@/data/app-config-store');
    await import('@/data/replication/controller');
    await import('@/data/replication/resync');
    await import('@/data/hooks/index');
    await import('@/app/start-data');
    intervals.mockClear(); // libraries may keep timers of their own; ours are counted from here
    const session = await import('@/data/session-store');
    const events = await import('@/api/events');
    const outbox = await import('@/data/outbox/outbox');
    await new Promise((resolve) => setTimeout(resolve, 100));

    expect(opened).not.toHaveBeenCalled();
    expect(target.addEventListener).not.toHaveBeenCalled();
    expect(intervals).not.toHaveBeenCalled();
    expect((await import('@/data/replica/replica-store')).getReplica()).toBeNull();
    // Nobody listens to the session's expiry: it stays until the root says otherwise.
    expect(session.getAccountSnapshot()?.user.id).toBe(account.user.id);
    events.sessionExpired.emit({ status: 401 });
    expect(session.getAccountSnapshot()).not.toBeNull();
    // The outbox has no sink: outcomes wait in the queue.
    expect(outbox.getOutboxConfig().sink).toBe((await import('@/data/outbox/outcomes')).unwiredSink);
  });
});
