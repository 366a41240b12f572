import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { chosenMessages } from '@/contract/messages';
import { setAccount } from '@/data/session-store';
import { makeAccount } from './support/account';
import { fakeFetch, json, type Handler } from './support/fake-fetch';
import { renderApp } from './support/render-app';
import { waitUntil } from '../support/wait';

/**
 * Step-up (issue 12 finding 11): a signed-in young person turning on two-factor types their
 * password first, when the server asks for it (422 on `current`); its refusal shows beside the field.
 */
const PASSWORD = 'hearth-demo-1';
const asked = () => json(422, { success: false, message: 'Some details need fixing', errors: { current: [chosenMessages.currentPasswordRequired] } });
const wrong = () => json(422, { success: false, message: 'Some details need fixing', errors: { current: [chosenMessages.currentPasswordWrong] } });

/** The server's side: no password asks for it, a wrong one is refused, the right one starts the method. */
const stepUpServer = (started: unknown): Handler => (req) => {
  if (req.path !== '/auth/mfa/enable') return undefined;
  const current = (req.body as { current?: string }).current;
  if (current === undefined) return asked();
  return current === PASSWORD ? json(200, { success: true, data: started }) : wrong();
};

const errorOf = (input: HTMLElement) =>
  (input.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

describe('step-up before turning on two-factor', () => {
  it('authenticator: asks for the password, shows a wrong one beside the field, then the set-up', async () => {
    setAccount(makeAccount());
    const server = fakeFetch(stepUpServer({ method: 'authenticator', confirmed: false, secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', otpauth_url: 'otpauth://totp/x', qr_code: 'data:image/png;base64,AA==' }));
    const { user } = renderApp('/auth/mfa/configure/authenticator');
    const field = (await screen.findByLabelText('Your password')) as HTMLInputElement;
    expect(field.getAttribute('autocomplete')).toBe('current-password');
    expect(document.activeElement).toBe(field);

    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(errorOf(field)).toContain(chosenMessages.currentPasswordRequired);

    await user.type(field, 'not-it');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByText(chosenMessages.currentPasswordWrong);
    expect(errorOf(field)).toContain(chosenMessages.currentPasswordWrong);

    await user.clear(field);
    await user.type(field, `${PASSWORD}{Enter}`);
    expect(await screen.findByRole('heading', { name: 'Add Hearth to your app' })).toBeTruthy();
    expect(server.calls.filter((c) => c.path === '/auth/mfa/enable').map((c) => (c.body as { current?: string }).current)).toEqual([undefined, 'not-it', PASSWORD]);
  });

  it('email: the password field appears when the server asks, and goes with the address (and with "Send again")', async () => {
    setAccount(makeAccount());
    const server = fakeFetch(stepUpServer({ method: 'email', confirmed: false }));
    const { user } = renderApp('/auth/mfa/configure/email');
    const email = await screen.findByLabelText('Email address');
    await user.clear(email);
    await user.type(email, 'sam@example.test');
    expect(screen.queryByLabelText('Your password')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Send me a code' }));

    const field = (await screen.findByLabelText('Your password')) as HTMLInputElement;
    expect(document.activeElement).toBe(field);
    expect(errorOf(field)).not.toContain(chosenMessages.currentPasswordRequired);
    await user.type(field, PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Send me a code' }));
    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Send the code again' }));

    const bodies = () => server.calls.filter((c) => c.path === '/auth/mfa/enable').map((c) => c.body);
    await waitUntil(() => expect(bodies()).toEqual([
      { method: 'email', email: 'sam@example.test' },
      { method: 'email', email: 'sam@example.test', current: PASSWORD },
      { method: 'email', email: 'sam@example.test', current: PASSWORD },
    ]));
  });
});
