/**
 * What a young person is writing survives a reload, a session that expires and the sign-out
 * warning (src/data/hooks/use-kept-draft.ts in the entry and reply forms), and so do the files they
 * attached (src/entries/components/use-kept-files.ts). The drafts and their files live in maps here
 * (./support/fake-drafts.ts, ./support/fake-draft-files.ts); their encrypted store has its own
 * tests (tests/data/drafts.test.ts).
 */
import { act, fireEvent, screen, within } from '@testing-library/react';
import { entryLimits } from '@/contract/entries';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { KEPT_DRAFT_NOTE } from '@/components/kept-draft-note';
import { draftHasContent, flushDrafts } from '@/data/drafts';
import { clearSession, setAccount } from '@/data/session-store';
import { commentEditDraftKey, newJournalDraftKey, newVoiceDraftKey, replyDraftKey } from '@/entries/data/draft-keys';
import { waitUntil } from '../support/wait';
import { makeAccount } from './support/account';
import { CATEGORY, categories, comment, emojis, ME, STAFF, voiceEntry } from './support/entry-fixtures';
import { fakeDrafts } from './support/fake-drafts';
import { fakeDraftFiles } from './support/fake-draft-files';
import { fakeFetch } from './support/fake-fetch';
import { fakeReplica } from './support/fake-replica';
import { renderApp } from './support/render-app';

vi.mock('@/data/hooks/use-draft', async () => (await import('./support/fake-draft-files')).withDraftFiles((await import('./support/fake-drafts')).draftHooks));
vi.mock('@/data/drafts', async (importOriginal) => ({ ...(await importOriginal<Record<string, unknown>>()), ...(await import('./support/fake-draft-files')).draftFileFns }));
vi.mock('@/entries/hooks/use-entries', async () => (await import('./support/fake-replica')).entryHooks);
vi.mock('@/entries/hooks/use-comments', async () => ({ useComments: (await import('./support/fake-replica')).entryHooks.useComments }));
vi.mock('@/data/hooks/use-associated-users', () => ({ useAssociatedUsers: () => ({ data: [STAFF], loading: false }) }));
vi.mock('@/data/hooks/use-resident-details', () => ({ useResidentDetails: () => ({ data: { key_worker: STAFF }, loading: false }) }));
vi.mock('@/entries/hooks/use-entry-file', () => ({ useEntryFile: () => null }));
vi.mock('@/data/hooks/use-user-photo', () => ({ useUserPhoto: () => null }));
// The sign-out warning's count: the outbox is empty here, so what it counts is the drafts (stored first).
vi.mock('@/data/unsent-on-device', () => ({
  countUnsentOnDevice: async () => {
    const { flushDrafts: flush, draftHasContent: holds } = await import('@/data/drafts');
    const { fakeDrafts: kept } = await import('./support/fake-drafts');
    await flush();
    const drafts = [...kept.map.values()].filter((entry) => holds(entry.value)).length;
    return { pending: 0, held: 0, failed: 0, notQueued: 0, drafts };
  },
}));
const actions = vi.hoisted(() => ({ saveJournal: vi.fn(), saveVoice: vi.fn(), postVoice: vi.fn(), updateVoice: vi.fn() }));
vi.mock('@/features/journal/actions/save-journal-entry', () => ({ saveJournalEntry: actions.saveJournal }));
vi.mock('@/features/voice/actions/save-voice-entry', () => ({ saveVoiceEntry: actions.saveVoice }));
vi.mock('@/features/voice/actions/post-voice-comment', () => ({ postVoiceComment: actions.postVoice }));
vi.mock('@/features/voice/actions/update-voice-comment', () => ({ updateVoiceComment: actions.updateVoice }));

const WORDS = 'Today was hard and I want to write it down';
const ENTRY = voiceEntry();

beforeEach(() => {
  if (typeof globalThis.CSS?.escape !== 'function') {
    Object.assign((globalThis.CSS ??= {} as typeof CSS), { escape: (value: string) => value.replace(/([^\w-])/g, '\\$1') });
  }
  fakeDrafts.reset();
  fakeDraftFiles.reset();
  for (const action of Object.values(actions)) action.mockReset().mockResolvedValue({ ok: true, id: 'e0000000-0000-4000-8000-000000000099', queuedOffline: false });
  fakeReplica.reset();
  fakeReplica.set({ voiceEntries: [ENTRY], categories: categories(), emojis: emojis(), comments: [] });
  fakeFetch();
  setAccount(makeAccount());
});

/** A blob's text (jsdom's Blob has no text()). */
const textOf = (blob: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
const kept = (key: string) => fakeDrafts.get(key) as { description?: string; comment?: string; reaction?: string | null } | null;
const journalBox = () => screen.findByLabelText('What’s on your mind?') as Promise<HTMLTextAreaElement>;

describe('the journal: what is being written is kept on the device', () => {
  it('comes back after a reload, with a note saying so; saving the entry forgets it', async () => {
    const first = renderApp('/journal');
    await first.user.type(await journalBox(), WORDS);
    await waitUntil(() => kept(newJournalDraftKey)?.description === WORDS);
    first.unmount();

    const again = renderApp('/journal');
    expect(await screen.findByText(KEPT_DRAFT_NOTE)).toBeTruthy();
    expect((await journalBox()).value).toBe(WORDS);
    await again.user.click(screen.getByRole('button', { name: 'Save entry' }));
    await waitUntil(() => actions.saveJournal.mock.calls.length === 1 && fakeDrafts.get(newJournalDraftKey) === null);
    expect(actions.saveJournal.mock.calls[0]![0]).toMatchObject({ description: WORDS });
  });

  it('the last words typed are kept when the form closes before the pause ends', async () => {
    const view = renderApp('/journal');
    await view.user.type(await journalBox(), WORDS);
    view.unmount();
    expect(kept(newJournalDraftKey)?.description).toBe(WORDS);
  });

  it('a form emptied again keeps nothing, and nothing is said about a draft', async () => {
    const view = renderApp('/journal');
    const box = await journalBox();
    await view.user.type(box, WORDS);
    await waitUntil(() => kept(newJournalDraftKey)?.description === WORDS);
    await view.user.clear(box);
    await waitUntil(() => fakeDrafts.get(newJournalDraftKey) === null);
    view.unmount();
    renderApp('/journal');
    expect((await journalBox()).value).toBe('');
    expect(screen.queryByText(KEPT_DRAFT_NOTE)).toBeNull();
  });
});

describe('the journal: files attached', () => {
  const PHOTO = () => new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0]), 'the beach at sunset'], 'beach.jpg', { type: 'image/jpeg' });
  const attachments = () => within(screen.getByRole('group', { name: 'Photos and files' }));
  /** The new files the form lists, by name. */
  const listed = () => (attachments().queryAllByRole('listitem') ?? []).map((item) => item.querySelector('.file-attach__name')?.textContent);
  const keptFiles = () => ((kept(newJournalDraftKey) as { files?: { name: string }[] } | null)?.files ?? []).map((file) => file.name);
  /** The photo's bytes are stored and the stored draft names it: a reload now brings it back. */
  const photoKept = (names: string[]) =>
    waitUntil(() => {
      expect(keptFiles()).toEqual(names);
      expect(fakeDraftFiles.of(newJournalDraftKey)).toHaveLength(names.length);
    });

  it('a photo comes back after a reload with its name; saving the entry sends it and forgets its bytes', async () => {
    const first = renderApp('/journal');
    await first.user.upload(await screen.findByLabelText('Add photo or file'), PHOTO());
    await photoKept(['beach.jpg']);
    expect(await textOf(fakeDraftFiles.of(newJournalDraftKey)[0]!.bytes)).toContain('the beach at sunset');
    first.unmount();

    const again = renderApp('/journal');
    expect(await screen.findByText(KEPT_DRAFT_NOTE)).toBeTruthy();
    await waitUntil(() => expect(listed()).toEqual(['beach.jpg']));
    expect(attachments().getByRole('button', { name: 'Remove beach.jpg' })).toBeTruthy();
    expect(attachments().getByText('1 of 5')).toBeTruthy();
    await again.user.type(await journalBox(), WORDS);
    await again.user.click(screen.getByRole('button', { name: 'Save entry' }));
    await waitUntil(() => expect(actions.saveJournal).toHaveBeenCalledTimes(1));
    const sent = (actions.saveJournal.mock.calls[0]![0] as { files: File[] }).files;
    expect(sent.map((file) => [file.name, file.type])).toEqual([['beach.jpg', 'image/jpeg']]);
    expect(await textOf(sent[0]!)).toContain('the beach at sunset');
    await waitUntil(() => {
      expect(fakeDrafts.get(newJournalDraftKey)).toBeNull();
      expect(fakeDraftFiles.of(newJournalDraftKey)).toEqual([]);
    });
  });

  it('a photo still being kept when the entry is saved is not kept after all', async () => {
    let release = () => undefined as void;
    fakeDraftFiles.gate = new Promise<void>((resolve) => (release = resolve));
    const view = renderApp('/journal');
    await view.user.type(await journalBox(), WORDS);
    await view.user.upload(screen.getByLabelText('Add photo or file'), PHOTO());
    expect(attachments().getByRole('listitem').dataset.kept).toBe('keeping');
    await view.user.click(screen.getByRole('button', { name: 'Save entry' }));
    await waitUntil(() => expect(actions.saveJournal).toHaveBeenCalledTimes(1));
    expect((actions.saveJournal.mock.calls[0]![0] as { files: File[] }).files.map((file) => file.name)).toEqual(['beach.jpg']);
    await waitUntil(() => expect(fakeDrafts.get(newJournalDraftKey)).toBeNull());

    release();
    await waitUntil(() => expect(fakeDraftFiles.stored).toBe(1));
    view.unmount();
    await waitUntil(() => expect(fakeDraftFiles.of(newJournalDraftKey)).toEqual([]));
    expect(fakeDrafts.get(newJournalDraftKey)).toBeNull();
  });

  it('a file taken off the form is forgotten at once and does not come back', async () => {
    const first = renderApp('/journal');
    await first.user.upload(await screen.findByLabelText('Add photo or file'), [PHOTO(), new File(['%PDF-1.4 homework'], 'homework.pdf', { type: 'application/pdf' })]);
    await photoKept(['beach.jpg', 'homework.pdf']);
    await first.user.click(attachments().getByRole('button', { name: 'Remove beach.jpg' }));
    await photoKept(['homework.pdf']);
    first.unmount();

    renderApp('/journal');
    expect(await screen.findByText(KEPT_DRAFT_NOTE)).toBeTruthy();
    await waitUntil(() => expect(listed()).toEqual(['homework.pdf']));
    expect(attachments().getByText('1 of 5')).toBeTruthy();
  });

  it('leaving with everything kept does not ask; a file over what a draft keeps is not kept, the form says so and leaving asks', async () => {
    const first = renderApp('/journal');
    await first.user.type(await journalBox(), WORDS);
    await first.user.upload(await screen.findByLabelText('Add photo or file'), PHOTO());
    await photoKept(['beach.jpg']);
    await act(() => first.router.navigate('/voice'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(first.router.state.location.pathname).toBe('/voice');
    first.unmount();

    const again = renderApp('/journal');
    await waitUntil(() => expect(listed()).toEqual(['beach.jpg']));
    const big = new File([new Uint8Array(entryLimits.draftFilesMaxBytes)], 'scan.pdf', { type: 'application/pdf' });
    await again.user.upload(screen.getByLabelText('Add photo or file'), big);
    const note = await attachments().findByText('“scan.pdf” is too big to keep on this device. It stays attached while this page is open.');
    expect(note.closest('[role="status"]')).toBeTruthy();
    expect(attachments().getByRole('button', { name: 'Remove scan.pdf' }).getAttribute('aria-describedby')).toBe(note.id);
    expect(attachments().getByText('2 of 5')).toBeTruthy();
    expect(fakeDraftFiles.of(newJournalDraftKey)).toHaveLength(1);
    expect(keptFiles()).toEqual(['beach.jpg']);

    await act(() => again.router.navigate('/voice'));
    const check = await screen.findByRole('alertdialog', { name: 'Leave without saving?' });
    await again.user.click(within(check).getByRole('button', { name: 'Stay and keep writing' }));
    expect(again.router.state.location.pathname).toBe('/journal');
    again.unmount();

    renderApp('/journal');
    expect(await screen.findByText(KEPT_DRAFT_NOTE)).toBeTruthy();
    await waitUntil(() => expect(listed()).toEqual(['beach.jpg']));
  });
});

describe('the journal: a drawing being made', () => {
  const drawingMarks = () => Number((screen.getByRole('img', { name: 'Drawing' }) as HTMLCanvasElement).dataset.marks);

  it('comes back after a reload with its marks, the drawing open; the draft holds the marks alone', async () => {
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
    const first = renderApp('/journal');
    await first.user.click(await screen.findByRole('button', { name: 'Add a drawing' }));
    await first.user.click(screen.getByRole('radio', { name: 'Stamps' }));
    fireEvent.click(screen.getByRole('img', { name: 'Drawing' }), { clientX: 40, clientY: 30 });
    fireEvent.click(screen.getByRole('img', { name: 'Drawing' }), { clientX: 200, clientY: 100 });
    await waitUntil(() => (kept(newJournalDraftKey) as { drawing?: unknown[] } | null)?.drawing?.length === 2);
    expect(kept(newJournalDraftKey)?.description).toBe('');
    first.unmount();

    renderApp('/journal');
    expect(await screen.findByText(KEPT_DRAFT_NOTE)).toBeTruthy();
    await waitUntil(() => screen.queryByRole('img', { name: 'Drawing' }) !== null && drawingMarks() === 2);
    expect(screen.getByText('Your drawing has 2 marks.')).toBeTruthy();
  });
});

describe('voice: a session that expires while writing', () => {
  it('drops the form; after signing in again the category written in opens with the words', async () => {
    const { user, router } = renderApp('/voice');
    await user.click(await screen.findByRole('button', { name: /Raise a concern/ }));
    await user.type(screen.getByLabelText('What would you like to say?'), WORDS);
    await waitUntil(() => kept(newVoiceDraftKey(CATEGORY.concern))?.description === WORDS);

    act(() => clearSession());
    await waitUntil(() => screen.queryByLabelText('What would you like to say?') === null);
    await act(async () => {
      setAccount(makeAccount());
      await router.navigate('/voice');
    });
    expect(await screen.findByText(KEPT_DRAFT_NOTE)).toBeTruthy();
    expect((screen.getByLabelText('What would you like to say?') as HTMLTextAreaElement).value).toBe(WORDS);
    expect(screen.getByRole('heading', { level: 2, name: 'Raise a concern' })).toBeTruthy();
  });
});

describe('a reply in a conversation', () => {
  const replyBox = async () => within(await screen.findByRole('form', { name: 'Reply' })).getByLabelText('Your message') as HTMLTextAreaElement;

  it('comes back after a reload; a sent reply forgets it and leaves the form empty', async () => {
    const first = renderApp(`/voice/comments/${ENTRY.id}`);
    await first.user.type(await replyBox(), WORDS);
    await waitUntil(() => kept(replyDraftKey('voice', ENTRY.id))?.comment === WORDS);
    first.unmount();

    const again = renderApp(`/voice/comments/${ENTRY.id}`);
    expect(await screen.findByText(KEPT_DRAFT_NOTE)).toBeTruthy();
    expect((await replyBox()).value).toBe(WORDS);
    await again.user.click(screen.getByRole('button', { name: 'Send reply' }));
    await waitUntil(async () => actions.postVoice.mock.calls.length === 1 && (await replyBox()).value === '');
    await waitUntil(() => fakeDrafts.get(replyDraftKey('voice', ENTRY.id)) === null);
    expect(screen.queryByText(KEPT_DRAFT_NOTE)).toBeNull();
  });
});

describe('a reply with a photo', () => {
  it('the photo comes back after a reload; sending the reply forgets it', async () => {
    const key = replyDraftKey('voice', ENTRY.id);
    const reply = async () => within(await screen.findByRole('form', { name: 'Reply' }));
    const first = renderApp(`/voice/comments/${ENTRY.id}`);
    await first.user.upload((await reply()).getByLabelText('Add photo or file'), new File(['photo bytes'], 'me.png', { type: 'image/png' }));
    await waitUntil(() => {
      expect((fakeDrafts.get(key) as { files?: { name: string }[] } | null)?.files?.map((file) => file.name)).toEqual(['me.png']);
      expect(fakeDraftFiles.of(key)).toHaveLength(1);
    });
    first.unmount();

    const again = renderApp(`/voice/comments/${ENTRY.id}`);
    expect(await (await reply()).findByRole('button', { name: 'Remove me.png' })).toBeTruthy();
    expect((await reply()).getByText(KEPT_DRAFT_NOTE)).toBeTruthy();
    await again.user.type((await reply()).getByLabelText('Your message'), WORDS);
    await again.user.click((await reply()).getByRole('button', { name: 'Send reply' }));
    await waitUntil(() => expect(actions.postVoice).toHaveBeenCalledTimes(1));
    expect((actions.postVoice.mock.calls[0]![1] as { files: File[] }).files.map((file) => file.name)).toEqual(['me.png']);
    await waitUntil(() => {
      expect(fakeDrafts.get(key)).toBeNull();
      expect(fakeDraftFiles.of(key)).toEqual([]);
    });
    await waitUntil(async () => expect((await reply()).queryByRole('button', { name: 'Remove me.png' })).toBeNull());
  });
});

describe('an edit of one of my replies', () => {
  const MINE = comment({ id: 'c0000000-0000-4000-8000-000000000002', comment: 'What I said first', creator: { id: ME, first_name: 'Samuel', last_name: 'Jones', has_photo: false } });
  const myReply = async () => (await within(await screen.findByRole('region', { name: 'Comments' })).findAllByRole('article')).at(-1)!;

  it('opens again by itself after a reload, with the words and a note saying they were kept; saving forgets them', async () => {
    fakeReplica.set({ comments: [comment(), MINE] });
    actions.updateVoice.mockResolvedValue({ ok: true, id: MINE.id, queuedOffline: false });
    const first = renderApp(`/voice/comments/${ENTRY.id}`);
    await first.user.click(within(await myReply()).getByRole('button', { name: 'Edit your reply' }));
    const box = within(await myReply()).getByLabelText('Your message') as HTMLTextAreaElement;
    await first.user.clear(box);
    await first.user.type(box, WORDS);
    await waitUntil(() => kept(commentEditDraftKey(MINE.id))?.comment === WORDS);
    first.unmount();

    const again = renderApp(`/voice/comments/${ENTRY.id}`);
    const edit = await within(await myReply()).findByRole('form', { name: 'Edit your reply' });
    expect((within(edit).getByLabelText('Your message') as HTMLTextAreaElement).value).toBe(WORDS);
    expect(within(edit).getByText(KEPT_DRAFT_NOTE)).toBeTruthy();
    // The staff member's comment, with no draft of mine, stays as it was.
    expect(screen.getAllByRole('form', { name: 'Edit your reply' })).toHaveLength(1);
    await again.user.click(within(edit).getByRole('button', { name: 'Save' }));
    await waitUntil(() => actions.updateVoice.mock.calls.length === 1 && fakeDrafts.get(commentEditDraftKey(MINE.id)) === null);
    expect(actions.updateVoice.mock.calls[0]).toEqual([MINE.id, { comment: WORDS, reaction: null, files: [] }]);
    await waitUntil(() => screen.queryByRole('form', { name: 'Edit your reply' }) === null);
  });

  it('Cancel closes it and the words stay for Edit; with nothing kept, the reply stays as it is', async () => {
    fakeReplica.set({ comments: [MINE] });
    fakeDrafts.set(commentEditDraftKey(MINE.id), { comment: WORDS, reaction: null });
    const first = renderApp(`/voice/comments/${ENTRY.id}`);
    const edit = await within(await myReply()).findByRole('form', { name: 'Edit your reply' });
    await first.user.click(within(edit).getByRole('button', { name: 'Cancel' }));
    expect(within(await myReply()).queryByRole('form')).toBeNull();
    expect(within(await myReply()).getByText('What I said first')).toBeTruthy();
    await first.user.click(within(await myReply()).getByRole('button', { name: 'Edit your reply' }));
    expect((within(await myReply()).getByLabelText('Your message') as HTMLTextAreaElement).value).toBe(WORDS);
    first.unmount();

    fakeDrafts.reset();
    renderApp(`/voice/comments/${ENTRY.id}`);
    expect(within(await myReply()).getByText('What I said first')).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Edit your reply' })).toBeNull();
  });
});

describe('signing out with words just typed', () => {
  it('warns first (the words are stored before counting), and Cancel goes back to them', async () => {
    const { user } = renderApp('/journal');
    await user.type(await journalBox(), WORDS);
    await user.click(screen.getAllByRole('button', { name: 'Logout' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'You have 1 thing that has not been sent yet' });
    expect(within(dialog).getByText(/^You started writing and did not send\./)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect((await journalBox()).value).toBe(WORDS);
    expect(draftHasContent(fakeDrafts.get(newJournalDraftKey))).toBe(true);
    await flushDrafts();
  });

  it('words typed while the replica was still opening are stored and counted too', async () => {
    fakeDrafts.opening = true;
    const { user } = renderApp('/journal');
    await user.type(await journalBox(), WORDS);
    await user.click(screen.getAllByRole('button', { name: 'Logout' })[0]!);
    expect(await screen.findByRole('dialog', { name: 'You have 1 thing that has not been sent yet' })).toBeTruthy();
    expect(kept(newJournalDraftKey)?.description).toBe(WORDS);
  });
});
