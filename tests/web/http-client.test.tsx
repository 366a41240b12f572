import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { request } from '@/api/client';
import { getAccountSnapshot, setAccount } from '@/data/session-store';
import { makeAccount } from './support/account';
import { fakeFetch, json } from './support/fake-fetch';
import { renderApp } from './support/render-app';
import { watchText } from './support/text-watch';

describe('HTTP client', () => {
  it('retries a GET on 503 and returns the data', async () => {
    let n = 0;
    const server = fakeFetch((req) => {
      if (req.path !== '/v1/thing') return undefined;
      n += 1;
      return n < 3 ? json(503, { success: false, message: 'Busy' }) : json(200, { value: 1 });
    });
    const result = await request('/v1/thing');
    expect(result).toEqual({ ok: true, status: 200, data: { value: 1 } });
    expect(server.calls.filter((c) => c.path === '/v1/thing')).toHaveLength(3);
  });

  it('gives up after the retries and returns the failure as a value', async () => {
    const server = fakeFetch((req) => (req.path === '/v1/thing' ? json(503, { success: false, message: 'Busy' }) : undefined));
    const result = await request('/v1/thing');
    expect(result).toEqual({ ok: false, status: 503, message: 'Busy', errors: undefined });
    expect(server.calls.filter((c) => c.path === '/v1/thing')).toHaveLength(4);
  });

  it('does not retry a POST on 503', async () => {
    const server = fakeFetch((req) => (req.path === '/v1/thing' ? json(503, { success: false, message: 'Busy' }) : undefined));
    const result = await request('/v1/thing', { method: 'POST', body: { a: 1 } });
    expect(result.ok).toBe(false);
    expect(server.calls.filter((c) => c.path === '/v1/thing')).toHaveLength(1);
  });

  it('does not retry a GET on 404 or 422', async () => {
    const server = fakeFetch((req) => (req.path === '/v1/thing' ? json(422, { success: false, message: 'No', errors: { a: ['Bad'] } }) : undefined));
    const result = await request('/v1/thing');
    expect(result).toEqual({ ok: false, status: 422, message: 'No', errors: { a: ['Bad'] } });
    expect(server.calls).toHaveLength(1);
  });

  it('turns a network error into status 0', async () => {
    fakeFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    expect(await request('/v1/thing')).toEqual({ ok: false, status: 0, message: '' });
  });

  it('sends the XSRF-TOKEN cookie, URI-decoded, as X-XSRF-TOKEN on writes', async () => {
    document.cookie = 'XSRF-TOKEN=abc%3D%3D; path=/';
    const server = fakeFetch((req) => (req.path === '/v1/thing' ? json(200, { success: true }) : undefined));
    await request('/v1/thing', { method: 'PUT', body: {} });
    const put = server.calls.find((c) => c.path === '/v1/thing');
    expect(put?.headers['x-xsrf-token']).toBe('abc==');
    expect(server.calls.some((c) => c.path === '/auth/csrf-cookie')).toBe(false);
  });

  it('fetches the CSRF cookie first when there is none', async () => {
    const server = fakeFetch((req) => (req.path === '/v1/thing' ? json(200, { success: true }) : undefined));
    await request('/v1/thing', { method: 'POST', body: {} });
    expect(server.calls.map((c) => c.path)).toEqual(['/auth/csrf-cookie', '/v1/thing']);
    expect(server.calls[1]?.headers['x-xsrf-token']).toBe('token=from-server');
    expect(server.calls[1]?.headers['content-type']).toBe('application/json');
  });

  it('sends no CSRF header on reads', async () => {
    document.cookie = 'XSRF-TOKEN=abc; path=/';
    const server = fakeFetch((req) => (req.path === '/v1/thing' ? json(200, {}) : undefined));
    await request('/v1/thing');
    expect(server.calls[0]?.headers['x-xsrf-token']).toBeUndefined();
  });

  it('a 401 expires the session (signed-in state only)', async () => {
    setAccount(makeAccount());
    localStorage.setItem('journalIndexVisited', 'true');
    fakeFetch((req) => (req.path === '/v1/thing' ? json(401, { success: false, message: 'Please sign in' }) : undefined));
    const result = await request('/v1/thing');
    expect(result).toMatchObject({ ok: false, status: 401 });
    expect(getAccountSnapshot()).toBeNull();
    expect(localStorage.getItem('journalIndexVisited')).toBe('true');
  });

  it('a 419 shows "Session expired" once, even for several answers, and expires the session', async () => {
    document.cookie = 'XSRF-TOKEN=abc; path=/';
    fakeFetch((req) => (req.path === '/v1/thing' ? json(419, { success: false, message: 'Session expired' }) : undefined));
    const { user } = renderApp('/terms-and-conditions');
    await screen.findByRole('heading', { level: 1, name: 'Terms and conditions' });
    setAccount(makeAccount());
    // What was on the page at every change: the toast lives 6 s, a busy machine may look later.
    const toast = watchText('Session expired');
    try {
      await act(async () => {
        await Promise.all([
          request('/v1/thing', { method: 'POST' }),
          request('/v1/thing', { method: 'POST' }),
          request('/v1/thing', { method: 'POST' }),
        ]);
      });
      await waitFor(() => expect(toast.appearances()).toBe(1));
      expect(toast.mostAtOnce()).toBe(1);
      expect(getAccountSnapshot()).toBeNull();

      // Dismissed (unless its 6 s already ran out), nothing queued behind it comes back.
      const dismiss = screen.queryByRole('button', { name: 'Dismiss' });
      if (dismiss) await user.click(dismiss);
      await waitFor(() => expect(toast.now()).toBe(0));
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(toast.appearances()).toBe(1);

      // A later 419 shows it again, once.
      await act(async () => {
        await request('/v1/thing', { method: 'POST' });
      });
      await waitFor(() => expect(toast.appearances()).toBe(2));
      expect(toast.mostAtOnce()).toBe(1);
    } finally {
      toast.stop();
    }
  });
});
