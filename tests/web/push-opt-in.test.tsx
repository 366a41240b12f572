import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getAppConfigSnapshot } from '@/data/app-config-store';
import type { Live } from '@/data/hooks';
import type * as RosterHooks from '@/data/hooks/use-todays-roster';
import type * as Outbox from '@/data/outbox/outbox';
import type { ResidentDoc } from '@/data/replica';
import { setAccount } from '@/data/session-store';
import { PUSH_NOT_ALLOWED, PUSH_SUBSCRIBE_FAILED, PUSH_SUBSCRIBED } from '@/features/dashboard/actions/subscribe-to-push';
import { makeAccount } from './support/account';
import { FAKE_PUSH_PUBLIC_KEY, fakeFetch } from './support/fake-fetch';
import { renderApp } from './support/render-app';

const outbox = vi.hoisted(() => ({ writes: [] as unknown[] }));

vi.mock('@/data/hooks/use-resident-details', () => ({ useResidentDetails: (): Live<ResidentDoc | null> => ({ data: null, loading: false }) }));
vi.mock('@/data/hooks/use-feedback', () => ({
  useFeedback: () => ({ data: [], loading: false }),
  useFeedbackCounts: () => ({ data: { journal: 0, voice: 0 }, loading: false }),
}));
vi.mock('@/data/hooks/use-todays-roster', async (importOriginal) => ({
  ...(await importOriginal<typeof RosterHooks>()),
  useTodaysRoster: () => ({ data: [], loading: false }),
}));
vi.mock('@/data/hooks/use-user-photo', () => ({ useUserPhoto: () => null }));
// The outbox has its own tests (tests/data): here we see what the opt-in hands to it.
vi.mock('@/data/outbox/outbox', async (importOriginal) => ({
  ...(await importOriginal<typeof Outbox>()),
  enqueueWrite: vi.fn(async (input: { idempotencyKey: string }) => {
    outbox.writes.push(input);
    return { outboxId: input.idempotencyKey };
  }),
}));

const TITLE = 'Get a notification when staff reply';
const subscriptionJson = { endpoint: 'https://push.example.test/send/abc', expirationTime: null, keys: { p256dh: 'BPub', auth: 'authKey' } };

/** A browser with push: Notification, PushManager and a service worker registration. */
function fakeBrowser(options: { permission?: NotificationPermission; answer?: NotificationPermission; subscribed?: boolean; pushManager?: boolean } = {}) {
  const notification = { permission: options.permission ?? 'default', requestPermission: vi.fn() };
  notification.requestPermission.mockImplementation(async () => {
    notification.permission = options.answer ?? 'granted';
    return notification.permission;
  });
  vi.stubGlobal('Notification', notification);
  if (options.pushManager !== false) vi.stubGlobal('PushManager', function PushManager() {});
  const subscription = { endpoint: subscriptionJson.endpoint, options: { applicationServerKey: null }, toJSON: () => subscriptionJson, unsubscribe: vi.fn(async () => true) };
  const pushManager = {
    getSubscription: vi.fn(async () => (options.subscribed ? subscription : null)),
    subscribe: vi.fn(async (_options: PushSubscriptionOptionsInit) => subscription),
  };
  const registration = { pushManager };
  const container = {
    controller: null,
    ready: Promise.resolve(registration),
    getRegistration: vi.fn(async () => registration),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
  };
  Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: container });
  return { notification, pushManager };
}

beforeEach(() => {
  outbox.writes.length = 0;
  fakeFetch();
  setAccount(makeAccount());
});
afterEach(() => {
  delete (navigator as { serviceWorker?: unknown }).serviceWorker;
});

describe('push opt-in on the dashboard', () => {
  it('asks only on the button press, subscribes with the server key and sends the subscription through the outbox', async () => {
    const { notification, pushManager } = fakeBrowser();
    const { user } = renderApp('/dashboard');
    const button = await screen.findByRole('button', { name: 'Turn on notifications' });
    expect(screen.getByRole('heading', { name: TITLE })).toBeTruthy();
    expect(notification.requestPermission).not.toHaveBeenCalled();

    await user.click(button);
    expect(await screen.findByText(PUSH_SUBSCRIBED)).toBeTruthy();
    expect(notification.requestPermission).toHaveBeenCalledTimes(1);
    expect(pushManager.subscribe).toHaveBeenCalledTimes(1);
    const options = pushManager.subscribe.mock.calls[0]![0];
    expect(options.userVisibleOnly).toBe(true);
    expect(Buffer.from(options.applicationServerKey as Uint8Array).toString('base64url')).toBe(FAKE_PUSH_PUBLIC_KEY);
    expect(outbox.writes).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: '/v1/notifications/push/subscribe',
        json: { user_id: makeAccount().user.id, subscription: subscriptionJson },
      }),
    ]);
    await waitFor(() => expect(screen.queryByRole('heading', { name: TITLE })).toBeNull());
  });

  it('says so plainly when the person says no, and then stays out of the way', async () => {
    fakeBrowser({ answer: 'denied' });
    const { user } = renderApp('/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Turn on notifications' }));
    expect(await screen.findByText(PUSH_NOT_ALLOWED)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('heading', { name: TITLE })).toBeNull());
    expect(outbox.writes).toEqual([]);
  });

  it('says so when the browser cannot make a subscription (no push service), and keeps the offer to try again', async () => {
    const { pushManager } = fakeBrowser();
    pushManager.subscribe.mockRejectedValueOnce(new DOMException('Registration failed - push service error', 'AbortError'));
    const { user } = renderApp('/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Turn on notifications' }));
    expect(await screen.findByText(PUSH_SUBSCRIBE_FAILED)).toBeTruthy();
    expect(pushManager.subscribe).toHaveBeenCalledTimes(1);
    expect(outbox.writes).toEqual([]);
    const again = screen.getByRole('button', { name: 'Turn on notifications' });
    expect((again as HTMLButtonElement).disabled).toBe(false);
    await user.click(again);
    expect(await screen.findByText(PUSH_SUBSCRIBED)).toBeTruthy();
    expect(outbox.writes).toHaveLength(1);
  });

  it('“No thanks” hides it for good on this device, without asking for permission', async () => {
    const { notification } = fakeBrowser();
    const first = renderApp('/dashboard');
    const offer = await screen.findByRole('region', { name: TITLE });
    expect(within(offer).getByText('“No thanks” hides this for good on this device.')).toBeTruthy();
    await first.user.click(within(offer).getByRole('button', { name: 'No thanks' }));
    expect(screen.queryByRole('heading', { name: TITLE })).toBeNull();
    expect(notification.requestPermission).not.toHaveBeenCalled();
    first.unmount();

    renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Hi Sam' });
    await waitFor(() => expect(getAppConfigSnapshot().push_public_key).toBe(FAKE_PUSH_PUBLIC_KEY));
    expect(screen.queryByRole('heading', { name: TITLE })).toBeNull();
  });

  it.each([
    ['notifications are blocked', { permission: 'denied' as const }],
    ['this browser is subscribed already', { permission: 'granted' as const, subscribed: true }],
    ['the browser has no PushManager', { pushManager: false }],
  ])('is hidden when %s', async (_, options) => {
    fakeBrowser(options);
    renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Hi Sam' });
    // The key has arrived and the check has had time to run (the first test shows it does appear).
    await waitFor(() => expect(getAppConfigSnapshot().push_public_key).toBe(FAKE_PUSH_PUBLIC_KEY));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('heading', { name: TITLE })).toBeNull();
  });
});
