import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { saveMfaChallenge } from '@/data/mfa-challenge';
import { getAccountSnapshot } from '@/data/session-store';
import { makeAccount } from './support/account';
import { fakeFetch, json, type Handler } from './support/fake-fetch';
import { renderApp } from './support/render-app';

function setUp(handler: Handler = () => undefined) {
  const server = fakeFetch(handler);
  const app = renderApp('/auth/mfa/verify');
  return { ...app, server };
}

const codeInput = async () => (await screen.findByLabelText('Verification code')) as HTMLInputElement;
const submit = () => screen.getByRole('button', { name: 'Verify' });
const errorOf = (input: HTMLElement) =>
  (input.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

describe('two-factor verification', () => {
  beforeEach(() => saveMfaChallenge({ two_factor_id: 'tf-1', methods: ['authenticator', 'email'] }));

  it('has one numeric one-time-code input', async () => {
    setUp();
    const input = await codeInput();
    expect(input.getAttribute('inputmode')).toBe('numeric');
    expect(input.getAttribute('autocomplete')).toBe('one-time-code');
  });

  it('accepts a pasted "123 456", submits 123456 and signs in', async () => {
    const { user, server, router } = setUp((req) => {
      if (req.path === '/auth/mfa/login') return json(200, { success: true });
      if (req.path === '/v1/auth/user') return json(200, makeAccount());
      return undefined;
    });
    const input = await codeInput();
    await user.click(input);
    await user.paste('123 456');
    expect(input.value).toBe('123456');
    await user.click(submit());
    await screen.findByRole('heading', { level: 1, name: 'Hi Sam' });
    expect(server.calls.find((c) => c.path === '/auth/mfa/login')?.body).toEqual({ two_factor_id: 'tf-1', method: 'authenticator', code: '123456' });
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(getAccountSnapshot()).not.toBeNull();
    expect(sessionStorage.getItem('hearth.mfaChallenge')).toBeNull();
  });

  it('typing spaces works too, and caps at 6 digits', async () => {
    const { user } = setUp();
    const input = await codeInput();
    await user.type(input, '123 4567');
    expect(input.value).toBe('123456');
  });

  it('empty → "Verification code is required"', async () => {
    const { user, server } = setUp();
    const input = await codeInput();
    await user.click(submit());
    expect(errorOf(input)).toContain('Verification code is required');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(server.calls.some((c) => c.path === '/auth/mfa/login')).toBe(false);
  });

  it('letters → "Code must be 6 digits"', async () => {
    const { user, server } = setUp();
    const input = await codeInput();
    await user.type(input, '12ab');
    expect(errorOf(input)).toContain('Code must be 6 digits');
    await user.click(submit());
    expect(errorOf(input)).toContain('Code must be 6 digits');
    expect(server.calls.some((c) => c.path === '/auth/mfa/login')).toBe(false);
  });

  it('too few digits on submit → "Please enter the complete verification code"', async () => {
    const { user, server } = setUp();
    const input = await codeInput();
    await user.type(input, '123');
    expect(errorOf(input)).toBe('');
    await user.click(submit());
    expect(errorOf(input)).toContain('Please enter the complete verification code');
    expect(server.calls.some((c) => c.path === '/auth/mfa/login')).toBe(false);
  });

  it('a wrong code from the server shows "Incorrect verification code" beside the field', async () => {
    const { user } = setUp((req) =>
      req.path === '/auth/mfa/login'
        ? json(422, { success: false, message: 'Incorrect verification code', errors: { code: ['Incorrect verification code'] } })
        : undefined,
    );
    const input = await codeInput();
    await user.type(input, '654321');
    await user.click(submit());
    await waitFor(() => expect(errorOf(input)).toContain('Incorrect verification code'));
    expect(getAccountSnapshot()).toBeNull();
  });

  it('an expired two-factor session → error toast and back to login', async () => {
    const { user, router } = setUp((req) =>
      req.path === '/auth/mfa/login' ? json(422, { success: false, message: 'MFA session expired. Please try again.' }) : undefined,
    );
    await user.type(await codeInput(), '654321');
    await user.click(submit());
    expect((await screen.findByRole('alert')).textContent).toContain('MFA session expired. Please try again.');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeTruthy();
  });

  it('can ask for an email code, then verifies with method email', async () => {
    const { user, server } = setUp((req) => {
      if (req.path === '/auth/mfa/send-code') return json(200, { success: true, message: 'We have sent a code to your email address' });
      if (req.path === '/auth/mfa/login') return json(422, { success: false, message: 'Incorrect verification code', errors: { code: ['Incorrect verification code'] } });
      return undefined;
    });
    await user.click(await screen.findByRole('button', { name: 'Send me a code by email' }));
    expect(await screen.findByText('We have sent a code to your email address')).toBeTruthy();
    expect(server.calls.find((c) => c.path === '/auth/mfa/send-code')?.body).toEqual({ two_factor_id: 'tf-1' });
    await user.type(await codeInput(), '111222');
    await user.click(submit());
    await waitFor(() => expect(server.calls.find((c) => c.path === '/auth/mfa/login')?.body).toMatchObject({ method: 'email', code: '111222' }));
  });

  it('a recovery code path validates the format and sends recovery_code', async () => {
    const { user, server } = setUp((req) => {
      if (req.path === '/auth/mfa/login') return json(200, { success: true });
      if (req.path === '/v1/auth/user') return json(200, makeAccount());
      return undefined;
    });
    await user.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    const input = await screen.findByLabelText('Recovery code');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(errorOf(input)).toContain('Recovery code is required');
    await user.type(input, 'nope');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(errorOf(input)).toContain('Recovery codes look like abcde-12345');
    await user.clear(input);
    await user.type(input, 'k3m9p-x2q7w');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByRole('heading', { level: 1, name: 'Hi Sam' });
    expect(server.calls.find((c) => c.path === '/auth/mfa/login')?.body).toEqual({
      two_factor_id: 'tf-1',
      method: 'recovery_code',
      recovery_code: 'k3m9p-x2q7w',
    });
  });

  it('without a pending challenge goes back to login', async () => {
    sessionStorage.clear();
    const { router } = setUp();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});
