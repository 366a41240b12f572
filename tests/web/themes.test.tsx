import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Account } from '@/contract/users';
import type { Live } from '@/data/hooks';
import type * as OutboxModule from '@/data/outbox/outbox';
import type * as LocalWrites from '@/data/replica/local-writes';
import type { ResidentDoc } from '@/data/replica';
import { KIDS_STYLE_KEY } from '@/data/kids-style';
import { clearSession, setAccount } from '@/data/session-store';
import { SETTINGS_KEY } from '@/data/settings-store';
import { makeAccount } from './support/account';
import { fakeFetch } from './support/fake-fetch';
import { renderApp } from './support/render-app';

/**
 * SPEC §3's two theme settings through the real providers: the account's kids_app style (default from
 * the account, the young person's choice saved through the outbox) and the settings theme (this
 * device), both on <html> (docs/decisions.md "Themes (issue 11)").
 */

/** The replica's resident record as a tiny store (the data layer has its own tests). */
const replica = vi.hoisted(() => {
  let value = { data: null, loading: false } as Live<ResidentDoc | null>;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next: Live<ResidentDoc | null>) {
      value = next;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
});

vi.mock('@/data/hooks/use-resident-details', async () => {
  const { useSyncExternalStore } = await import('react');
  return { useResidentDetails: () => useSyncExternalStore(replica.subscribe, replica.get) };
});

/** The outbox's two doors, recorded: the optimistic write lands in the fake replica, the request is kept. */
const writes = vi.hoisted(() => ({ local: [] as unknown[][], queued: [] as unknown[] }));
vi.mock('@/data/replica/local-writes', async (importOriginal) => ({
  ...(await importOriginal<typeof LocalWrites>()),
  applyLocalChange: vi.fn(async (collection: string, id: string, patch: Partial<ResidentDoc>, sync: { state: string; outbox_id: string | null }) => {
    writes.local.push([collection, id, patch, sync]);
    const current = replica.get().data;
    if (current && collection === 'resident' && id === current.id) {
      replica.set({ data: { ...current, ...patch, sync_state: sync.state as ResidentDoc['sync_state'], sync_outbox_id: sync.outbox_id }, loading: false });
    }
  }),
}));
vi.mock('@/data/outbox/outbox', async (importOriginal) => ({
  ...(await importOriginal<typeof OutboxModule>()),
  enqueueWrite: vi.fn(async (input: { idempotencyKey: string }) => {
    writes.queued.push(input);
    return { outboxId: input.idempotencyKey };
  }),
}));

const RESIDENT_ID = '0c7d1e2f-8a9b-4c3d-9e1f-2a3b4c5d6e7f';

function resident(appSettings: Partial<ResidentDoc['app_settings']> = {}): ResidentDoc {
  return {
    id: RESIDENT_ID,
    kind: 'details',
    updated_at: new Date().toISOString(),
    user_id: '6f1c2b9e-3a41-4c8e-9d2f-1b7a5e3c9d10',
    home_id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
    home: { id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', name: 'Oak House' },
    first_name: 'Samuel',
    last_name: 'Jones',
    preferred_name: 'Sam',
    date_of_birth: null,
    reward_points: 120,
    key_worker: null,
    app_settings: { journal_colour: 'mint', journal_paper: 'dotted', theme: 'fun', ...appSettings },
    journal_enabled: 1,
    voice_enabled: 1,
    rewards_enabled: 1,
    sync_state: 'synced',
    sync_message: null,
    sync_outbox_id: null,
  };
}

function accountWithStyle(style: 'fun_style' | 'gaming_style' | null): Account {
  const account = makeAccount();
  account.user.themes = style ? [{ id: style === 'fun_style' ? 1 : 2, system_name: style, name: style === 'fun_style' ? 'Fun' : 'Gaming', theme_type: { system_name: 'kids_app' } }] : [];
  return account;
}

const html = () => document.documentElement;
const setDoc = (doc: ResidentDoc | null) => act(() => replica.set({ data: doc, loading: false }));

async function openLook(user: ReturnType<typeof renderApp>['user']) {
  await user.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('button', { name: 'Menu' }));
  const menu = screen.getByRole('dialog', { name: 'Menu' });
  return {
    style: within(menu).getByRole('group', { name: 'Style' }),
    shapes: within(menu).getByRole('group', { name: 'Shapes' }),
  };
}

beforeEach(() => {
  // user-event walks radio groups with CSS.escape, which jsdom lacks.
  if (typeof globalThis.CSS?.escape !== 'function') {
    Object.assign((globalThis.CSS ??= {} as typeof CSS), { escape: (value: string) => value.replace(/([^\w-])/g, '\\$1') });
  }
  replica.set({ data: null, loading: false });
  writes.local.length = 0;
  writes.queued.length = 0;
  delete html().dataset.theme;
  delete html().dataset.kidsStyle;
  fakeFetch();
});

describe('themes on <html>', () => {
  it('signed out: the default settings theme and the fun style (SPEC §9 "Default theme: fun")', async () => {
    renderApp('/');
    await screen.findByRole('button', { name: 'Sign in' });
    expect(html().dataset.theme).toBe('fun');
    expect(html().dataset.kidsStyle).toBe('fun');
    expect(localStorage.getItem(KIDS_STYLE_KEY)).toBeNull();
  });

  it("the account's kids_app theme is the default: gaming_style turns the whole app gaming, and the device remembers it while signed in", async () => {
    setAccount(accountWithStyle('gaming_style'));
    renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Hi Sam' });
    await waitFor(() => expect(html().dataset.kidsStyle).toBe('gaming'));
    expect(html().dataset.theme).toBe('fun');
    expect(JSON.parse(localStorage.getItem(KIDS_STYLE_KEY) ?? 'null')).toBe('gaming_style');

    // Signing out: the login screen is nobody's, so it is fun again and nothing stays behind.
    act(() => clearSession());
    await screen.findByRole('button', { name: 'Sign in' });
    await waitFor(() => expect(html().dataset.kidsStyle).toBe('fun'));
    expect(localStorage.getItem(KIDS_STYLE_KEY)).toBeNull();
  });

  it('an account without a kids_app theme gets fun', async () => {
    setAccount(accountWithStyle(null));
    renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Hi Sam' });
    await waitFor(() => expect(html().dataset.kidsStyle).toBe('fun'));
    expect(JSON.parse(localStorage.getItem(KIDS_STYLE_KEY) ?? 'null')).toBe('fun_style');
  });

  it('the replicated record wins over the account copy from sign-in', async () => {
    setAccount(accountWithStyle('fun_style'));
    renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Hi Sam' });
    await waitFor(() => expect(html().dataset.kidsStyle).toBe('fun'));

    // Changed on another device: the resident record arrives with gaming_style.
    setDoc(resident({ kids_style: 'gaming_style' }));
    await waitFor(() => expect(html().dataset.kidsStyle).toBe('gaming'));
    // A copy cached before kids_style existed says nothing: what this device last showed stays,
    // rather than the older account copy from sign-in.
    setDoc(resident());
    await act(async () => undefined);
    expect(html().dataset.kidsStyle).toBe('gaming');
    setDoc(resident({ kids_style: 'fun_style' }));
    await waitFor(() => expect(html().dataset.kidsStyle).toBe('fun'));
  });

  it('before the replica opens after a reload, the style this device showed last time is used', async () => {
    localStorage.setItem(KIDS_STYLE_KEY, JSON.stringify('gaming_style'));
    setAccount(accountWithStyle(null)); // as the session stub gives it: no themes yet
    renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Hi Sam' });
    expect(html().dataset.kidsStyle).toBe('gaming');
  });

  it('after a reload, the account copy from sign-in (older) does not flash back before the record is read', async () => {
    // Signed in with fun_style, then changed to gaming: the device remembers gaming; the replica hands
    // back the account as it was at sign-in before the resident record's query has answered.
    localStorage.setItem(KIDS_STYLE_KEY, JSON.stringify('gaming_style'));
    setAccount(accountWithStyle('fun_style'));
    renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Hi Sam' });
    expect(html().dataset.kidsStyle).toBe('gaming');
    setDoc(resident({ kids_style: 'gaming_style' }));
    await waitFor(() => expect(html().dataset.kidsStyle).toBe('gaming'));
    // And when the record says otherwise (changed back on another device), the record wins.
    setDoc(resident({ kids_style: 'fun_style' }));
    await waitFor(() => expect(html().dataset.kidsStyle).toBe('fun'));
    expect(JSON.parse(localStorage.getItem(KIDS_STYLE_KEY) ?? 'null')).toBe('fun_style');
  });
});

describe('Menu → Look', () => {
  it('the young person changes the account default: the app changes at once and the choice goes out through the outbox', async () => {
    setAccount(accountWithStyle('gaming_style'));
    setDoc(resident({ kids_style: 'gaming_style' }));
    const { user } = renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Hi Sam' });
    await waitFor(() => expect(html().dataset.kidsStyle).toBe('gaming'));

    const { style } = await openLook(user);
    expect((within(style).getByRole('radio', { name: /Gaming/ }) as HTMLInputElement).checked).toBe(true);
    await user.click(within(style).getByRole('radio', { name: /Fun/ }));

    await waitFor(() => expect(html().dataset.kidsStyle).toBe('fun'));
    expect((within(style).getByRole('radio', { name: /Fun/ }) as HTMLInputElement).checked).toBe(true);
    expect(JSON.parse(localStorage.getItem(KIDS_STYLE_KEY) ?? 'null')).toBe('fun_style');
    // The journal's look is kept; the record is pending under the write's key.
    expect(writes.local).toHaveLength(1);
    const [collection, id, patch, sync] = writes.local[0]!;
    expect([collection, id]).toEqual(['resident', RESIDENT_ID]);
    expect(patch).toEqual({ app_settings: { journal_colour: 'mint', journal_paper: 'dotted', theme: 'fun', kids_style: 'fun_style' } });
    expect(sync).toMatchObject({ state: 'pending' });
    expect(writes.queued).toEqual([
      expect.objectContaining({
        method: 'PUT',
        path: `/v1/projects/residents/${RESIDENT_ID}/app-settings`,
        json: { kids_style: 'fun_style' },
        idempotencyKey: (sync as { outbox_id: string }).outbox_id,
        local: { collection: 'resident', id: RESIDENT_ID },
        topics: ['resident'],
      }),
    ]);

    // Choosing what already shows sends nothing.
    await user.click(within(style).getByRole('radio', { name: /Fun/ }));
    expect(writes.queued).toHaveLength(1);
  });

  it('Style waits for the record to sync; Shapes is the settings theme, kept on this device, and the style stays', async () => {
    setAccount(accountWithStyle('gaming_style'));
    const { user } = renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Hi Sam' });
    const { style, shapes } = await openLook(user);
    expect((within(style).getByRole('radio', { name: /Gaming/ }) as HTMLInputElement).disabled).toBe(true);
    expect(within(style).getByText('You can change your style once Hearth has synced with your home.')).toBeTruthy();

    expect((within(shapes).getByRole('radio', { name: 'Rounded' }) as HTMLInputElement).checked).toBe(true);
    await user.click(within(shapes).getByRole('radio', { name: 'Tiles' }));
    await waitFor(() => expect(html().dataset.theme).toBe('metro'));
    expect(html().dataset.kidsStyle).toBe('gaming');
    expect(JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? '{}').theme).toBe('metro');
    await user.click(within(shapes).getByRole('radio', { name: 'Plain' }));
    await waitFor(() => expect(html().dataset.theme).toBe('none'));
    expect(writes.queued).toHaveLength(0);
  });
});
