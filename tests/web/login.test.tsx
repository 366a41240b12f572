import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getAccountSnapshot } from '@/data/session-store';
import { readMfaChallenge } from '@/data/mfa-challenge';
import { updateSettings } from '@/data/settings-store';
import { makeAccount } from './support/account';
import { fakeFetch, json, type Handler } from './support/fake-fetch';
import { renderApp } from './support/render-app';

const loginData = { mfa_required: false, mfa_methods: [], methods: [], two_factor_id: null, mfa_setup_required: false };

async function fillAndSubmit(handler: Handler) {
  const server = fakeFetch(handler);
  const app = renderApp('/');
  await app.user.type(await screen.findByLabelText('Username'), 'sam');
  await app.user.type(screen.getByLabelText('Password'), 'a long passphrase');
  await app.user.click(screen.getByRole('button', { name: 'Sign in' }));
  return { ...app, server };
}

describe('login', () => {
  it('shows field messages beside empty fields and sends nothing', async () => {
    const server = fakeFetch();
    const { user } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    const username = screen.getByLabelText('Username');
    expect(await screen.findByText('Username is required')).toBeTruthy();
    expect(username.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(username.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Username is required');
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(server.calls.some((c) => c.path === '/auth/login')).toBe(false);
  });

  it('a refused send puts focus on the first field with a message; each change then checks again', async () => {
    fakeFetch();
    const { user } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Username is required')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Username')));
    await user.type(screen.getByLabelText('Username'), 'sam');
    await waitFor(() => expect(screen.queryByText('Username is required')).toBeNull());
    expect(screen.getByText('Password is required')).toBeTruthy();
    await user.type(screen.getByLabelText('Password'), 'x');
    await waitFor(() => expect(screen.queryByText('Password is required')).toBeNull());
  });

  it('a wrong site opens the site field with its message, and focus goes there', async () => {
    fakeFetch();
    updateSettings({ domain: 'Not a site!', userSetDomain: true });
    const { user } = renderApp('/');
    await user.type(await screen.findByLabelText('Username'), 'sam');
    await user.type(screen.getByLabelText('Password'), 'a long passphrase');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    const site = await screen.findByLabelText('Client site');
    await waitFor(() => expect(document.activeElement).toBe(site));
    expect(site.getAttribute('aria-invalid')).toBe('true');
  });

  it('"Change site" opens the site field with focus in it', async () => {
    fakeFetch();
    const { user } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Change site' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Client site')));
  });

  it('prefills the client site from the app config and lets the person change it', async () => {
    fakeFetch();
    const { user } = renderApp('/');
    expect(await screen.findByText('demo')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Change site' }));
    const site = screen.getByLabelText('Client site') as HTMLInputElement;
    expect(site.value).toBe('demo');
    expect((screen.getByLabelText('Region') as HTMLSelectElement).value).toBe('United Kingdom');
  });

  it('shows the server message as an error toast', async () => {
    const message = 'The username or password is not right. Please check them and try again.';
    const { server } = await fillAndSubmit((req) => (req.path === '/auth/login' ? json(422, { success: false, message }) : undefined));
    expect((await screen.findByRole('alert')).textContent).toContain(message);
    const login = server.calls.find((c) => c.path === '/auth/login');
    expect(login?.body).toEqual({ username: 'sam', password: 'a long passphrase', client_site: 'demo' });
    expect(getAccountSnapshot()).toBeNull();
  });

  it('shows the connection error when the server gives no message', async () => {
    await fillAndSubmit((req) => (req.path === '/auth/login' ? new Response('oops', { status: 500 }) : undefined));
    expect((await screen.findByRole('alert')).textContent).toContain('Error connecting to Hearth, please try again.');
  });

  it('shows the connection error when the network fails', async () => {
    await fillAndSubmit((req) => {
      if (req.path === '/auth/login') throw new TypeError('Failed to fetch');
      return undefined;
    });
    expect((await screen.findByRole('alert')).textContent).toContain('Error connecting to Hearth, please try again.');
  });

  it('signs in, stores the account and lands on the dashboard', async () => {
    const { router } = await fillAndSubmit((req) => {
      if (req.path === '/auth/login') return json(200, { success: true, data: loginData });
      if (req.path === '/v1/auth/user') return json(200, makeAccount());
      return undefined;
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Hi Sam' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(getAccountSnapshot()?.user.username).toBe('sam');
    // Plain storage keeps only the non-personal session stub; names live in the encrypted replica.
    const stored = localStorage.getItem('hearth.session') ?? '';
    expect(JSON.parse(stored || 'null')?.user_id).toBe(makeAccount().user.id);
    expect(stored).not.toMatch(/sam|Samuel|Jones/i);
  });

  it('goes to verification carrying the two-factor id and methods', async () => {
    const { router } = await fillAndSubmit((req) =>
      req.path === '/auth/login'
        ? json(200, { success: true, data: { ...loginData, mfa_required: true, methods: ['authenticator', 'email'], two_factor_id: 'tf-1' } })
        : undefined,
    );
    expect(await screen.findByLabelText('Verification code')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/auth/mfa/verify');
    expect(readMfaChallenge()).toEqual({ two_factor_id: 'tf-1', methods: ['authenticator', 'email'] });
  });

  it('goes to two-factor set-up when the site requires it', async () => {
    const { router } = await fillAndSubmit((req) =>
      req.path === '/auth/login' ? json(200, { success: true, data: { ...loginData, mfa_setup_required: true } }) : undefined,
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/mfa/configure'));
    expect(await screen.findByRole('link', { name: /Authenticator app/ })).toBeTruthy();
  });
});
