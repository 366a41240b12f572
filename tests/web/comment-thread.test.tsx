import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { entryMessages } from '@/contract/entries';
import { messages } from '@/contract/messages';
import { setAccount } from '@/data/session-store';
import { makeAccount } from './support/account';
import { categories, comment, emojis, journalEntry, ME, voiceEntry } from './support/entry-fixtures';
import { fakeFetch } from './support/fake-fetch';
import { fakeReplica } from './support/fake-replica';
import { emulateModalDialogs } from './support/modal-dialog';
import { renderApp } from './support/render-app';
import { waitUntil } from '../support/wait';

vi.mock('@/entries/hooks/use-entries', async () => {
  const { entryHooks } = await import('./support/fake-replica');
  return entryHooks;
});
vi.mock('@/entries/hooks/use-comments', async () => {
  const { entryHooks } = await import('./support/fake-replica');
  return { useComments: entryHooks.useComments };
});
vi.mock('@/entries/hooks/use-entry-file', () => ({ useEntryFile: () => null }));
vi.mock('@/data/hooks/use-user-photo', () => ({ useUserPhoto: () => null }));

const actions = vi.hoisted(() => ({ postVoice: vi.fn(), updateVoice: vi.fn(), postJournal: vi.fn(), updateJournal: vi.fn(), discard: vi.fn() }));
vi.mock('@/entries/data/comments', async (importOriginal) => ({ ...(await importOriginal<object>()), discardFailedComment: actions.discard }));
vi.mock('@/features/voice/actions/post-voice-comment', () => ({ postVoiceComment: actions.postVoice }));
vi.mock('@/features/voice/actions/update-voice-comment', () => ({ updateVoiceComment: actions.updateVoice }));
vi.mock('@/features/journal/actions/post-journal-comment', () => ({ postJournalComment: actions.postJournal }));
vi.mock('@/features/journal/actions/update-journal-comment', () => ({ updateJournalComment: actions.updateJournal }));

const ENTRY = voiceEntry();
const XSS = '<img src=x onerror="window.__hearthXss=1"><script>window.__hearthXss=2</script>';
const accepted = { ok: true, id: 'new-comment', queuedOffline: false };

beforeEach(() => {
  if (typeof globalThis.CSS?.escape !== 'function') {
    Object.assign((globalThis.CSS ??= {} as typeof CSS), { escape: (value: string) => value.replace(/([^\w-])/g, '\\$1') });
  }
  for (const fn of Object.values(actions)) fn.mockReset().mockResolvedValue(accepted);
  actions.discard.mockResolvedValue({ ok: true });
  fakeReplica.reset();
  fakeReplica.set({ voiceEntries: [ENTRY], categories: categories(), emojis: emojis(), comments: [] });
  fakeFetch();
  setAccount(makeAccount());
});

afterEach(() => {
  delete (window as { __hearthXss?: unknown }).__hearthXss;
});

const thread = () => screen.getByRole('region', { name: 'Comments' });
const replyForm = () => screen.getByRole('form', { name: 'Reply' });

describe('comment thread', () => {
  it('shows the entry, then comments oldest first with names, and a staff comment with markup as plain text', async () => {
    fakeReplica.set({
      comments: [
        comment({ id: 'c1', comment: XSS, created_at: '2026-03-02T10:00:00.000Z' }),
        comment({ id: 'c2', comment: 'Thank you, I feel better.', reaction: '😊', creator: { id: ME, first_name: 'Samuel', last_name: 'Jones', has_photo: false }, created_at: '2026-03-03T10:00:00.000Z' }),
      ],
    });
    renderApp(`/voice/comments/${ENTRY.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Comments: Raise a concern' })).toBeTruthy();
    expect(screen.getByText('The lock on the bathroom door is broken.')).toBeTruthy();
    const items = within(thread()).getAllByRole('article');
    expect(items.map((item) => item.getAttribute('aria-label'))).toEqual(['Comment from Ali Khan', 'Comment from You']);
    // The payload is text: no element, no handler, the characters shown as typed.
    expect(within(items[0]!).getByText(XSS)).toBeTruthy();
    expect(thread().querySelector('img')).toBeNull();
    expect(thread().querySelector('script')).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((window as { __hearthXss?: unknown }).__hearthXss).toBeUndefined();
    expect(within(items[1]!).getByRole('img', { name: 'Reaction: Happy' })).toBeTruthy();
    // Only one's own comment can be edited.
    expect(within(items[0]!).queryByRole('button', { name: /Edit/ })).toBeNull();
    expect(within(items[1]!).getByRole('button', { name: 'Edit your reply' })).toBeTruthy();
  });

  it('marks the young person’s unsent reply as waiting, and a failed one with its message, Try again and Edit', async () => {
    const mine = { id: ME, first_name: 'Samuel', last_name: 'Jones', has_photo: false };
    fakeReplica.set({
      comments: [
        comment({ id: 'p1', comment: 'On its way', creator: mine, sync_state: 'pending', sync_outbox_id: 'k1' }),
        comment({ id: 'f1', comment: 'Did not go', reaction: '😢', creator: mine, sync_state: 'failed', sync_message: null, created_at: '2026-03-04T10:00:00.000Z' }),
      ],
    });
    const { user } = renderApp(`/voice/comments/${ENTRY.id}`);
    const [pending, failed] = await within(await screen.findByRole('region', { name: 'Comments' })).findAllByRole('article');
    expect(within(pending!).getByText('Waiting to send')).toBeTruthy();
    expect(within(failed!).getByRole('alert').textContent).toContain(entryMessages.replyFailed);

    await user.click(within(failed!).getByRole('button', { name: 'Try again' }));
    expect(actions.updateVoice).toHaveBeenCalledWith('f1', { comment: 'Did not go', reaction: '😢' });

    await user.click(within(failed!).getByRole('button', { name: 'Edit' }));
    const edit = within(failed!).getByRole('form', { name: 'Edit your reply' });
    const box = within(edit).getByLabelText('Your message') as HTMLTextAreaElement;
    expect(box.value).toBe('Did not go');
    await user.clear(box);
    await user.type(box, 'Second try');
    await user.click(within(edit).getByRole('button', { name: 'Save' }));
    expect(actions.updateVoice).toHaveBeenLastCalledWith('f1', { comment: 'Second try', reaction: '😢', files: [] });
    expect(await screen.findByText('Your reply has been updated.')).toBeTruthy();
  });

  it('a refused reply can be discarded, after a confirmation that shows the words and offers to copy them; in a closed conversation too', async () => {
    const mine = { id: ME, first_name: 'Samuel', last_name: 'Jones', has_photo: false };
    fakeReplica.set({
      voiceEntries: [voiceEntry({ locked_at: '2026-03-05T10:00:00.000000Z' })],
      comments: [comment({ id: 'f2', comment: 'Words I want to keep', creator: mine, sync_state: 'failed', sync_message: entryMessages.locked, created_at: '2026-03-06T10:00:00.000Z' })],
    });
    const { user } = renderApp(`/voice/comments/${ENTRY.id}`);
    const [failed] = await within(await screen.findByRole('region', { name: 'Comments' })).findAllByRole('article');
    await user.click(within(failed!).getByRole('button', { name: 'Discard this reply' }));
    const dialog = await screen.findByRole('dialog', { name: 'Discard this reply?' });
    expect((within(dialog).getByRole('textbox', { name: 'Your words' }) as HTMLTextAreaElement).value).toBe('Words I want to keep');
    await user.click(within(dialog).getByRole('button', { name: 'Copy my words' }));
    expect(await navigator.clipboard.readText()).toBe('Words I want to keep');
    await user.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(actions.discard).not.toHaveBeenCalled();

    await user.click(within(failed!).getByRole('button', { name: 'Discard this reply' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Discard' }));
    expect(actions.discard).toHaveBeenCalledWith('f2');
    expect(await screen.findByText('The reply was discarded')).toBeTruthy();
  });

  it('requires a comment or a reaction before anything is sent (SPEC §5)', async () => {
    const { user } = renderApp(`/voice/comments/${ENTRY.id}`);
    await user.click(within(await screen.findByRole('form', { name: 'Reply' })).getByRole('button', { name: 'Send reply' }));
    const box = within(replyForm()).getByLabelText('Your message');
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(box.getAttribute('aria-describedby')!)!.textContent).toBe(entryMessages.commentRequired);
    expect(actions.postVoice).not.toHaveBeenCalled();
    // The focus goes to the text box, so its error (its description) is read out as it lands there.
    await waitUntil(() => expect(document.activeElement).toBe(box));
  });

  it('shows the action’s field errors beside the fields and keeps the text', async () => {
    actions.postVoice.mockResolvedValue({ ok: false, message: entryMessages.reactionRequired, errors: { reaction: [entryMessages.reactionRequired] } });
    const { user } = renderApp(`/voice/comments/${ENTRY.id}`);
    const box = within(await screen.findByRole('form', { name: 'Reply' })).getByLabelText('Your message') as HTMLTextAreaElement;
    await user.type(box, 'Please fix it soon');
    await user.click(within(replyForm()).getByRole('button', { name: 'Send reply' }));
    const group = await within(replyForm()).findByRole('radiogroup', { name: 'How do you feel?' });
    expect(document.getElementById(group.getAttribute('aria-describedby')!)!.textContent).toBe(entryMessages.reactionRequired);
    expect(box.value).toBe('Please fix it soon');
    // The focus goes to the field with the error: the reaction group's tab stop.
    await waitUntil(() => expect(document.activeElement).toBe(within(group).getByRole('radio', { name: 'No reaction' })));
  });

  it('says "Failed to post reply." when refused without a message, and keeps what was typed', async () => {
    actions.postVoice.mockResolvedValue({ ok: false, message: '', errors: {} });
    const { user } = renderApp(`/voice/comments/${ENTRY.id}`);
    const box = within(await screen.findByRole('form', { name: 'Reply' })).getByLabelText('Your message') as HTMLTextAreaElement;
    await user.type(box, 'Important words');
    await user.click(within(replyForm()).getByRole('button', { name: 'Send reply' }));
    expect(await screen.findByText('Failed to post reply.')).toBeTruthy();
    expect(box.value).toBe('Important words');
  });

  it('sends a reply with its reaction, thanks the young person and clears the form', async () => {
    const { user } = renderApp(`/voice/comments/${ENTRY.id}`);
    const form = await screen.findByRole('form', { name: 'Reply' });
    await user.type(within(form).getByLabelText('Your message'), 'Thank you');
    await user.click(within(form).getByRole('radio', { name: 'Happy' }));
    await user.click(within(form).getByRole('button', { name: 'Send reply' }));
    expect(actions.postVoice).toHaveBeenCalledWith(ENTRY.id, { comment: 'Thank you', reaction: '😊', files: [] });
    expect(await screen.findByText('Your reply has been sent.')).toBeTruthy();
    expect((within(form).getByLabelText('Your message') as HTMLTextAreaElement).value).toBe('');
  });

  it('tells the young person a reply written offline will be sent later', async () => {
    actions.postVoice.mockResolvedValue({ ...accepted, queuedOffline: true });
    const { user } = renderApp(`/voice/comments/${ENTRY.id}`);
    const form = await screen.findByRole('form', { name: 'Reply' });
    await user.type(within(form).getByLabelText('Your message'), 'On the trip');
    await user.click(within(form).getByRole('button', { name: 'Send reply' }));
    expect(await screen.findByText('You are offline, we will retry posting your reply when back online.')).toBeTruthy();
  });

  it('a closed conversation: the comments stay, a short note replaces the reply form and the edit controls', async () => {
    const mine = { id: ME, first_name: 'Samuel', last_name: 'Jones', has_photo: false };
    fakeReplica.set({
      voiceEntries: [voiceEntry({ locked_at: '2026-03-05T10:00:00.000000Z' })],
      comments: [
        comment({ id: 'c1', comment: 'We have fixed the lock.', created_at: '2026-03-02T10:00:00.000Z' }),
        comment({ id: 'c2', comment: 'Thank you!', creator: mine, created_at: '2026-03-03T10:00:00.000Z' }),
        comment({ id: 'c3', comment: 'One more thing', creator: mine, sync_state: 'failed', sync_message: entryMessages.locked, created_at: '2026-03-06T10:00:00.000Z' }),
      ],
    });
    renderApp(`/voice/comments/${ENTRY.id}`);
    const items = within(await screen.findByRole('region', { name: 'Comments' })).getAllByRole('article');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('We have fixed the lock.'),
      expect.stringContaining('Thank you!'),
      expect.stringContaining('One more thing'),
    ]);
    expect(screen.queryByRole('form', { name: 'Reply' })).toBeNull();
    expect(within(screen.getByRole('region', { name: 'Reply' })).getByRole('note').textContent).toBe(entryMessages.locked);
    expect(within(items[1]!).queryByRole('button', { name: /Edit/ })).toBeNull();
    // A reply the server refused because the conversation closed: its words and the reason stay, nothing to retry.
    expect(within(items[2]!).getByRole('alert').textContent).toBe(entryMessages.locked);
    expect(within(items[2]!).queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(within(items[2]!).queryByRole('button', { name: /Edit/ })).toBeNull();
  });

  it('a lock that arrives while a reply is being written: the note shows, the form and its words stay', async () => {
    const { user } = renderApp(`/voice/comments/${ENTRY.id}`);
    const box = within(await screen.findByRole('form', { name: 'Reply' })).getByLabelText('Your message') as HTMLTextAreaElement;
    await user.type(box, 'Half a thought');
    act(() => fakeReplica.set({ voiceEntries: [voiceEntry({ locked_at: '2026-03-05T10:00:00.000000Z' })] }));
    expect(within(screen.getByRole('region', { name: 'Reply' })).getByRole('note').textContent).toBe(entryMessages.locked);
    expect((within(replyForm()).getByLabelText('Your message') as HTMLTextAreaElement).value).toBe('Half a thought');
  });

  it('shows the journal thread, and the missing-data message when the entry is not on the device', async () => {
    const entry = journalEntry();
    fakeReplica.set({ journalEntries: [entry], comments: [comment({ entry_id: entry.id, entry_type: 'journal', comment: 'Lovely!' })] });
    const { user, router } = renderApp(`/entries/comments/${entry.id}`);
    expect(await screen.findByText('Had a good day at school.')).toBeTruthy();
    expect(screen.getByText('Lovely!')).toBeTruthy();
    await user.type(within(replyForm()).getByLabelText('Your message'), 'Thanks');
    await user.click(within(replyForm()).getByRole('button', { name: 'Send reply' }));
    expect(actions.postJournal).toHaveBeenCalledWith(entry.id, { comment: 'Thanks', reaction: null, files: [] });
    expect(actions.postVoice).not.toHaveBeenCalled();

    await act(() => router.navigate('/entries/comments/not-here'));
    expect(await screen.findByText(messages.voiceMissingData)).toBeTruthy();
  });
});

describe('the focus after actions in the thread (WCAG 2.4.3)', () => {
  const mine = { id: ME, first_name: 'Samuel', last_name: 'Jones', has_photo: false };
  const refused = () => fakeReplica.set({ comments: [comment({ id: 'f1', comment: 'Did not go', creator: mine, sync_state: 'failed', sync_message: null })] });
  const heldOpen = () => {
    let answer: (value: unknown) => void = () => undefined;
    return { promise: new Promise((resolve) => (answer = resolve)), answer: (value: unknown) => answer(value) };
  };

  it('Send reply keeps the focus while it sends (aria-disabled, not disabled; a second press sends nothing)', async () => {
    const held = heldOpen();
    actions.postVoice.mockImplementationOnce(() => held.promise);
    const { user } = renderApp(`/voice/comments/${ENTRY.id}`);
    const form = await screen.findByRole('form', { name: 'Reply' });
    await user.type(within(form).getByLabelText('Your message'), 'Thank you');
    const send = within(form).getByRole('button', { name: 'Send reply' }) as HTMLButtonElement;
    await user.click(send);
    await waitUntil(() => expect(send.getAttribute('aria-disabled')).toBe('true'));
    expect(send.disabled).toBe(false);
    expect(document.activeElement).toBe(send);
    await user.click(send);
    expect(actions.postVoice).toHaveBeenCalledTimes(1);
    await act(async () => held.answer(accepted));
    expect(await screen.findByText('Your reply has been sent.')).toBeTruthy();
    expect(send.getAttribute('aria-disabled')).toBeNull();
    expect(document.activeElement).toBe(send);
  });

  it('Try again keeps the focus while it works, then the reply has it; refused, it says why', async () => {
    refused();
    const held = heldOpen();
    actions.updateVoice.mockImplementationOnce(() => held.promise);
    const { user } = renderApp(`/voice/comments/${ENTRY.id}`);
    const [item] = await within(await screen.findByRole('region', { name: 'Comments' })).findAllByRole('article');
    const again = within(item!).getByRole('button', { name: 'Try again' }) as HTMLButtonElement;
    await user.click(again);
    await waitUntil(() => expect(again.getAttribute('aria-disabled')).toBe('true'));
    expect(again.disabled).toBe(false);
    expect(document.activeElement).toBe(again);
    await user.click(again);
    expect(actions.updateVoice).toHaveBeenCalledTimes(1);
    // Sent again, it is waiting: its failed actions go, the reply itself has the focus.
    await act(async () => held.answer(accepted));
    await waitUntil(() => expect(document.activeElement).toBe(item));

    actions.updateVoice.mockResolvedValueOnce({ ok: false, message: entryMessages.locked, errors: {} });
    await user.click(again);
    expect(await screen.findByText(entryMessages.locked)).toBeTruthy();
    expect(document.activeElement).toBe(again);
  });

  it('Keep it: back on Discard; Discard: on "Comments"; a failed discard: back on Discard (the dialog gone first)', async () => {
    emulateModalDialogs();
    refused();
    const { user } = renderApp(`/voice/comments/${ENTRY.id}`);
    const [item] = await within(await screen.findByRole('region', { name: 'Comments' })).findAllByRole('article');
    const discard = within(item!).getByRole('button', { name: 'Discard this reply' });

    await user.click(discard);
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Keep it' }));
    await waitUntil(() => expect(document.activeElement).toBe(discard));
    expect(screen.queryByRole('dialog')).toBeNull();
    // Escape (the dialog's cancel) is Keep it.
    await user.click(discard);
    fireEvent(await screen.findByRole('dialog'), new Event('cancel', { cancelable: true }));
    await waitUntil(() => expect(document.activeElement).toBe(discard));
    expect(screen.queryByRole('dialog')).toBeNull();

    // Discarding: both buttons of the dialog keep the focus while it works (aria-disabled, not disabled).
    const held = heldOpen();
    actions.discard.mockImplementationOnce(() => held.promise);
    await user.click(discard);
    const dialog = await screen.findByRole('dialog');
    const confirm = within(dialog).getByRole('button', { name: 'Discard' }) as HTMLButtonElement;
    await user.click(confirm);
    await waitUntil(() => expect(confirm.getAttribute('aria-disabled')).toBe('true'));
    const keep = within(dialog).getByRole('button', { name: 'Keep it' }) as HTMLButtonElement;
    expect([confirm.disabled, keep.disabled, keep.getAttribute('aria-disabled')]).toEqual([false, false, 'true']);
    expect(document.activeElement).toBe(confirm);
    await user.click(keep);
    await user.click(confirm);
    fireEvent(dialog, new Event('cancel', { cancelable: true }));
    expect(screen.getByRole('dialog')).toBe(dialog);
    expect(actions.discard).toHaveBeenCalledTimes(1);
    await act(async () => held.answer({ ok: false, message: entryMessages.replyFailed }));
    await waitUntil(() => expect(document.activeElement).toBe(discard));

    await user.click(discard);
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Discard' }));
    expect(await screen.findByText('The reply was discarded')).toBeTruthy();
    await waitUntil(() => expect(document.activeElement).toBe(screen.getByRole('heading', { level: 2, name: 'Comments' })));
  });

  it('an edit closed: Cancel goes back to Edit, Save to the reply', async () => {
    fakeReplica.set({ comments: [comment({ id: 'c2', comment: 'Thank you', creator: mine })] });
    const { user } = renderApp(`/voice/comments/${ENTRY.id}`);
    const [item] = await within(await screen.findByRole('region', { name: 'Comments' })).findAllByRole('article');
    await user.click(within(item!).getByRole('button', { name: 'Edit your reply' }));
    await user.click(within(within(item!).getByRole('form', { name: 'Edit your reply' })).getByRole('button', { name: 'Cancel' }));
    await waitUntil(() => expect(document.activeElement).toBe(within(item!).getByRole('button', { name: 'Edit your reply' })));

    await user.click(within(item!).getByRole('button', { name: 'Edit your reply' }));
    await user.click(within(within(item!).getByRole('form', { name: 'Edit your reply' })).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Your reply has been updated.')).toBeTruthy();
    await waitUntil(() => expect(document.activeElement).toBe(item));
  });
});
