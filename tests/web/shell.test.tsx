import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { getAccountSnapshot, setAccount } from '@/data/session-store';
import { makeAccount } from './support/account';
import { fakeFetch, json } from './support/fake-fetch';
import { renderApp } from './support/render-app';

describe('404 page', () => {
  it('shows 404, "Page not found: {path}", and Back to safety goes to /dashboard', async () => {
    fakeFetch();
    setAccount(makeAccount());
    const { user, router } = renderApp('/no/such/place');
    const heading = await screen.findByRole('heading', { level: 1 });
    expect(heading.textContent).toContain('Page not found: /no/such/place');
    expect(screen.getByText('404')).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Hearth - Page not found'));
    await user.click(screen.getByRole('button', { name: 'Back to safety' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Hi Sam' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard');
  });
});

describe('page titles', () => {
  it('home is just the product name', async () => {
    fakeFetch();
    renderApp('/');
    await screen.findByRole('button', { name: 'Sign in' });
    await waitFor(() => expect(document.title).toBe('Hearth'));
  });

  it('a page is "{product} - {Name}", with the product name from the app config', async () => {
    fakeFetch((req) =>
      req.path === '/app-config'
        ? json(200, {
            success: true,
            data: { product_name: 'Oak Hearth', regions: [{ name: 'United Kingdom', api_base: '/api' }], default_region: 'United Kingdom', default_site: 'demo', dev_mailbox: false, push_public_key: null },
          })
        : undefined,
    );
    setAccount(makeAccount());
    const { router } = renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Hi Sam' });
    await waitFor(() => expect(document.title).toBe('Oak Hearth - Dashboard'));
    await act(() => router.navigate('/journal/entries'));
    await screen.findByRole('heading', { level: 1, name: 'Journal entries' });
    expect(document.title).toBe('Oak Hearth - Journal entries');
    await act(() => router.navigate('/terms-and-conditions'));
    await screen.findByRole('heading', { level: 1, name: 'Terms and conditions' });
    expect(document.title).toBe('Oak Hearth - Terms and conditions');
  });

  it('moves focus to the new page heading after navigating', async () => {
    fakeFetch();
    setAccount(makeAccount());
    const { user } = renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Hi Sam' });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await user.click(Array.from(nav.querySelectorAll('a')).find((a) => a.textContent === 'Objectives')!);
    const heading = await screen.findByRole('heading', { level: 1, name: 'Objectives' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(nav.querySelector('[aria-current="page"]')?.textContent).toBe('Objectives');
  });
});

describe('guards', () => {
  it('auth: signed out → the login screen', async () => {
    fakeFetch();
    const { router } = renderApp('/calendar');
    await screen.findByRole('button', { name: 'Sign in' });
    expect(router.state.location.pathname).toBe('/');
  });

  it('wrong user type: shows the message, signs out, and returns to login after ~2 s', async () => {
    const server = fakeFetch();
    setAccount(makeAccount({ type: 'staff_user' }));
    const { router } = renderApp('/dashboard');
    expect((await screen.findByRole('alert')).textContent).toContain('Invalid user type. Redirecting to login.');
    await waitFor(() => expect(server.calls.some((c) => c.method === 'POST' && c.path === '/auth/logout')).toBe(true));
    expect(screen.queryByRole('heading', { name: /Hi / })).toBeNull();
    await screen.findByRole('button', { name: 'Sign in' }, { timeout: 3500 });
    expect(router.state.location.pathname).toBe('/');
    expect(getAccountSnapshot()).toBeNull();
  });

  it('feature flag off: a friendly page with a way to the dashboard', async () => {
    fakeFetch();
    setAccount(makeAccount({ flags: { rewards_enabled: 0 } }));
    const { user, router } = renderApp('/rewards');
    expect(await screen.findByRole('heading', { level: 1, name: 'This part of Hearth is not switched on for you' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Rewards' })).toBeNull();
    await user.click(screen.getByRole('link', { name: 'Go to dashboard' }));
    await screen.findByRole('heading', { level: 1, name: 'Hi Sam' });
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('feature flag on: the page and its nav item show', async () => {
    fakeFetch();
    setAccount(makeAccount({ flags: { journal_enabled: 1 } }));
    renderApp('/journal');
    expect(await screen.findByRole('heading', { level: 1, name: 'Write in your journal' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Save entry' })).toBeTruthy();
  });

  it('offline: the banner shows; pages without the offline guard ask to be online, others still work', async () => {
    fakeFetch();
    setAccount(makeAccount());
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    // Changing a password needs the server; every page that reads the replica works offline.
    const { router } = renderApp('/change-password');
    expect(await screen.findByRole('heading', { level: 1, name: 'You need to be online for this page' })).toBeTruthy();
    expect(screen.getAllByRole('status').some((el) => el.textContent === 'You are currently offline')).toBe(true);
    await act(() => router.navigate('/calendar'));
    // The offline guard lets /calendar through (its entries come from the replica: tests/web/calendar.test.tsx).
    expect(await screen.findByRole('heading', { level: 1, name: 'Calendar' })).toBeTruthy();
    expect(screen.queryByRole('heading', { level: 1, name: 'You need to be online for this page' })).toBeNull();
  });
});
