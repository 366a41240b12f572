import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UnsentDialog, unsentText } from '@/app/shell/unsent-dialog';
import { UPDATE_READY, UpdateBanner } from '@/app/shell/update-banner';
import { setUpdateHandler, updateStore } from '@/app/shell/update-state';
import { countsStore, resetOutboxConfig } from '@/data/outbox/outbox';

afterEach(() => resetOutboxConfig());

describe('logout with unsent items', () => {
  it('says how many things have not been sent and offers to wait or delete them', async () => {
    countsStore.set({ pending: 2, held: 0, failed: 1 });
    const onSignOut = vi.fn();
    const onCancel = vi.fn();
    render(<UnsentDialog notQueued={0} drafts={0} onSignOut={onSignOut} onCancel={onCancel} />);
    expect(screen.getByRole('heading', { name: 'You have 3 things that have not been sent yet' })).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Wait for them to send' }) as HTMLButtonElement).disabled).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Sign out and delete them' }));
    expect(onSignOut).toHaveBeenCalledWith(true);
  });

  it('counts what no queued write holds (the wipe would delete it too)', () => {
    countsStore.set({ pending: 1, held: 0, failed: 0 });
    render(<UnsentDialog notQueued={2} drafts={0} onSignOut={vi.fn()} onCancel={vi.fn()} />);
    expect(screen.getByRole('heading', { name: 'You have 3 things that have not been sent yet' })).toBeTruthy();
  });

  it('counts a form started and not sent: nothing to wait for, and Cancel goes back to it', async () => {
    countsStore.set({ pending: 0, held: 0, failed: 0 });
    const onCancel = vi.fn();
    const onSignOut = vi.fn();
    render(<UnsentDialog notQueued={0} drafts={1} onSignOut={onSignOut} onCancel={onCancel} />);
    expect(screen.getByRole('heading', { name: 'You have 1 thing that has not been sent yet' })).toBeTruthy();
    expect(screen.getByText('You started writing and did not send. Signing out deletes everything Hearth keeps on this device.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Wait for them to send' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledOnce();
    expect(onSignOut).not.toHaveBeenCalled();
  });

  it('a form started beside writes waiting: both counted, and waiting is still offered', () => {
    countsStore.set({ pending: 2, held: 0, failed: 0 });
    render(<UnsentDialog notQueued={0} drafts={1} onSignOut={vi.fn()} onCancel={vi.fn()} />);
    expect(screen.getByRole('heading', { name: 'You have 3 things that have not been sent yet' })).toBeTruthy();
    expect(screen.getByText(/^Some of it you started writing and did not send\./)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Wait for them to send' })).toBeTruthy();
  });

  it('uses the singular for one thing', () => {
    expect(unsentText(1)).toBe('You have 1 thing that has not been sent yet');
  });
});

describe('update banner', () => {
  it('is hidden until a new build waits, then "Update" switches to it', async () => {
    const { rerender } = render(<UpdateBanner />);
    expect(screen.queryByText(UPDATE_READY)).toBeNull();
    const update = vi.fn(async () => undefined);
    setUpdateHandler(update);
    updateStore.set(true);
    rerender(<UpdateBanner />);
    await userEvent.click(await screen.findByRole('button', { name: 'Update' }));
    expect(screen.getByText(UPDATE_READY)).toBeTruthy();
    expect(update).toHaveBeenCalledOnce();
    updateStore.set(false);
  });
});
