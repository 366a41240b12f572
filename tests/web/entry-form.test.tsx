import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { createMemoryRouter, Link } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '@/app/app-providers';
import { EntryForm, type EntryFormProps } from '@/entries/components/entry-form';
import { entryMessages } from '@/contract/entries';
import type { EntryDraft, WriteResult } from '@/entries/data/types';
import { waitUntil } from '../support/wait';

const ALI = { id: 'a1111111-1111-4111-8111-111111111111', first_name: 'Ali', last_name: 'Hassan', job_title: 'Key worker' };
const BEA = { id: 'b2222222-2222-4222-8222-222222222222', first_name: 'Bea', last_name: 'Okoro', job_title: null };
const EMOJIS = [
  { id: 'e1', emoji: '😀', name: 'Happy' },
  { id: 'e2', emoji: '😢', name: 'Sad' },
  { id: 'e3', emoji: '😡', name: 'Angry' },
];
const CATEGORIES = [
  { id: 'c1', name: 'Raise a concern', description: 'Tell staff about something that worries you.' },
  { id: 'c2', name: 'Share good news', description: null },
];

const ok = (queuedOffline = false): WriteResult => ({ ok: true, id: 'new-entry', queuedOffline });

function renderForm(overrides: Partial<EntryFormProps> = {}) {
  const onSubmit = vi.fn<(draft: EntryDraft) => Promise<WriteResult>>(async () => ok());
  const onSaved = vi.fn();
  const props: EntryFormProps = { kind: 'journal', staff: [ALI, BEA], emojis: EMOJIS, submitLabel: 'Save entry', onSubmit, onSaved, ...overrides };
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: (
          <>
            <Link to="/away">Somewhere else</Link>
            <EntryForm {...props} />
          </>
        ),
      },
      { path: '/away', element: <p>Somewhere else page</p> },
    ],
    { initialEntries: ['/'] },
  );
  const user = userEvent.setup();
  render(<AppProviders router={router} />);
  return { user, router, onSubmit: props.onSubmit as typeof onSubmit, onSaved: props.onSaved as typeof onSaved };
}

/**
 * The form as a screen renders it from the replica: with `before`, then `after` once the button
 * "Later copy arrives" is pressed (what the replica holds changed while the form was open).
 */
function renderWithLaterInitial(overrides: Pick<EntryFormProps, 'kind' | 'submitLabel' | 'categories'>, before: EntryFormProps['initial'], after: EntryFormProps['initial']) {
  const props: EntryFormProps = { staff: [ALI, BEA], emojis: EMOJIS, onSubmit: async () => ok(), onSaved: () => undefined, ...overrides };
  function Later() {
    const [initial, setInitial] = useState(before);
    return (
      <>
        <button type="button" onClick={() => setInitial(after)}>
          Later copy arrives
        </button>
        <EntryForm {...props} initial={initial} />
      </>
    );
  }
  const router = createMemoryRouter([{ path: '/', element: <Later /> }], { initialEntries: ['/'] });
  const user = userEvent.setup();
  render(<AppProviders router={router} />);
  return user;
}

const words = () => screen.getByRole('textbox', { name: 'What’s on your mind?' }) as HTMLTextAreaElement;
const summary = () => screen.getByText(/will see this entry\.$/).textContent;
const describedText = (element: HTMLElement) =>
  (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' | ');

beforeEach(() => {
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
  if (typeof globalThis.CSS?.escape !== 'function') {
    Object.assign((globalThis.CSS ??= {} as typeof CSS), { escape: (value: string) => value.replace(/([^\w-])/g, '\\$1') });
  }
});

describe('EntryForm: who can see it', () => {
  it('is private by default', () => {
    renderForm();
    expect(summary()).toBe('Only you will see this entry.');
    const sharing = screen.getByRole('group', { name: 'Who can see this?' });
    for (const box of within(sharing).getAllByRole('checkbox')) expect((box as HTMLInputElement).checked).toBe(false);
  });

  it('says in one plain sentence who will see the entry as choices change', async () => {
    const { user } = renderForm();
    await user.click(screen.getByRole('checkbox', { name: /Ali Hassan/ }));
    expect(summary()).toBe('You and Ali Hassan will see this entry.');
    await user.click(screen.getByRole('checkbox', { name: 'Home management' }));
    expect(summary()).toBe('You, Ali Hassan and home management will see this entry.');
    await user.click(screen.getByRole('checkbox', { name: /Bea Okoro/ }));
    expect(summary()).toBe('You, Ali Hassan, Bea Okoro and home management will see this entry.');
    await user.click(screen.getByRole('checkbox', { name: /Ali Hassan/ }));
    await user.click(screen.getByRole('checkbox', { name: /Bea Okoro/ }));
    expect(summary()).toBe('You and home management will see this entry.');
  });

  /** The form opened before the default audience arrived (Voice: the key worker, once the replica has them). */
  const renderWithLateDefault = () =>
    renderWithLaterInitial(
      { kind: 'voice', categories: CATEGORIES, submitLabel: 'Send' },
      { categoryId: 'c1', sharedWith: [], sharedWithManagement: true },
      { categoryId: 'c1', sharedWith: [ALI.id], sharedWithManagement: true },
    );

  it('takes a default audience that arrives after it opened', async () => {
    const user = renderWithLateDefault();
    expect(summary()).toBe('You and home management will see this entry.');
    await user.click(screen.getByRole('button', { name: 'Later copy arrives' }));
    expect(summary()).toBe('You, Ali Hassan and home management will see this entry.');
    expect((screen.getByRole('checkbox', { name: /Ali Hassan/ }) as HTMLInputElement).checked).toBe(true);
  });

  it('but never overrides what the person already chose', async () => {
    const user = renderWithLateDefault();
    await user.click(screen.getByRole('checkbox', { name: 'Home management' }));
    expect(summary()).toBe('Only you will see this entry.');
    await user.click(screen.getByRole('button', { name: 'Later copy arrives' }));
    expect(summary()).toBe('Only you will see this entry.');
    expect((screen.getByRole('checkbox', { name: /Ali Hassan/ }) as HTMLInputElement).checked).toBe(false);
  });
});

describe('EntryForm: saving', () => {
  it('passes the draft with the words, reaction, date, sharing and files to onSubmit, then onSaved', async () => {
    const { user, onSubmit, onSaved } = renderForm();
    await user.type(words(), 'Scored a goal today');
    expect(screen.getByText('19 of 5,000')).toBeTruthy();
    await user.click(screen.getByRole('radio', { name: 'Sad' }));
    await user.keyboard('{ArrowLeft}'); // arrows move the choice: Sad → Happy
    expect(screen.getByRole('radio', { name: 'Happy' }).getAttribute('aria-checked')).toBe('true');
    await user.click(screen.getByRole('checkbox', { name: /Ali Hassan/ }));
    const photo = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'goal.png', { type: 'image/png' });
    await user.upload(screen.getByLabelText('Add photo or file'), photo);
    expect(screen.getByText('1 of 5')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save entry' }));

    expect(onSubmit).toHaveBeenCalledTimes(1);
    const draft = onSubmit.mock.calls[0]![0];
    expect(draft).toMatchObject({
      description: 'Scored a goal today',
      reaction: '😀',
      sharedWith: [ALI.id],
      sharedWithManagement: false,
      files: [photo],
    });
    expect(draft.entryDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(draft.entryTime).toMatch(/^\d{2}:\d{2}$/);
    expect(draft.canvas).toBeUndefined();
    expect(onSaved).toHaveBeenCalledWith({ id: 'new-entry', queuedOffline: false });
  });

  it('shows each refusal beside its field, the message as a toast, and keeps what was typed', async () => {
    const { user, onSubmit, onSaved } = renderForm();
    onSubmit.mockResolvedValueOnce({
      ok: false,
      message: entryMessages.postFailed,
      errors: {
        description: [entryMessages.descriptionTooLong],
        entry_date: [entryMessages.dateInFuture],
        'files.0': [entryMessages.fileTypeNotAllowed],
        shared_with: ['Choose people from your home'],
        reaction: ['Reaction is not known'],
      },
    });
    await user.type(words(), 'Something I do not want to lose');
    await user.click(screen.getByRole('button', { name: 'Save entry' }));

    expect(await screen.findByText(entryMessages.postFailed)).toBeTruthy(); // the toast
    expect(words().value).toBe('Something I do not want to lose');
    expect(words().getAttribute('aria-invalid')).toBe('true');
    expect(describedText(words())).toContain(entryMessages.descriptionTooLong);
    expect(document.activeElement).toBe(words()); // the first problem has the focus
    expect(describedText(screen.getByLabelText('Date'))).toContain(entryMessages.dateInFuture);
    expect(describedText(screen.getByLabelText('Add photo or file'))).toContain(entryMessages.fileTypeNotAllowed);
    expect(describedText(screen.getByRole('group', { name: 'Who can see this?' }))).toContain('Choose people from your home');
    expect(describedText(screen.getByRole('radiogroup', { name: 'How are you feeling?' }))).toContain('Reaction is not known');
    expect(onSaved).not.toHaveBeenCalled();

    // Fixing it and saving again works with the same words.
    await user.click(screen.getByRole('button', { name: 'Save entry' }));
    expect(onSubmit).toHaveBeenCalledTimes(2);
    expect(onSubmit.mock.calls[1]![0].description).toBe('Something I do not want to lose');
    expect(onSaved).toHaveBeenCalledTimes(1);
  });

  it('an inappropriate drawing: the message beside the drawing', async () => {
    const { user, onSubmit } = renderForm();
    onSubmit.mockResolvedValueOnce({ ok: false, message: entryMessages.imageInappropriate, errors: { canvas: [entryMessages.imageInappropriate] } });
    await user.type(words(), 'My picture');
    await user.click(screen.getByRole('button', { name: 'Save entry' }));
    expect(await screen.findAllByText(entryMessages.imageInappropriate)).toHaveLength(2); // the toast and the field
    expect(describedText(screen.getByRole('button', { name: 'Add a drawing' }))).toContain(entryMessages.imageInappropriate);
  });

  it('tells the person it will be sent later when saved offline', async () => {
    const { user, onSubmit } = renderForm();
    onSubmit.mockResolvedValueOnce(ok(true));
    await user.type(words(), 'On the coach');
    await user.click(screen.getByRole('button', { name: 'Save entry' }));
    expect(await screen.findByText(entryMessages.offlineRetry)).toBeTruthy();
  });

  it('voice: asks for a category, with its error beside the choices', async () => {
    const { user, onSubmit } = renderForm({ kind: 'voice', categories: CATEGORIES, submitLabel: 'Send' });
    expect(screen.queryByLabelText('Date')).toBeNull();
    onSubmit.mockResolvedValueOnce({ ok: false, message: entryMessages.categoryRequired, errors: { category_id: [entryMessages.categoryRequired] } });
    await user.type(screen.getByRole('textbox', { name: 'What would you like to say?' }), 'The lock is broken');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    const group = screen.getByRole('group', { name: 'What is this about?' });
    await waitUntil(() => expect(describedText(group)).toContain(entryMessages.categoryRequired));
    await user.click(screen.getByRole('radio', { name: /Raise a concern/ }));
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSubmit.mock.calls[1]![0]).toMatchObject({ categoryId: 'c1', description: 'The lock is broken' });
  });
});

describe('EntryForm: never losing words', () => {
  /** An edit screen whose stored words change after it opened (a pull, or the edit before it settling). */
  const renderWithStoredWords = () =>
    renderWithLaterInitial({ kind: 'journal', submitLabel: 'Save changes' }, { description: 'words as first read' }, { description: 'words as stored now' });

  it('an edit nobody typed in yet takes stored words that changed after it opened', async () => {
    const user = renderWithStoredWords();
    expect(words().value).toBe('words as first read');
    await user.click(screen.getByRole('button', { name: 'Later copy arrives' }));
    expect(words().value).toBe('words as stored now');
  });

  it('but words the person typed are never replaced', async () => {
    const user = renderWithStoredWords();
    await user.type(words(), ', and mine');
    await user.click(screen.getByRole('button', { name: 'Later copy arrives' }));
    expect(words().value).toBe('words as first read, and mine');
  });

  it('asks before leaving with unsaved words, and staying keeps them', async () => {
    const { user, router } = renderForm();
    await user.type(words(), 'Half a thought');
    await user.click(screen.getByRole('link', { name: 'Somewhere else' }));
    const check = await screen.findByRole('alertdialog', { name: 'Leave without saving?' });
    await user.click(within(check).getByRole('button', { name: 'Stay and keep writing' }));
    expect(router.state.location.pathname).toBe('/');
    expect(words().value).toBe('Half a thought');

    await user.click(screen.getByRole('link', { name: 'Somewhere else' }));
    await user.click(await screen.findByRole('button', { name: 'Leave without saving' }));
    expect(await screen.findByText('Somewhere else page')).toBeTruthy();
  });

  it('leaves without asking when nothing was typed, and after a save', async () => {
    const { user, router } = renderForm();
    await user.type(words(), 'Saved words');
    await user.click(screen.getByRole('button', { name: 'Save entry' }));
    await act(() => router.navigate('/away'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(router.state.location.pathname).toBe('/away');
  });
});
