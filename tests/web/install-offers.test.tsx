import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Live } from '@/data/hooks';
import type * as RosterHooks from '@/data/hooks/use-todays-roster';
import type { ResidentDoc } from '@/data/replica';
import { setAccount } from '@/data/session-store';
import { INSTALLED_MESSAGE } from '@/features/dashboard/components/install-offer';
import { makeAccount } from './support/account';
import { fakeFetch } from './support/fake-fetch';
import { renderApp } from './support/render-app';

/**
 * The install offers on the dashboard (issue 10), with Chromium's `beforeinstallprompt` played by a
 * fake event and iPhone, iPad and Mac played by their user agents. What the browser does after
 * prompt() is its own business; these check when Hearth offers, what it calls, and that "No thanks"
 * and "Hide this guide" last. The offers render with the dashboard and on the events (dispatched in
 * act(), which renders what they change), so an absent offer is checked right after, without waiting.
 */
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

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const IPAD_AS_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

function device(options: { userAgent?: string; maxTouchPoints?: number; platform?: string; standalone?: boolean; displayMode?: string } = {}) {
  vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(options.userAgent ?? CHROME);
  // jsdom has no maxTouchPoints: defined on the instance, removed after each test.
  Object.defineProperty(navigator, 'maxTouchPoints', { configurable: true, get: () => options.maxTouchPoints ?? 0 });
  vi.spyOn(navigator, 'platform', 'get').mockReturnValue(options.platform ?? (options.userAgent?.includes('Macintosh') ? 'MacIntel' : 'Linux x86_64'));
  if (options.standalone !== undefined) Object.defineProperty(navigator, 'standalone', { configurable: true, value: options.standalone });
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({ matches: query === `(display-mode: ${options.displayMode ?? 'browser'})`, media: query, addEventListener: vi.fn(), removeEventListener: vi.fn() })),
  );
}

/** Chromium's event saying Hearth can be installed now; `outcome` is what the person picks in its dialog. */
function offerInstall(outcome: 'accepted' | 'dismissed' = 'accepted') {
  const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
    prompt: vi.fn(async () => undefined),
    userChoice: Promise.resolve({ outcome, platform: 'web' }),
  });
  act(() => {
    window.dispatchEvent(event);
  });
  return event;
}

const dashboard = async () => {
  const view = renderApp('/dashboard');
  await screen.findByRole('heading', { level: 1, name: 'Hi Sam' });
  return view;
};
const installOffer = () => screen.queryByRole('region', { name: 'Install Hearth' });
const iosGuide = () => screen.queryByRole('region', { name: 'Add Hearth to your Home Screen' });

beforeEach(() => {
  fakeFetch();
  setAccount(makeAccount());
});
afterEach(() => {
  delete (navigator as { standalone?: unknown }).standalone;
  delete (navigator as { maxTouchPoints?: unknown }).maxTouchPoints;
});

describe('Install Hearth (Chromium)', () => {
  it('is offered only once the browser says Hearth can be installed, and shows the browser’s own dialog', async () => {
    device();
    const { user } = await dashboard();
    expect(installOffer()).toBeNull();

    const event = offerInstall('accepted');
    expect(event.defaultPrevented).toBe(true); // no browser banner: the offer is ours
    const offer = await screen.findByRole('region', { name: 'Install Hearth' });
    expect(within(offer).getByText('“No thanks” hides this for good on this device.')).toBeTruthy();
    await user.click(within(offer).getByRole('button', { name: 'Install Hearth' }));
    expect(event.prompt).toHaveBeenCalledTimes(1);
    expect(await screen.findByText(INSTALLED_MESSAGE)).toBeTruthy();
    expect(installOffer()).toBeNull();
    expect(iosGuide()).toBeNull();
  });

  it('closing the browser’s dialog hides the offer until the browser offers again', async () => {
    device();
    const { user } = await dashboard();
    const first = offerInstall('dismissed');
    await user.click(within(await screen.findByRole('region', { name: 'Install Hearth' })).getByRole('button', { name: 'Install Hearth' }));
    expect(first.prompt).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(installOffer()).toBeNull());
    expect(screen.queryByText(INSTALLED_MESSAGE)).toBeNull();

    offerInstall('accepted');
    expect(await screen.findByRole('region', { name: 'Install Hearth' })).toBeTruthy();
  });

  it('“No thanks” hides it for good on this device, also after a restart and a new offer from the browser', async () => {
    device();
    const first = await dashboard();
    const event = offerInstall();
    await first.user.click(within(await screen.findByRole('region', { name: 'Install Hearth' })).getByRole('button', { name: 'No thanks' }));
    expect(installOffer()).toBeNull();
    expect(event.prompt).not.toHaveBeenCalled();
    first.unmount();

    await dashboard();
    offerInstall();
    // act() has rendered what the event changes: the offer stays away.
    expect(installOffer()).toBeNull();
  });

  it('once installed, or opened as an installed app, nothing is offered', async () => {
    device({ displayMode: 'standalone' });
    await dashboard();
    offerInstall();
    expect(installOffer()).toBeNull();
  });

  it('the browser saying Hearth was installed (from its own menu) ends the offer', async () => {
    device();
    await dashboard();
    offerInstall();
    await screen.findByRole('region', { name: 'Install Hearth' });
    act(() => {
      window.dispatchEvent(new Event('appinstalled'));
    });
    await waitFor(() => expect(installOffer()).toBeNull());
  });
});

describe('Add to Home Screen (iPhone and iPad)', () => {
  it('iPhone in the browser: an illustrated guide, and the push opt-in explains the Home Screen', async () => {
    device({ userAgent: IPHONE, maxTouchPoints: 5, platform: 'iPhone' });
    const { user } = await dashboard();
    const guide = await screen.findByRole('region', { name: 'Add Hearth to your Home Screen' });
    const steps = within(guide).getAllByRole('listitem');
    expect(steps.map((li) => li.textContent)).toEqual([
      'Tap the Share button: a square with an arrow pointing up, at the bottom of Safari (at the top on an iPad).',
      'Scroll down the list and tap Add to Home Screen.',
      'Tap Add, then open Hearth from its new icon on your Home Screen.',
    ]);
    // Each step has its drawing, decorative (the words name what to tap).
    expect(steps.map((li) => li.querySelector('svg')?.getAttribute('aria-hidden'))).toEqual(['true', 'true', 'true']);

    const push = await screen.findByRole('region', { name: 'Get a notification when staff reply' });
    expect(push.textContent).toContain('On iPhone and iPad, Hearth can send notifications once it is on your Home Screen.');
    expect(within(push).queryByRole('button', { name: 'Turn on notifications' })).toBeNull();
    expect(within(push).queryByRole('button', { name: 'Show me how' })).toBeNull(); // the guide is right there

    await user.click(within(guide).getByRole('button', { name: 'Hide this guide' }));
    expect(iosGuide()).toBeNull();
    // The steps stay reachable from the push opt-in.
    const how = within(push).getByRole('button', { name: 'Show me how' });
    expect(how.getAttribute('aria-expanded')).toBe('false');
    await user.click(how);
    expect(within(push).getByRole('button', { name: 'Hide how' }).getAttribute('aria-expanded')).toBe('true');
    expect(within(push).getAllByRole('listitem')).toHaveLength(3);
  });

  it('“Hide this guide” lasts: not shown again on this device', async () => {
    device({ userAgent: IPHONE, maxTouchPoints: 5, platform: 'iPhone' });
    const first = await dashboard();
    await first.user.click(within(await screen.findByRole('region', { name: 'Add Hearth to your Home Screen' })).getByRole('button', { name: 'Hide this guide' }));
    first.unmount();
    await dashboard();
    await screen.findByRole('region', { name: 'Get a notification when staff reply' });
    expect(iosGuide()).toBeNull();
  });

  it('an iPad that says it is a Mac gets the guide; a Mac does not', async () => {
    device({ userAgent: IPAD_AS_MAC, maxTouchPoints: 5 });
    const ipad = await dashboard();
    expect(await screen.findByRole('region', { name: 'Add Hearth to your Home Screen' })).toBeTruthy();
    ipad.unmount();

    device({ userAgent: IPAD_AS_MAC, maxTouchPoints: 0 });
    await dashboard();
    expect(iosGuide()).toBeNull();
  });

  it('opened from the Home Screen: no guide, and no Chromium offer on iOS', async () => {
    device({ userAgent: IPHONE, maxTouchPoints: 5, platform: 'iPhone', standalone: true });
    await dashboard();
    offerInstall();
    expect(iosGuide()).toBeNull();
    expect(installOffer()).toBeNull();
  });
});
