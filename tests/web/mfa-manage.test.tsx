import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mfaManageMessages } from '@/contract/auth';
import { chosenMessages } from '@/contract/messages';
import type { Account } from '@/contract/users';
import { setAccount } from '@/data/session-store';
import { makeAccount } from './support/account';
import { fakeFetch, json, type Handler } from './support/fake-fetch';
import { renderApp } from './support/render-app';
import { waitUntil } from '../support/wait';

/**
 * Issue 12: with two-factor on, /auth/mfa/configure shows the young person's ways to get codes,
 * lets them turn one off and make new recovery codes, each after their password again.
 */
const PASSWORD = 'hearth-demo-1';
const CODES = Array.from({ length: 10 }, (_, i) => `new${i}-code${i}`);

const withMethods = (methods: Account['mfa_methods'], required = false): Account => ({
  ...makeAccount({ mfaConfigured: methods.length > 0 }),
  mfa_methods: methods,
  mfa_required: required,
});

/** The server: the right password turns the method off (the account follows) or makes new codes. */
function manageServer(account: { current: Account }): Handler {
  return (req) => {
    const current = (req.body as { current?: string } | undefined)?.current;
    const refused = () => json(422, { success: false, message: 'Some details need fixing', errors: { current: [chosenMessages.currentPasswordWrong] } });
    if (req.path === '/v1/auth/user') return json(200, account.current);
    if (req.method === 'DELETE' && req.path.startsWith('/v1/auth/mfa/methods/')) {
      if (current !== PASSWORD) return refused();
      const method = req.path.split('/').at(-1) as 'authenticator' | 'email';
      account.current = { ...account.current, mfa_methods: account.current.mfa_methods.filter((m) => m !== method) };
      return json(200, { success: true, message: mfaManageMessages.removed, data: { method, methods: account.current.mfa_methods } });
    }
    if (req.path === '/v1/auth/mfa/recovery-codes') {
      return current === PASSWORD ? json(200, { success: true, data: { recovery_codes: CODES } }) : refused();
    }
    return undefined;
  };
}

describe('managing two-factor sign-in', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('turns off a method after the password: a wrong one shows beside the field, the list follows', async () => {
    const account = { current: withMethods(['authenticator', 'email']) };
    setAccount(account.current);
    const server = fakeFetch(manageServer(account));
    const { user } = renderApp('/auth/mfa/configure');
    const ways = await screen.findByRole('region', { name: 'Your ways to get codes' });
    expect(within(ways).getAllByRole('listitem').map((li) => li.querySelector('.mfa-manage__name')?.textContent)).toEqual(['Authenticator app', 'Email codes']);
    // Both are on: nothing left to add.
    expect(screen.queryByRole('heading', { name: 'Add another way' })).toBeNull();

    await user.click(within(ways).getByRole('button', { name: 'Turn off Email codes' }));
    const field = await screen.findByLabelText('Your password');
    expect(document.activeElement).toBe(field);
    await user.type(field, 'not-it{Enter}');
    expect(await screen.findByText(chosenMessages.currentPasswordWrong)).toBeTruthy();
    await user.clear(field);
    await user.type(field, `${PASSWORD}{Enter}`);

    expect(await screen.findByText('Email codes turned off.')).toBeTruthy();
    await waitUntil(() => expect(within(ways).queryByText('Email codes')).toBeNull());
    expect(screen.getByRole('heading', { name: 'Add another way' })).toBeTruthy();
    expect(screen.getByRole('link', { name: /^Email/ })).toBeTruthy();
    const deletes = server.calls.filter((c) => c.method === 'DELETE');
    expect(deletes.map((c) => [c.path, (c.body as { current: string }).current])).toEqual([
      ['/v1/auth/mfa/methods/email', 'not-it'],
      ['/v1/auth/mfa/methods/email', PASSWORD],
    ]);
  });

  it('turning off the last way: the page says so and offers set-up again', async () => {
    const account = { current: withMethods(['authenticator']) };
    setAccount(account.current);
    fakeFetch(manageServer(account));
    const { user } = renderApp('/auth/mfa/configure');
    expect(await screen.findByRole('heading', { level: 1, name: 'Two-factor sign-in' })).toBeTruthy();
    await user.click(await screen.findByRole('button', { name: 'Turn off Authenticator app' }));
    await user.type(await screen.findByLabelText('Your password'), `${PASSWORD}{Enter}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Set up two-factor sign-in' })).toBeTruthy();
    expect(screen.getByText('Authenticator app turned off.').getAttribute('role')).toBe('status');
    expect(screen.queryByRole('region', { name: 'Your ways to get codes' })).toBeNull();
  });

  it('where two-factor is required, the only way stays (no button, the reason shown)', async () => {
    const account = { current: withMethods(['authenticator'], true) };
    setAccount(account.current);
    fakeFetch(manageServer(account));
    renderApp('/auth/mfa/configure');
    const ways = await screen.findByRole('region', { name: 'Your ways to get codes' });
    expect(within(ways).queryByRole('button')).toBeNull();
    expect(within(ways).getByText(mfaManageMessages.keepOne)).toBeTruthy();
  });

  it('makes new recovery codes after the password and shows them once', async () => {
    const account = { current: withMethods(['authenticator']) };
    setAccount(account.current);
    fakeFetch(manageServer(account));
    const { user } = renderApp('/auth/mfa/configure');
    await user.click(await screen.findByRole('button', { name: 'Make new recovery codes' }));
    await user.type(await screen.findByLabelText('Your password'), `${PASSWORD}{Enter}`);
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual(CODES);
    await user.click(screen.getByRole('button', { name: 'I have saved my codes' }));
    expect(await screen.findByText(mfaManageMessages.newCodes)).toBeTruthy();
    expect(screen.queryByText(CODES[0]!)).toBeNull();
  });

  it('offline: the changes wait for a connection, and say so', async () => {
    const account = { current: withMethods(['authenticator', 'email']) };
    setAccount(account.current);
    fakeFetch(manageServer(account));
    vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => false);
    renderApp('/auth/mfa/configure');
    expect(await screen.findByText('You need to be online to change two-factor sign-in.')).toBeTruthy();
    for (const button of [screen.getByRole('button', { name: 'Turn off Authenticator app' }), screen.getByRole('button', { name: 'Make new recovery codes' })]) {
      expect((button as HTMLButtonElement).disabled).toBe(true);
    }
  });
});
