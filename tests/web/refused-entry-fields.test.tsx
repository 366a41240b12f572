/**
 * An entry the server refused with field errors (422) shows each error beside its field, in the
 * same markup as the device's own checks, with the young person's words still in the form: when
 * the entry is opened again after the outbox's replay was refused, and when the refusal lands
 * while the form is open. What the replica keeps for it has its own tests (tests/data/entries-write.test.ts).
 */
import { act, screen, within } from '@testing-library/react';
import axe from 'axe-core';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { entryMessages } from '@/contract/entries';
import { setAccount } from '@/data/session-store';
import { entryEditDraftKey } from '@/entries/data/draft-keys';
import { makeAccount } from './support/account';
import { categories, emojis, journalEntry, STAFF, voiceEntry } from './support/entry-fixtures';
import { fakeDrafts } from './support/fake-drafts';
import { fakeFetch } from './support/fake-fetch';
import { fakeReplica } from './support/fake-replica';
import { renderApp } from './support/render-app';
import { waitUntil } from '../support/wait';

const refusals = vi.hoisted(() => new Map<string, { outboxId: string; errors: Record<string, string[]> }>());

vi.mock('@/entries/hooks/use-refused-fields', async () => {
  const { useFakeReplica } = await import('./support/fake-replica');
  return {
    useRefusedFields: (formKey: string | null) => {
      useFakeReplica();
      return (formKey && refusals.get(formKey)) ?? null;
    },
  };
});
vi.mock('@/data/hooks/use-draft', async () => (await import('./support/fake-drafts')).draftHooks);
vi.mock('@/entries/hooks/use-entries', async () => (await import('./support/fake-replica')).entryHooks);
vi.mock('@/data/hooks/use-associated-users', () => ({ useAssociatedUsers: () => ({ data: [STAFF], loading: false }) }));
vi.mock('@/data/hooks/use-resident-details', () => ({ useResidentDetails: () => ({ data: null, loading: false }) }));
vi.mock('@/entries/hooks/use-entry-file', () => ({ useEntryFile: () => null }));
vi.mock('@/data/hooks/use-user-photo', () => ({ useUserPhoto: () => null }));

const NOT_IN_HOME = 'You can only share with people who work in your home';
const WORDS = 'I said sorry to Ali and I meant it';

beforeEach(() => {
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
  refusals.clear();
  fakeDrafts.reset();
  fakeReplica.reset();
  fakeReplica.set({ categories: categories(), emojis: emojis() });
  fakeFetch();
  setAccount(makeAccount());
});

/** The text of the elements `element` is described by. */
const description = (element: Element) =>
  (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

async function axeViolations(container: HTMLElement) {
  // jsdom has no layout or computed colours: contrast is checked in Chromium (e2e).
  const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe('a journal entry refused while no form was open, opened again', () => {
  it('shows each error beside its field with the words kept, focuses the first, and says nothing twice', async () => {
    const entry = journalEntry({ description: WORDS, shared_with: [STAFF.id], sync_state: 'failed', sync_message: entryMessages.updateFailed, sync_outbox_id: 'k1' });
    fakeReplica.set({ journalEntries: [entry] });
    refusals.set(entryEditDraftKey('journal', entry.id), { outboxId: 'k1', errors: { 'shared_with.0': [NOT_IN_HOME], entry_time: [entryMessages.dateInFuture] } });
    const { container } = renderApp(`/journal/edit/${entry.id}`);

    const words = (await screen.findByRole('textbox', { name: 'What’s on your mind?' })) as HTMLTextAreaElement;
    expect(words.value).toBe(WORDS);
    const date = container.querySelector('input[type="date"]')!;
    await waitUntil(() => expect(date.getAttribute('aria-invalid')).toBe('true'));
    expect(description(date)).toContain(entryMessages.dateInFuture);
    const sharing = screen.getByRole('group', { name: 'Who can see this?' });
    expect(description(sharing)).toContain(NOT_IN_HOME);
    expect(within(sharing).getByRole('checkbox', { name: /Ali Khan/ }).getAttribute('aria-invalid')).toBe('true');
    // As after the device's own checks: the first field with a problem has the focus.
    await waitUntil(() => expect(document.activeElement).toBe(date));
    // The page's line says the entry was not sent; the reasons are beside their fields only.
    for (const alert of screen.getAllByRole('alert')) {
      expect(alert.textContent).not.toContain(NOT_IN_HOME);
      expect(alert.textContent).not.toContain(entryMessages.dateInFuture);
    }
    expect(await axeViolations(container)).toEqual([]);
  });
});

describe('a voice entry refused while its form is open', () => {
  it('puts the error beside the words, keeps what was typed since and moves the focus there', async () => {
    const sent = voiceEntry({ description: 'The heating is off', sync_state: 'pending', sync_outbox_id: 'k2' });
    fakeReplica.set({ voiceEntries: [sent] });
    const { user } = renderApp(`/voice/edit/${sent.id}`);
    const words = (await screen.findByRole('textbox', { name: 'What would you like to say?' })) as HTMLTextAreaElement;
    await user.type(words, ' again');
    expect(words.getAttribute('aria-invalid')).toBeNull();

    refusals.set(entryEditDraftKey('voice', sent.id), { outboxId: 'k2', errors: { description: [entryMessages.descriptionTooLong] } });
    act(() => fakeReplica.set({ voiceEntries: [{ ...sent, sync_state: 'failed', sync_message: entryMessages.updateFailed }] }));

    await waitUntil(() => expect(words.getAttribute('aria-invalid')).toBe('true'));
    expect(description(words)).toContain(entryMessages.descriptionTooLong);
    expect(words.value).toBe('The heating is off again');
    await waitUntil(() => expect(document.activeElement).toBe(words));
    // Above the form, as on the journal's: the entry itself did not go.
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toContain(`This entry was not sent: ${entryMessages.updateFailed}`);
  });

  it('the list’s card, which has no fields, lists what the server said about them', async () => {
    const refused = voiceEntry({ description: 'The heating is off', sync_state: 'failed', sync_message: entryMessages.updateFailed, sync_outbox_id: 'k3' });
    fakeReplica.set({ voiceEntries: [refused] });
    refusals.set(entryEditDraftKey('voice', refused.id), { outboxId: 'k3', errors: { description: [entryMessages.descriptionTooLong] } });
    renderApp('/voice/entries');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(entryMessages.updateFailed);
    expect(within(alert.parentElement!).getByRole('listitem').textContent).toBe(entryMessages.descriptionTooLong);
  });
});
