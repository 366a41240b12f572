import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setAccount } from '@/data/session-store';
import { makeAccount } from './support/account';
import { fakeFetch, json, type Handler } from './support/fake-fetch';
import { renderApp } from './support/render-app';

const errorOf = (label: string) => {
  const input = screen.getByLabelText(label);
  return (input.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
};

async function open(handler: Handler = () => undefined) {
  const server = fakeFetch(handler);
  setAccount(makeAccount());
  const app = renderApp('/change-password');
  await screen.findByRole('heading', { level: 1, name: 'Change password' });
  return { ...app, server };
}

describe('change password', () => {
  it('shows the minimum length up front', async () => {
    await open();
    expect(screen.getByText(/Use at least 12 characters/)).toBeTruthy();
  });

  it('empty fields get their own messages and nothing is sent', async () => {
    const { user, server } = await open();
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(errorOf('Current password')).toContain('Current password is required'));
    expect(errorOf('New password')).toContain('New password is required');
    expect(errorOf('Type your new password again')).toContain('Please type your new password again');
    expect(server.writes()).toHaveLength(0);
  });

  it('too short and not matching', async () => {
    const { user } = await open();
    await user.type(screen.getByLabelText('Current password'), 'old password here');
    await user.type(screen.getByLabelText('New password'), 'short');
    await user.type(screen.getByLabelText('Type your new password again'), 'different');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(errorOf('New password')).toContain('Password must be at least 12 characters'));
    expect(errorOf('Type your new password again')).toContain('Passwords must match');
  });

  it('maps the server field errors beside the fields', async () => {
    const { user } = await open((req) =>
      req.path.endsWith('/change-password')
        ? json(422, { success: false, message: 'Some details need fixing', errors: { current: ['Your current password is not right'] } })
        : undefined,
    );
    await user.type(screen.getByLabelText('Current password'), 'wrong password');
    await user.type(screen.getByLabelText('New password'), 'three random words');
    await user.type(screen.getByLabelText('Type your new password again'), 'three random words');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(errorOf('Current password')).toContain('Your current password is not right'));
  });

  it('sends PUT with the three fields and shows the success toast', async () => {
    const { user, server } = await open((req) =>
      req.path.endsWith('/change-password') ? json(200, { success: true, message: 'Your password has been changed' }) : undefined,
    );
    await user.type(screen.getByLabelText('Current password'), 'old password here');
    await user.type(screen.getByLabelText('New password'), 'three random words');
    await user.type(screen.getByLabelText('Type your new password again'), 'three random words');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Your password has been changed')).toBeTruthy();
    const put = server.calls.find((c) => c.path.endsWith('/change-password'));
    expect(put?.method).toBe('PUT');
    expect(put?.path).toBe(`/v1/users/${makeAccount().user.id}/change-password`);
    expect(put?.body).toEqual({ current: 'old password here', password: 'three random words', password_confirmation: 'three random words' });
  });
});
