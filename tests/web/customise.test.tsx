import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JOURNAL_THEME_NOT_FOUND } from '@/contract/residents';
import type { Live } from '@/data/hooks';
import type { ResidentDoc } from '@/data/replica';
import { setAccount } from '@/data/session-store';
import type * as UpdateAction from '@/features/journal/actions/update-app-settings';
import { journalSurfaceStyle } from '@/features/journal/journal-surface';
import { makeAccount } from './support/account';
import { fakeFetch } from './support/fake-fetch';
import { renderApp } from './support/render-app';

/** The replica as a tiny store: the data layer has its own tests; here it feeds the screen and re-renders it. */
const replica = vi.hoisted(() => {
  let value = { data: null, loading: false } as Live<ResidentDoc | null>;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next: Live<ResidentDoc | null>) {
      value = next;
      for (const listener of listeners) listener();
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

const actions = vi.hoisted(() => ({ update: vi.fn(), retry: vi.fn() }));
vi.mock('@/features/journal/actions/update-app-settings', async (importOriginal) => ({
  ...(await importOriginal<typeof UpdateAction>()),
  updateAppSettings: actions.update,
}));
vi.mock('@/features/journal/actions/retry-app-settings', () => ({ retryAppSettings: actions.retry }));

const RESIDENT_ID = '0c7d1e2f-8a9b-4c3d-9e1f-2a3b4c5d6e7f';

function resident(overrides: Partial<ResidentDoc> = {}): ResidentDoc {
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
    app_settings: { journal_colour: 'sky', journal_paper: 'lined', theme: 'fun' },
    journal_enabled: 1,
    voice_enabled: 1,
    rewards_enabled: 1,
    sync_state: 'synced',
    sync_message: null,
    sync_outbox_id: null,
    ...overrides,
  };
}

const setDoc = (doc: ResidentDoc | null, loading = false) => act(() => replica.set({ data: doc, loading }));
let online = true;

beforeEach(() => {
  // user-event walks radio groups with CSS.escape, which jsdom lacks.
  if (typeof globalThis.CSS?.escape !== 'function') {
    Object.assign((globalThis.CSS ??= {} as typeof CSS), { escape: (value: string) => value.replace(/([^\w-])/g, '\\$1') });
  }
  online = true;
  vi.spyOn(window.navigator, 'onLine', 'get').mockImplementation(() => online);
  replica.set({ data: resident(), loading: false });
  actions.update.mockReset();
  actions.retry.mockReset();
  // The action's optimistic write, as the replica would show it.
  actions.update.mockImplementation(async (_id: string, current: ResidentDoc['app_settings'], change: Partial<ResidentDoc['app_settings']>) => {
    replica.set({
      data: resident({ app_settings: { ...current, ...change }, sync_state: 'pending', sync_outbox_id: 'key-1' }),
      loading: false,
    });
    return { ok: true, status: 202, data: { outboxId: 'key-1' } };
  });
  actions.retry.mockResolvedValue({ ok: true, status: 202, data: { outboxId: 'key-1' } });
  fakeFetch();
  setAccount(makeAccount());
});

afterEach(() => {
  vi.restoreAllMocks();
});

const colourGroup = () => screen.getByRole('group', { name: 'Colour' });
const paperGroup = () => screen.getByRole('group', { name: 'Paper' });
const preview = () => screen.getByTestId('journal-preview');
const saveState = () => within(screen.getByRole('form', { name: 'Journal look' })).getByRole('status');

describe('customise journal', () => {
  it('offers every colour and paper by name as radios, with the saved ones checked', async () => {
    renderApp('/journal/customise');
    await screen.findByRole('heading', { level: 1, name: 'Customise journal' });
    const colours = within(colourGroup()).getAllByRole('radio');
    expect(colours.map((radio) => radio.closest('label')!.textContent)).toEqual(['Sunshine', 'Sky', 'Mint', 'Lavender', 'Coral', 'Sand', 'Slate']);
    const papers = within(paperGroup()).getAllByRole('radio');
    expect(papers.map((radio) => radio.closest('label')!.textContent)).toEqual(['Plain', 'Lined', 'Squared', 'Dotted']);
    expect((within(colourGroup()).getByRole('radio', { name: 'Sky' }) as HTMLInputElement).checked).toBe(true);
    expect((within(paperGroup()).getByRole('radio', { name: 'Lined' }) as HTMLInputElement).checked).toBe(true);
    expect(preview().className).toBe('journal-surface journal-surface--lined journal-surface--colour-sky');
    expect(saveState().textContent).toBe('Saved');
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('previews the choice live and saves colour and paper through the action', async () => {
    const { user } = renderApp('/journal/customise');
    await user.click(await screen.findByRole('radio', { name: 'Lavender' }));
    await user.click(screen.getByRole('radio', { name: 'Dotted' }));
    expect(preview().className).toBe('journal-surface journal-surface--dotted journal-surface--colour-lavender');
    expect(preview().style.getPropertyValue('--journal-paper')).toBe('#ece3ff');
    expect(preview().getAttribute('aria-label')).toBe('Lavender, dotted paper');
    expect(saveState().textContent).toBe('You have changes that are not saved yet.');
    expect(actions.update).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(actions.update).toHaveBeenCalledTimes(1);
    expect(actions.update).toHaveBeenCalledWith(
      RESIDENT_ID,
      { journal_colour: 'sky', journal_paper: 'lined', theme: 'fun' },
      { journal_colour: 'lavender', journal_paper: 'dotted' },
    );
    expect(await screen.findByText('Saving…')).toBeTruthy();
    expect((screen.getByRole('radio', { name: 'Lavender' }) as HTMLInputElement).checked).toBe(true);

    setDoc(resident({ app_settings: { journal_colour: 'lavender', journal_paper: 'dotted', theme: 'fun' } }));
    expect(saveState().textContent).toBe('Saved');
  });

  it('says the change waits on this device while offline', async () => {
    online = false;
    const { user } = renderApp('/journal/customise');
    await user.click(await screen.findByRole('radio', { name: 'Coral' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved on this device — it will be sent when you are online')).toBeTruthy();
    expect(screen.queryByText('Saving…')).toBeNull();
  });

  it('moves between colours with the arrow keys (native radios)', async () => {
    const { user } = renderApp('/journal/customise');
    // Start from the settled form (the saved colour checked), so the focus is not on a radio that re-renders.
    const radio = (name: string) => screen.getByRole('radio', { name }) as HTMLInputElement;
    await waitFor(() => expect(radio('Sky').checked).toBe(true));
    // One ArrowRight from the focused, checked Sky. On a starved machine the page may still re-render
    // under the key (the press then lands on a node that is gone): press again only while Sky is
    // still the checked one, so the key moves the choice exactly one step.
    await waitFor(async () => {
      if (radio('Sky').checked && !radio('Mint').checked) {
        radio('Sky').focus();
        await user.keyboard('{ArrowRight}');
      }
      expect(radio('Mint').checked).toBe(true);
    });
    // The preview follows the chosen colour; focus stays on it.
    await waitFor(() => {
      expect(document.activeElement).toBe(radio('Mint'));
      expect(preview().className).toContain('journal-surface--colour-mint');
    });
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    await waitFor(() => {
      expect((screen.getByRole('radio', { name: 'Sunshine' }) as HTMLInputElement).checked).toBe(true);
      expect(preview().className).toContain('journal-surface--colour-sunshine');
    });
  });

  it('shows the server message for an unknown theme, and Try again uses the outbox retry', async () => {
    replica.set({
      data: resident({ app_settings: { journal_colour: 'sky', journal_paper: 'lined', theme: 'fun' }, sync_state: 'failed', sync_message: JOURNAL_THEME_NOT_FOUND, sync_outbox_id: 'key-9' }),
      loading: false,
    });
    const { user } = renderApp('/journal/customise');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('personalised_journal theme not found');
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(actions.retry).toHaveBeenCalledWith(RESIDENT_ID, 'key-9', { journal_colour: 'sky', journal_paper: 'lined', theme: 'fun' });
  });

  it('shows one sentence for any other refusal', async () => {
    replica.set({ data: resident({ sync_state: 'failed', sync_message: 'Something odd', sync_outbox_id: 'key-9' }), loading: false });
    renderApp('/journal/customise');
    expect((await screen.findByRole('alert')).textContent).toContain('There was an error updating your journal.');
    expect(screen.queryByText('Something odd')).toBeNull();
  });

  it('shows Loading… before the replica has the details, and the empty state when it has none', async () => {
    replica.set({ data: null, loading: true });
    renderApp('/journal/customise');
    expect(await screen.findByText('Loading…')).toBeTruthy();
    setDoc(null, false);
    expect(await screen.findByText('No journal styles on this device yet.')).toBeTruthy();
  });
});

describe('journalSurfaceStyle', () => {
  it('gives the paper and colour classes and the palette, falling back for unknown values', () => {
    expect(journalSurfaceStyle({ journal_colour: 'mint', journal_paper: 'squared' }).className).toBe(
      'journal-surface journal-surface--squared journal-surface--colour-mint',
    );
    const unknown = journalSurfaceStyle({ journal_colour: 'tartan' as 'mint', journal_paper: 'wavy' as 'plain' });
    expect(unknown.className).toBe('journal-surface journal-surface--plain journal-surface--colour-sunshine');
    expect(unknown.style).toMatchObject({ '--journal-paper': '#fff4c2', '--journal-ink': '#1f1b24' });
  });
});
