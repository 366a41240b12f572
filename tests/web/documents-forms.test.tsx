import { act, screen, within } from '@testing-library/react';
import axe from 'axe-core';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { EntryFile } from '@/contract/entries';
import type { Answers } from '@/contract/forms';
import type { DocumentFileView } from '@/data/documents/use-document-file';
import type { Live } from '@/data/hooks/use-live';
import type { DocumentWithState } from '@/data/replica/documents';
import type { DocumentDoc, DocumentStateDoc } from '@/data/replica/types';
import { setAccount } from '@/data/session-store';
import { waitUntil } from '../support/wait';
import { makeAccount } from './support/account';
import { duuid, formDoc, stateOf } from './support/document-fixtures';
import { fakeFetch } from './support/fake-fetch';
import { renderApp } from './support/render-app';

/** A form document on the device (the data layer, outbox included, has its own tests against the real server). */
const fake = vi.hoisted(() => ({
  items: [] as { doc: unknown; state: unknown }[],
  /** The screens re-render when `items` changes, as the replica's live queries make them. */
  listeners: new Set<() => void>(),
  draft: null as unknown,
  saved: [] as unknown[],
  stored: [] as { id: string; name: string }[],
  submit: vi.fn(async (_id: string, _answers: unknown, _files: unknown) => ({ ok: true, id: 'x', queuedOffline: false }) as unknown),
}));

vi.mock('@/features/documents/hooks/use-documents', async () => {
  const { useSyncExternalStore } = await import('react');
  const subscribe = (listener: () => void) => {
    fake.listeners.add(listener);
    return () => fake.listeners.delete(listener);
  };
  const useItems = () => useSyncExternalStore(subscribe, () => fake.items) as DocumentWithState[];
  return {
    useDocuments: (): Live<DocumentWithState[]> => ({ data: useItems(), loading: false }),
    useDocument: (id: string): Live<DocumentWithState | null> => ({ data: useItems().find((i) => i.doc.id === id) ?? null, loading: false }),
  };
});
vi.mock('@/data/hooks/use-draft', () => ({
  useDraft: () => ({
    value: fake.draft,
    loading: false,
    save: async (value: unknown) => {
      fake.saved.push(value);
      return true;
    },
    clear: async () => undefined,
  }),
}));
vi.mock('@/features/documents/actions/submit-form', () => ({ documentDraftKey: (id: string) => `document:${id}`, submitDocumentForm: fake.submit }));
vi.mock('@/features/documents/actions/form-files', () => ({
  storeFormFile: async (blob: Blob, name: string): Promise<EntryFile> => {
    const id = `00000000-0000-4000-8000-${String(800 + fake.stored.length).padStart(12, '0')}`;
    fake.stored.push({ id, name });
    return { id, name, mime: blob.type, size: blob.size };
  },
  readFormFile: async () => new Blob(['png'], { type: 'image/png' }),
}));
vi.mock('@/data/documents/use-document-file', () => ({
  useDocumentFile: (): DocumentFileView => ({ status: 'ready', url: 'blob:fake/answer', blob: null, source: 'kept' }),
}));
vi.mock('@/features/documents/actions/remember', () => ({ rememberOpened: async () => undefined, rememberPage: async () => undefined }));
vi.mock('@/features/documents/actions/keep-offline', () => ({ keepOffline: async () => true, freeAllDocuments: async () => true }));
vi.mock('@/data/hooks/use-form-names', () => ({ useFormNames: () => [{ id: duuid(710), name: 'Education' }] }));

async function axeViolations(container: HTMLElement) {
  // jsdom has no layout or computed colours, so contrast cannot be judged here; e2e checks it in Chromium.
  const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const FIELDS = [
  { id: 'about', kind: 'heading', label: 'About me', level: 'section' },
  { id: 'going_well', kind: 'large_text', label: 'What is going well?', required: true },
  { id: 'happy_here', kind: 'yes_no', label: 'Are you happy living here?', required: true },
  { id: 'talk_about', kind: 'multi_option', label: 'What would you like to talk about?', options: [{ value: 'school', label: 'School' }, { value: 'friends', label: 'Friends' }] },
  { id: 'objectives', kind: 'related_forms', label: 'Objectives to mention', related_form_ids: [duuid(710)] },
  { id: 'signature', kind: 'signature', label: 'Your signature', required: true },
];
const form = formDoc(30, 'My views', FIELDS, { category: 'My review' });

let online = true;
function show(state: DocumentStateDoc | null, doc: DocumentDoc = form) {
  fake.items = [{ doc, state }];
  fake.listeners.forEach((listener) => listener());
}

beforeEach(() => {
  online = true;
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
  fake.items = [];
  fake.draft = null;
  fake.saved = [];
  fake.stored = [];
  fake.submit.mockClear();
  fakeFetch();
  setAccount(makeAccount());
  // jsdom makes no object URLs: the previews of files added on the device need one.
  URL.createObjectURL = vi.fn(() => 'blob:fake/local');
  URL.revokeObjectURL = vi.fn();
});

describe('a form document', () => {
  it('is filled in with the keyboard alone (the signature typed), kept as a draft, and sent through the outbox action', async () => {
    show(null);
    const { user, container } = renderApp(`/documents/${form.id}`);
    const fill = await screen.findByRole('form', { name: 'My views' });
    expect(await axeViolations(container)).toEqual([]);

    const text = within(fill).getByRole('textbox', { name: /What is going well\?/ });
    text.focus();
    await user.keyboard('Football and art club');
    await user.tab();
    await user.keyboard(' '); // Yes (the first radio, focused by Tab)
    await user.tab();
    await user.keyboard(' '); // School
    within(fill).getByRole('button', { name: 'Type your name instead' }).focus();
    await user.keyboard('{Enter}');
    await user.keyboard('Jamie{Enter}');
    expect(await within(fill).findByRole('img', { name: 'Your signature' })).toBeTruthy();
    await waitUntil(() => expect(screen.getByText('Draft saved on this device.')).toBeTruthy());
    expect(fake.saved.at(-1)).toMatchObject({ answers: { going_well: 'Football and art club', happy_here: 'yes', talk_about: ['school'] } });

    within(fill).getByRole('button', { name: 'Send my answers' }).focus();
    await user.keyboard('{Enter}');
    await waitUntil(() => expect(fake.submit).toHaveBeenCalledTimes(1));
    const [id, answers, files] = fake.submit.mock.calls[0]! as [string, Answers, EntryFile[]];
    expect(id).toBe(form.id);
    expect(answers).toMatchObject({ going_well: 'Football and art club', happy_here: 'yes', talk_about: ['school'], signature: { file_id: fake.stored[0]!.id } });
    expect(files.map((f) => f.name)).toEqual(['signature.png']);
  });

  it('a refusal on the device shows the errors beside their questions; nothing is lost', async () => {
    show(null);
    fake.draft = { answers: { going_well: 'Kept', happy_here: 'no', signature: { file_id: duuid(801) } }, files: [{ id: duuid(801), name: 'signature.png', mime: 'image/png', size: 10 }] };
    fake.submit.mockResolvedValueOnce({ ok: false, message: 'Your answers could not be sent.', errors: { signature: ['A file you added is no longer on this device. Please add it again.'] } });
    const { user } = renderApp(`/documents/${form.id}`);
    expect(await screen.findByText('We kept what you started on this device.')).toBeTruthy();
    expect((screen.getByRole('textbox', { name: /What is going well\?/ }) as HTMLTextAreaElement).value).toBe('Kept');
    await user.click(screen.getByRole('button', { name: 'Send my answers' }));
    const signature = await screen.findByRole('group', { name: /Your signature/ });
    await waitUntil(() => expect(signature.textContent).toContain('A file you added is no longer on this device. Please add it again.'));
  });

  it("answers the server refused (422) come back with the server's words beside the questions and above the button", async () => {
    show(
      stateOf(form, {
        sync_state: 'failed',
        sync_message: 'You have already sent this form',
        sync_outbox_id: duuid(950),
        outgoing: { id: duuid(951), answers: { going_well: 'From before', happy_here: 'yes' }, files: [], queued_at: '2026-03-20T10:00:00.000Z' },
        errors: { answers: ['You have already sent this form'], 'answers.going_well': ['This is too long'] },
      }),
    );
    const { container } = renderApp(`/documents/${form.id}`);
    const alert = await screen.findByText(/Your answers were not sent:/);
    expect(alert.closest('[role="alert"]')?.textContent).toContain('You have already sent this form');
    const text = screen.getByRole('textbox', { name: /What is going well\?/ }) as HTMLTextAreaElement;
    expect(text.value).toBe('From before');
    await waitUntil(() => expect(text.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(text.getAttribute('aria-describedby')!.split(' ').find((id) => document.getElementById(id)?.textContent?.includes('too long'))!)?.textContent).toContain('This is too long');
    expect(container.querySelector('.form-renderer__problems')?.textContent).toContain('You have already sent this form');
    expect(await axeViolations(container)).toEqual([]);
  });

  it('offline, answers on their way say they will be sent when back online, and show as they will arrive', async () => {
    online = false;
    show(stateOf(form, { sync_state: 'pending', outgoing: { id: duuid(952), answers: { going_well: 'Waiting', happy_here: 'yes', talk_about: ['friends'], objectives: [duuid(710)] }, files: [], queued_at: '' } }));
    const { container } = renderApp(`/documents/${form.id}`);
    expect(await screen.findByText('Your answers are waiting to be sent. They will be sent when you are back online.')).toBeTruthy();
    expect(screen.getByText('Waiting')).toBeTruthy();
    expect(screen.getByText('Friends')).toBeTruthy();
    expect(screen.getByText('Education')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send my answers' })).toBeNull();
    expect(await axeViolations(container)).toEqual([]);
  });

  it('once sent, a read-only copy from the replica', async () => {
    const sent = formDoc(31, 'My views', FIELDS, {
      submission: {
        id: duuid(960),
        document_id: duuid(31),
        resident_id: duuid(2),
        form_version_id: duuid(701),
        answers: { going_well: 'Football', happy_here: 'no', talk_about: ['school'], signature: { file_id: duuid(961) } },
        files: [{ id: duuid(961), name: 'signature.png', mime: 'image/png', size: 100, blob: '' }],
        submitted_at: '2026-03-21T10:00:00.000000Z',
        creator: { id: duuid(1), first_name: 'Jamie', last_name: 'Smith', has_photo: false },
      },
    });
    show(null, sent);
    const { container } = renderApp(`/documents/${sent.id}`);
    expect(await screen.findByText(/You sent this on 21 March 2026/)).toBeTruthy();
    expect(screen.getByText('Football')).toBeTruthy();
    expect(screen.getByText('No')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Your signature' }).getAttribute('src')).toBe('blob:fake/answer');
    expect(screen.queryByRole('form')).toBeNull();
    expect(await axeViolations(container)).toEqual([]);
  });
  it('after "Send my answers" the focus goes to "Your answers", and stays there when the server has them', async () => {
    show(null);
    const draftFiles = [{ id: duuid(801), name: 'signature.png', mime: 'image/png', size: 10 }];
    const answers = { going_well: 'Football', happy_here: 'yes', signature: { file_id: duuid(801) } };
    fake.draft = { answers, files: draftFiles };
    const { user } = renderApp(`/documents/${form.id}`);
    await screen.findByText('We kept what you started on this device.');
    const send = screen.getByRole('button', { name: 'Send my answers' });
    send.focus();
    await user.keyboard('{Enter}');
    await waitUntil(() => expect(fake.submit).toHaveBeenCalledTimes(1));
    // The replica says the answers are on their way: the form (and its button) give way to them.
    act(() => show(stateOf(form, { sync_state: 'pending', outgoing: { id: duuid(953), answers, files: draftFiles, queued_at: '2026-03-21T10:00:00.000Z' } })));
    const heading = await screen.findByRole('heading', { level: 2, name: 'Your answers' });
    await waitUntil(() => expect(document.activeElement).toBe(heading));

    // Delivered: the sent copy replaces the waiting one under the same heading, which keeps the focus.
    const submitted = formDoc(30, 'My views', FIELDS, {
      category: 'My review',
      submission: {
        id: duuid(953),
        document_id: form.id,
        resident_id: duuid(2),
        form_version_id: duuid(701),
        answers,
        files: [{ ...draftFiles[0]!, blob: '' }],
        submitted_at: '2026-03-21T10:00:05.000000Z',
        creator: { id: duuid(1), first_name: 'Jamie', last_name: 'Smith', has_photo: false },
      },
    });
    act(() => show(null, submitted));
    await screen.findByText(/You sent this on 21 March 2026/);
    expect(document.activeElement?.textContent).toBe('Your answers');
  });
  it('the focus goes to "Your answers" also when the replica says so before the send returns', async () => {
    show(null);
    const draftFiles = [{ id: duuid(801), name: 'signature.png', mime: 'image/png', size: 10 }];
    const answers = { going_well: 'Football', happy_here: 'yes', signature: { file_id: duuid(801) } };
    fake.draft = { answers, files: draftFiles };
    fake.submit.mockImplementationOnce(async () => {
      act(() => show(stateOf(form, { sync_state: 'pending', outgoing: { id: duuid(954), answers, files: draftFiles, queued_at: '2026-03-21T10:00:00.000Z' } })));
      return { ok: true, id: duuid(954), queuedOffline: false };
    });
    const { user } = renderApp(`/documents/${form.id}`);
    await screen.findByText('We kept what you started on this device.');
    screen.getByRole('button', { name: 'Send my answers' }).focus();
    await user.keyboard('{Enter}');
    const heading = await screen.findByRole('heading', { level: 2, name: 'Your answers' });
    await waitUntil(() => expect(document.activeElement).toBe(heading));
  });
});
