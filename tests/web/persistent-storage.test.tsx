import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readPersistAnswer } from '@/data/persistent-storage';
import { clearSession, setAccount } from '@/data/session-store';
import { makeAccount } from './support/account';
import { fakeFetch } from './support/fake-fetch';
import { renderApp } from './support/render-app';

/**
 * Persistent storage (issue 10): asked once per device after sign-in (wired by the composition root,
 * which tests/web/setup.ts starts as main.tsx does), and shown on /dev with the storage estimate.
 */
function fakeStorage(options: { persisted?: boolean; grant?: boolean; persist?: boolean } = {}) {
  const storage = {
    persisted: vi.fn(async () => options.persisted ?? false),
    estimate: vi.fn(async () => ({ usage: 2 * 1024 * 1024, quota: 100 * 1024 * 1024 })),
    ...(options.persist === false ? {} : { persist: vi.fn(async () => options.grant ?? true) }),
  };
  Object.defineProperty(navigator, 'storage', { configurable: true, value: storage });
  return storage;
}

const fact = (name: string) => screen.getByText(name, { selector: 'dt' }).nextElementSibling?.textContent;

afterEach(() => {
  delete (navigator as { storage?: unknown }).storage;
});

describe('persistent storage', () => {
  it('is asked for once after sign-in, not at every sign-in, and /dev shows the answer and the estimate', async () => {
    const storage = fakeStorage({ grant: true });
    fakeFetch();
    setAccount(makeAccount());
    await waitFor(() => expect(readPersistAnswer()).toMatchObject({ granted: true, supported: true }));
    expect(storage.persist).toHaveBeenCalledTimes(1);

    clearSession();
    setAccount(makeAccount());
    await waitFor(() => expect(storage.persisted).toHaveBeenCalled());
    expect(storage.persist).toHaveBeenCalledTimes(1);

    storage.persisted.mockResolvedValue(true);
    renderApp('/dev');
    await screen.findByRole('heading', { level: 1, name: 'Developer' });
    await waitFor(() => expect(fact('Persistent storage')).toBe('Yes'));
    expect(fact('Asked after sign-in')).toMatch(/^Granted \(\d{1,2} \w{3} \d{4}, \d{2}:\d{2}\)$/);
    expect(fact('Storage used')).toBe('2.0 MB of 100.0 MB');
  });

  it('a refusal is kept and shown, and not asked again', async () => {
    const storage = fakeStorage({ grant: false });
    fakeFetch();
    setAccount(makeAccount());
    await waitFor(() => expect(readPersistAnswer()).toMatchObject({ granted: false, supported: true }));
    setAccount(makeAccount());
    renderApp('/dev');
    await waitFor(() => expect(fact('Persistent storage')).toBe('No'));
    expect(fact('Asked after sign-in')).toMatch(/^Not granted \(/);
    expect(storage.persist).toHaveBeenCalledTimes(1);
  });

  it('already persisted: nothing to ask', async () => {
    const storage = fakeStorage({ persisted: true });
    fakeFetch();
    setAccount(makeAccount());
    await waitFor(() => expect(readPersistAnswer()).toMatchObject({ granted: true }));
    expect(storage.persist).not.toHaveBeenCalled();
  });

  it('a browser without persist(), and /dev before anyone signed in', async () => {
    fakeStorage({ persist: false });
    fakeFetch();
    const before = renderApp('/dev');
    await screen.findByRole('heading', { level: 1, name: 'Developer' });
    expect(fact('Asked after sign-in')).toBe('Not asked yet');
    before.unmount();

    setAccount(makeAccount());
    await waitFor(() => expect(readPersistAnswer()).toMatchObject({ granted: false, supported: false }));
    renderApp('/dev');
    await screen.findByRole('heading', { level: 1, name: 'Developer' });
    expect(fact('Asked after sign-in')).toBe('Not supported by this browser');
  });
});
