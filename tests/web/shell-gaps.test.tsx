import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders } from '@/app/app-providers';
import { routes } from '@/app/routes';
import { chosenMessages } from '@/contract/messages';
import { SESSION_TOAST_HOLD_MS } from '@/components/toast-hold';
import { getAccountSnapshot, setAccount } from '@/data/session-store';
import { makeAccount } from './support/account';
import { fakeFetch, json } from './support/fake-fetch';
import { renderApp } from './support/render-app';

/** docs/decisions.md "Shell gaps (issue 11)". */

describe('Change site on the very first visit', () => {
  it('is there before the app config has ever answered, and the site fills in when it does', async () => {
    let answer: (response: Response) => void = () => undefined;
    const config = new Promise<Response>((resolve) => (answer = resolve));
    const server = fakeFetch((req) => (req.path === '/app-config' ? config : undefined));
    const { user } = renderApp('/');

    await screen.findByRole('button', { name: 'Sign in' });
    expect(server.calls.some((c) => c.path === '/app-config')).toBe(true);
    expect(localStorage.getItem('hearth.appConfig')).toBeNull(); // nothing cached: a first visit
    expect(screen.getByRole('button', { name: 'Change site' })).toBeTruthy();
    expect(screen.getByText('Finding your site…')).toBeTruthy();
    expect(screen.queryByLabelText('Client site')).toBeNull();

    answer(json(200, { success: true, data: { product_name: 'Hearth', regions: [{ name: 'United Kingdom', api_base: '/api' }], default_region: 'United Kingdom', default_site: 'demo', dev_mailbox: false, push_public_key: null } }));
    expect(await screen.findByText('demo')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Change site' }));
    expect((screen.getByLabelText('Client site') as HTMLInputElement).value).toBe('demo');
  });

  it('changing the site before the config answers keeps what the person types', async () => {
    let answer: (response: Response) => void = () => undefined;
    const config = new Promise<Response>((resolve) => (answer = resolve));
    fakeFetch((req) => (req.path === '/app-config' ? config : undefined));
    const { user } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Change site' }));
    await user.type(screen.getByLabelText('Client site'), 'oakhouse');
    answer(json(200, { success: true, data: { product_name: 'Hearth', regions: [{ name: 'United Kingdom', api_base: '/api' }], default_region: 'United Kingdom', default_site: 'demo', dev_mailbox: false, push_public_key: null } }));
    await waitFor(() => expect(localStorage.getItem('hearth.appConfig')).not.toBeNull());
    expect((screen.getByLabelText('Client site') as HTMLInputElement).value).toBe('oakhouse');
  });

  it('offline on a first visit (no config, no site from the host): the site field opens by itself', async () => {
    fakeFetch((req) => {
      if (req.path === '/app-config') throw new TypeError('Failed to fetch');
      return undefined;
    });
    renderApp('/');
    expect(await screen.findByLabelText('Client site')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Change site' })).toBeNull();
  });
});

describe('the 419 "Session expired" toast stays readable', () => {
  const failure = chosenMessages.passwordChangeFailed;

  /** Signed in on Change password; the server has forgotten the CSRF token (419) for the change. */
  async function submitInto419() {
    fakeFetch((req) => (req.path.endsWith('/change-password') ? json(419, { success: false, message: 'CSRF token mismatch.' }) : undefined));
    setAccount(makeAccount());
    const { user } = renderApp('/change-password');
    await screen.findByRole('heading', { level: 1, name: 'Change password' });
    await user.type(screen.getByLabelText('Current password'), 'old password here');
    await user.type(screen.getByLabelText('New password'), 'three random words');
    await user.type(screen.getByLabelText('Type your new password again'), 'three random words');

    // From here the clock is ours: nothing moves unless the test moves it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    // Let the request run (promises) in small steps of the fake clock until the toast is up.
    for (let step = 0; step < 20 && !screen.queryByText('Session expired'); step += 1) {
      await act(() => vi.advanceTimersByTimeAsync(5));
    }
    expect(screen.getByText('Session expired')).toBeTruthy();
    return Date.now();
  }

  const toastTexts = () => screen.queryAllByRole('alert').map((a) => a.textContent);

  /**
   * Moves the fake clock in small steps, each inside act: notistack's transitions start their next
   * timer from an effect, which runs only once React has rendered the step before.
   */
  async function advance(ms: number) {
    for (let left = ms; left > 0; left -= 25) await act(() => vi.advanceTimersByTimeAsync(Math.min(25, left)));
  }

  it('the failure asked for in the same moment waits, then replaces it (fake timers)', async () => {
    const shownAt = await submitInto419();
    // The same request's own error was asked for too, and the session is over (SPEC §4).
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(getAccountSnapshot()).toBeNull();
    expect(toastTexts().join()).toContain('Session expired');
    expect(toastTexts().join()).not.toContain(failure);

    // Just before the hold ends (3 s, docs/decisions.md): still only "Session expired".
    expect(SESSION_TOAST_HOLD_MS).toBe(3000);
    await advance(shownAt + 2950 - Date.now());
    expect(toastTexts().join()).toContain('Session expired');
    expect(toastTexts().join()).not.toContain(failure);

    // The hold ends: the waiting toast replaces it, as SPEC §4 says a new toast does (after
    // notistack's exit transition of the old one, a few hundred milliseconds).
    await advance(1000);
    expect(toastTexts()).toEqual([failure]);
  });

  it('Dismiss on "Session expired" shows what waits at once', async () => {
    await submitInto419();
    await act(() => vi.advanceTimersByTimeAsync(0));
    const sessionToast = screen.getAllByRole('alert').find((a) => a.textContent?.includes('Session expired'))!;
    fireEvent.click(within(sessionToast).getByRole('button', { name: 'Dismiss' }));
    await advance(1000); // the exit transition, far less than the hold
    expect(toastTexts()).toEqual([failure]);
  });
});

describe('the journal and voice indexes explain themselves on the first visit only', () => {
  it('journal: shown on the first visit (and kept while there), never again', async () => {
    fakeFetch();
    setAccount(makeAccount());
    const first = renderApp('/journal');
    expect(await screen.findByRole('heading', { level: 2, name: 'New to your journal?' })).toBeTruthy();
    // Marked by an effect, which React may run a moment after the first paint (a busy machine).
    await waitFor(() => expect(localStorage.getItem('journalIndexVisited')).toBe('true'));
    // Re-rendering on the same visit keeps it.
    expect(screen.getByRole('heading', { level: 2, name: 'New to your journal?' })).toBeTruthy();
    first.unmount();

    renderApp('/journal');
    await screen.findByRole('heading', { level: 1, name: 'Write in your journal' });
    expect(screen.queryByRole('heading', { level: 2, name: 'New to your journal?' })).toBeNull();
  });

  it('voice: "Got it" puts it away and focus goes to the page heading; the next visit has none', async () => {
    fakeFetch();
    setAccount(makeAccount());
    const first = renderApp('/voice');
    const note = await screen.findByRole('region', { name: 'New to Voice?' });
    expect(within(note).getByText(/Childline free on 0800 1111/)).toBeTruthy();
    await first.user.click(within(note).getByRole('button', { name: 'Got it' }));
    expect(screen.queryByRole('region', { name: 'New to Voice?' })).toBeNull();
    await waitFor(() => expect(document.activeElement?.id).toBe('main-heading'));
    first.unmount();

    renderApp('/voice');
    await screen.findByRole('heading', { level: 1, name: 'Your voice' });
    expect(screen.queryByRole('region', { name: 'New to Voice?' })).toBeNull();
    expect(localStorage.getItem('voiceIndexVisited')).toBe('true');
  });
});

describe("the journal's submitted toggle (SPEC §4)", () => {
  it('after a new entry the list says so calmly, once: the toggle is cleared, and writing another goes back to the form', async () => {
    fakeFetch();
    setAccount(makeAccount());
    const router = createMemoryRouter(routes, { initialEntries: [{ pathname: '/journal/entries', state: { submitted: { queuedOffline: true } } }] });
    const user = userEvent.setup();
    render(<AppProviders router={router} />);
    await screen.findByRole('heading', { level: 1, name: 'Journal entries' });
    expect(screen.getByText('Saved on this device. It is at the top of your list, and it will be sent when you are back online.')).toBeTruthy();
    // Read once: the navigation state is cleared, so a reload or coming back shows the plain list.
    await waitFor(() => expect(router.state.location.state).toBeNull());
    expect(screen.getByText(/Saved on this device/)).toBeTruthy();

    await user.click(screen.getByRole('link', { name: 'Write another entry' }));
    await screen.findByRole('heading', { level: 1, name: 'Write in your journal' });
    await act(() => router.navigate(-1));
    await screen.findByRole('heading', { level: 1, name: 'Journal entries' });
    expect(screen.queryByText(/Saved on this device/)).toBeNull();
  });
});
