import { act, screen, within } from '@testing-library/react';
import { KEPT_DRAFT_NOTE } from '@/components/kept-draft-note';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { taskMessages, type TaskComment, type TaskLogStatus } from '@/contract/tasks';
import type { Live } from '@/data/hooks';
import type { PointsSummary, TaskLogView } from '@/data/replica/task-overlays';
import { threadOf } from '@/data/replica/task-overlays';
import type { TaskCommentOverlayDoc, TaskLogDoc } from '@/data/replica/types';
import { setAccount } from '@/data/session-store';
import { commentEditDraftKey, replyDraftKey } from '@/entries/data/draft-keys';
import { reviewDraftKey } from '@/features/objectives/components/review-section';
import type * as TaskLogsHooks from '@/features/objectives/hooks/use-task-logs';
import { makeAccount } from './support/account';
import { fakeDrafts } from './support/fake-drafts';
import { fakeFetch } from './support/fake-fetch';
import { renderApp } from './support/render-app';
import { emulateModalDialogs } from './support/modal-dialog';
import { waitUntil } from '../support/wait';

/** What the replica "holds" (the data layer has its own tests): these feed documents to the screens. */
const fake = vi.hoisted(() => ({
  logs: [] as unknown[],
  overlays: [] as unknown[],
  failed: { current: false, completed: false } as Record<string, boolean>,
  loading: false,
  points: null as unknown,
  review: vi.fn(async () => ({ ok: true, id: '00000000-0000-4000-8000-000000000999', queuedOffline: false })),
  discard: vi.fn(async () => ({ ok: true })),
  retry: vi.fn(async (..._args: unknown[]): Promise<unknown> => ({ ok: true, id: '', queuedOffline: false })),
  update: vi.fn(async (..._args: unknown[]): Promise<unknown> => ({ ok: true, id: '', queuedOffline: false })),
}));

vi.mock('@/features/objectives/hooks/use-task-logs', async (importOriginal) => {
  const original = await importOriginal<typeof TaskLogsHooks>();
  return {
    ...original,
    useTaskLogs: (status: TaskLogStatus, category?: string) => ({
      data: (fake.logs as TaskLogDoc[])
        .filter((log) => log.status === status && (category === undefined || log.task.form.name === category))
        .map((log) => original.itemOf(log, fake.overlays as TaskCommentOverlayDoc[])),
      loading: fake.loading,
    }),
  };
});
vi.mock('@/features/objectives/hooks/use-task-tab-status', () => ({ useTaskTabFailed: (status: TaskLogStatus) => fake.failed[status] ?? false }));
vi.mock('@/features/objectives/hooks/use-task-log', () => ({
  useTaskLog: (id: string | null): Live<TaskLogView> => {
    const log = (fake.logs as TaskLogDoc[]).find((l) => l.id === id) ?? null;
    const overlays = (fake.overlays as TaskCommentOverlayDoc[]).filter((o) => o.task_log_id === id);
    return { data: { log, overlays, thread: threadOf(log, overlays) }, loading: fake.loading && !log };
  },
}));
vi.mock('@/data/hooks/use-points', () => ({ usePoints: (): Live<PointsSummary | null> => ({ data: fake.points as PointsSummary | null, loading: false }) }));
vi.mock('@/entries/hooks/use-entry-file', () => ({ useEntryFile: () => null, useEntryFileView: () => null }));
vi.mock('@/data/hooks/use-user-photo', () => ({ useUserPhoto: () => null }));
vi.mock('@/features/objectives/actions/review-task-log', () => ({ reviewTaskLog: fake.review }));
vi.mock('@/features/objectives/actions/discard-task-comment', () => ({ discardTaskComment: fake.discard }));
vi.mock('@/features/objectives/actions/retry-task-comment', () => ({ retryTaskComment: fake.retry }));
vi.mock('@/features/objectives/actions/update-task-comment', () => ({ updateTaskComment: fake.update }));
vi.mock('@/data/hooks/use-draft', async () => (await import('./support/fake-drafts')).draftHooks);

const ME = makeAccount().user;
const ALI = { id: '00000000-0000-4000-8000-00000000a111', first_name: 'Ali', last_name: 'Hassan', has_photo: false };
const YOU = { id: ME.id, first_name: ME.first_name, last_name: ME.last_name, has_photo: false };
const sync = { sync_state: 'synced', sync_message: null, sync_outbox_id: null } as const;
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function comment(n: number, creator: typeof ALI, text: string, created: string, extra: Partial<TaskComment> = {}): TaskComment {
  return { id: uuid(500 + n), updated_at: created, deleted_at: null, task_log_id: uuid(n), comment: text, is_review: false, created_at: created, edited_at: null, creator, files: [], ...extra };
}

function log(n: number, status: TaskLogStatus, title: string, form: string, date: string, extra: Partial<TaskLogDoc> = {}): TaskLogDoc {
  const created = `${date}T09:00:00.000000Z`;
  return {
    id: uuid(n),
    kind: 'log',
    task_log_id: uuid(n),
    sort_key: `${date}T${created}`,
    local_only: false,
    updated_at: created,
    task_id: uuid(100 + n),
    resident_id: ME.resident!.id,
    status,
    answers: {},
    completed_at: status === 'completed' ? created : null,
    reviewed: false,
    task: { id: uuid(100 + n), title, description: null, task_date: date, form: { id: uuid(200 + form.length), name: form, description: null } },
    form_version: { id: uuid(300 + n), version: 1, fields: [] },
    comments: [],
    created_at: created,
    ...sync,
    ...extra,
  };
}

beforeEach(() => {
  fake.logs = [
    log(1, 'current', 'Cook a meal with staff', 'Independence skills', '2026-03-12', { comments: [comment(1, ALI, 'Looking forward to it', '2026-03-12T10:00:00.000000Z')] }),
    log(2, 'current', 'Get to school on time all week', 'Education', '2026-03-09'),
    log(3, 'completed', 'Go for a run', 'Health & wellbeing', '2026-03-08', { reviewed: true }),
    log(4, 'completed', 'Read a book', 'Education', '2026-03-05'),
    log(5, 'completed', 'Tidy my room', 'Health & wellbeing', '2026-03-01'),
  ];
  fake.overlays = [];
  fake.failed = { current: false, completed: false };
  fake.loading = false;
  fake.points = { balance: 120, pending: 0, spending: 0 };
  fakeDrafts.reset();
  fake.review.mockClear();
  fake.retry.mockClear();
  fake.update.mockClear();
  fakeFetch();
  setAccount(makeAccount({ flags: { rewards_enabled: 1 } }));
});

const cards = (list: HTMLElement) => within(list).getAllByRole('article').map((a) => within(a).getByRole('heading').textContent);

describe('objectives list', () => {
  it('has two tabs, Current (0) first and selected, then Completed (1); each item says what it is and links to it', async () => {
    renderApp('/objectives');
    const tablist = await screen.findByRole('tablist', { name: 'Objectives' });
    const tabs = within(tablist).getAllByRole('tab');
    expect(tabs.map((t) => [t.textContent, t.getAttribute('aria-selected'), t.tabIndex])).toEqual([
      ['Current', 'true', 0],
      ['Completed', 'false', -1],
    ]);
    const panel = screen.getByRole('tabpanel', { name: 'Current' });
    const list = within(panel).getByRole('list', { name: 'Current objectives' });
    expect(cards(list)).toEqual(['Cook a meal with staff', 'Get to school on time all week']);
    const first = within(list).getAllByRole('article')[0]!;
    expect(within(first).getByRole('link', { name: 'Cook a meal with staff' }).getAttribute('href')).toBe(`/objectives/${uuid(1)}`);
    expect(first.textContent).toContain('Thursday 12 March 2026');
    expect(within(first).getByRole('list', { name: 'About this objective' }).textContent).toContain('Independence skills');
    expect(first.textContent).toContain('Current');
    expect(first.textContent).toContain('1 comment');
    expect(first.textContent).not.toContain('Waiting to send');
    await waitUntil(() => expect(document.title).toBe('Hearth - Objectives'));
  });

  it('arrow keys, Home and End move between the tabs; the choice is kept in the address (?tab=1)', async () => {
    const { router, user } = renderApp('/objectives');
    const current = await screen.findByRole('tab', { name: 'Current' });
    current.focus();
    // The tab follows the address, which the router updates in a transition: on a busy machine the
    // render can come a moment after the key, so each state is waited for.
    await user.keyboard('{ArrowRight}');
    const completed = screen.getByRole('tab', { name: 'Completed' });
    await waitUntil(() => {
      expect(completed.getAttribute('aria-selected')).toBe('true');
      expect(document.activeElement).toBe(completed);
      expect(router.state.location.search).toBe('?tab=1');
      expect(screen.getByRole('tabpanel', { name: 'Completed' })).toBeTruthy();
    });
    await user.keyboard('{ArrowRight}');
    await waitUntil(() => {
      expect(document.activeElement).toBe(current);
      expect(router.state.location.search).toBe('?tab=0');
    });
    await user.keyboard('{End}');
    await waitUntil(() => expect(document.activeElement).toBe(completed));
    await user.keyboard('{Home}');
    await waitUntil(() => expect(document.activeElement).toBe(current));
    await user.click(completed);
    await waitUntil(() => expect(router.state.location.search).toBe('?tab=1'));
  });

  it('opens on the tab in the address; Completed is grouped by form name with a link to each category', async () => {
    renderApp('/objectives?tab=1');
    const panel = await screen.findByRole('tabpanel', { name: 'Completed' });
    expect(screen.getByRole('tab', { name: 'Completed' }).getAttribute('aria-selected')).toBe('true');
    const groups = within(panel).getAllByRole('region');
    expect(groups.map((g) => within(g).getByRole('heading', { level: 2 }).textContent)).toEqual(['Health & wellbeing', 'Education']);
    expect(cards(within(groups[0]!).getByRole('list', { name: 'Completed Health & wellbeing objectives' }))).toEqual(['Go for a run', 'Tidy my room']);
    expect(within(groups[0]!).getByRole('link', { name: 'All Health & wellbeing objectives' }).getAttribute('href')).toBe('/objectives/category/Health%20%26%20wellbeing');
    const run = within(groups[0]!).getAllByRole('article')[0]!;
    expect(run.textContent).toContain('Reviewed');
    expect(within(groups[0]!).getAllByRole('article')[1]!.textContent).toContain('Ready to review');
  });

  it('marks an objective with a comment or review of this device still waiting to be sent', async () => {
    fake.overlays = [
      {
        ...comment(9, YOU, 'It went well', '2026-03-13T10:00:00.000000Z', { task_log_id: uuid(5), is_review: true }),
        kind: 'comment',
        status: '',
        sort_key: '2026-03-13T10:00:00.000000Z',
        local_only: true,
        sync_state: 'pending',
        sync_message: null,
        sync_outbox_id: uuid(999),
      } satisfies TaskCommentOverlayDoc,
    ];
    renderApp('/objectives?tab=1');
    const tidy = (await screen.findByRole('link', { name: 'Tidy my room' })).closest('article')!;
    expect(tidy.textContent).toContain('Waiting to send');
    expect(tidy.textContent).toContain('Reviewed');
    expect(tidy.textContent).toContain('1 comment');
  });

  it('says "Failed to fetch current tasks" / "Failed to fetch completed tasks" when a tab never arrived and the network fails', async () => {
    fake.logs = [];
    fake.failed = { current: true, completed: true };
    const { user } = renderApp('/objectives');
    expect(within(await screen.findByRole('alert')).getByText(taskMessages.fetchCurrentFailed)).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Completed' }));
    expect(within(await screen.findByRole('alert')).getByText(taskMessages.fetchCompletedFailed)).toBeTruthy();
  });

  it('shows what the replica holds even when the network fails, and an empty tab kindly otherwise', async () => {
    fake.failed = { current: true, completed: false };
    renderApp('/objectives');
    expect(await screen.findByRole('link', { name: 'Cook a meal with staff' })).toBeTruthy();
    expect(screen.queryByText(taskMessages.fetchCurrentFailed)).toBeNull();
  });

  it('an empty tab with nothing failing says so, without the failure message', async () => {
    fake.logs = [];
    renderApp('/objectives');
    expect(await screen.findByText('No current objectives.')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('category page', () => {
  it('lists that category only (its name from the address, decoded), current and completed, each linking to the objective', async () => {
    renderApp('/objectives/category/Education');
    expect(await screen.findByRole('heading', { level: 1, name: 'Education' })).toBeTruthy();
    const current = screen.getByRole('region', { name: 'Current' });
    const completed = screen.getByRole('region', { name: 'Completed' });
    expect(cards(within(current).getByRole('list', { name: 'Current Education objectives' }))).toEqual(['Get to school on time all week']);
    expect(cards(within(completed).getByRole('list', { name: 'Completed Education objectives' }))).toEqual(['Read a book']);
    expect(screen.queryByText('Go for a run')).toBeNull();
  });

  it('decodes an encoded name and says when a category has nothing', async () => {
    renderApp('/objectives/category/Health%20%26%20wellbeing');
    expect(await screen.findByRole('heading', { level: 1, name: 'Health & wellbeing' })).toBeTruthy();
    expect(cards(within(screen.getByRole('region', { name: 'Completed' })).getByRole('list', { name: 'Completed Health & wellbeing objectives' }))).toEqual([
      'Go for a run',
      'Tidy my room',
    ]);
    expect(screen.queryByRole('region', { name: 'Current' })).toBeNull();
  });

  it('an unknown category: nothing to list', async () => {
    renderApp('/objectives/category/Music');
    expect(await screen.findByText('No objectives in this group.')).toBeTruthy();
  });
});

describe('points on the dashboard', () => {
  it('shows the ledger balance and a pending review as on its way', async () => {
    fake.points = { balance: 120, pending: 20, spending: 0 };
    renderApp('/dashboard');
    const link = await screen.findByRole('link', { name: /You have 120 points · 20 on their way/ });
    expect(link.getAttribute('href')).toBe('/rewards');
  });
});

describe('one objective', () => {
  const withThread = () => {
    const logs = fake.logs as TaskLogDoc[];
    logs[2] = {
      ...logs[2]!,
      reviewed: false,
      task: { ...logs[2]!.task, description: 'Twice round the park.' },
      form_version: { id: uuid(303), version: 1, fields: [{ id: 'activity', kind: 'text', label: 'What did you do?', help_text: null, required: true }] },
      answers: { activity: 'Park run' },
      comments: [
        comment(3, YOU, 'I was tired after', '2026-03-09T12:00:00.000000Z', { task_log_id: uuid(3) }),
        comment(4, ALI, 'Well done!', '2026-03-09T10:00:00.000000Z', { task_log_id: uuid(3) }),
      ],
    };
  };

  it('shows the task, the filled form read-only, the review form, and the thread newest first with Edit only on own comments', async () => {
    withThread();
    renderApp(`/objectives/${uuid(3)}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Go for a run' })).toBeTruthy();
    await waitUntil(() => expect(document.title).toBe('Hearth - Objective'));
    const facts = screen.getByRole('list', { name: 'About this objective' });
    expect(facts.textContent).toContain('Sunday 8 March 2026');
    expect(facts.textContent).toContain('Health & wellbeing');
    expect(facts.textContent).toContain('Completed');
    expect(screen.getByText('Twice round the park.')).toBeTruthy();
    const form = screen.getByRole('region', { name: 'How it went' });
    expect(within(form).getByText('What did you do?')).toBeTruthy();
    expect(within(form).getByText('Park run')).toBeTruthy();
    expect(within(form).queryByRole('textbox')).toBeNull();

    const review = screen.getByRole('region', { name: 'Your review' });
    expect(await within(review).findByRole('form', { name: 'Your review' })).toBeTruthy();
    expect(within(review).getByRole('textbox', { name: /How do you think it went\?/ })).toBeTruthy();

    const thread = screen.getByRole('list', { name: 'Comments, newest first' });
    const items = within(thread).getAllByRole('article');
    expect(items.map((a) => a.getAttribute('aria-label'))).toEqual(['Comment from You', 'Comment from Ali Hassan']);
    expect(within(items[0]!).getByRole('link', { name: 'Edit your comment' }).getAttribute('href')).toBe(`/objectives/${uuid(3)}/comment/edit/${uuid(503)}`);
    expect(within(items[1]!).queryByRole('link', { name: /Edit/ })).toBeNull();
  });

  it('the review: its draft is restored and kept as it is typed; sending it goes to the success page', async () => {
    withThread();
    fakeDrafts.set(reviewDraftKey(uuid(3)), { answers: { how_it_went: 'I ran all the', photos: null }, files: [] });
    const { router, user } = renderApp(`/objectives/${uuid(3)}`);
    const review = await screen.findByRole('region', { name: 'Your review' });
    const text = (await within(review).findByRole('textbox', { name: /How do you think it went\?/ })) as HTMLTextAreaElement;
    expect(text.value).toBe('I ran all the');
    expect(within(review).getByText('We kept what you started writing on this device.')).toBeTruthy();
    await user.type(text, ' way');
    await waitUntil(() => expect(fakeDrafts.get(reviewDraftKey(uuid(3)))).toEqual({ answers: expect.objectContaining({ how_it_went: 'I ran all the way' }), files: [] }));
    await user.click(within(review).getByRole('button', { name: 'Send my review' }));
    await waitUntil(() => expect(router.state.location.pathname).toBe(`/objectives/${uuid(3)}/success`));
    expect(fake.review).toHaveBeenCalledWith(uuid(3), { comment: 'I ran all the way', photos: [] });
    expect(fakeDrafts.get(reviewDraftKey(uuid(3)))).toBeNull();
  });

  it('a comment being written is kept on the device: it is there again after a reload', async () => {
    const first = renderApp(`/objectives/${uuid(1)}`);
    const form = await screen.findByRole('form', { name: 'Add a comment' });
    await first.user.type(within(form).getByRole('textbox', { name: 'Your comment' }), 'Half of my comment');
    await waitUntil(() => (fakeDrafts.get(replyDraftKey('task', uuid(1))) as { comment?: string } | null)?.comment === 'Half of my comment');
    first.unmount();
    renderApp(`/objectives/${uuid(1)}`);
    expect(await screen.findByText(KEPT_DRAFT_NOTE)).toBeTruthy();
    const again = await screen.findByRole('form', { name: 'Add a comment' });
    expect((within(again).getByRole('textbox', { name: 'Your comment' }) as HTMLTextAreaElement).value).toBe('Half of my comment');
  });

  it('a review with no words is not sent: the message is beside the question', async () => {
    withThread();
    const { user } = renderApp(`/objectives/${uuid(3)}`);
    const review = await screen.findByRole('region', { name: 'Your review' });
    await user.click(await within(review).findByRole('button', { name: 'Send my review' }));
    expect(await within(review).findByText('This question needs an answer')).toBeTruthy();
    expect(fake.review).not.toHaveBeenCalled();
  });

  it('a current objective cannot be reviewed yet, and says so', async () => {
    renderApp(`/objectives/${uuid(1)}`);
    const review = await screen.findByRole('region', { name: 'Your review' });
    expect(within(review).getByText(`${taskMessages.reviewNotCompleted}.`)).toBeTruthy();
    expect(within(review).queryByRole('form')).toBeNull();
  });

  it('a review waiting to be sent is shown with its points as on their way, and a new comment of this device goes to the front', async () => {
    withThread();
    const overlay = (n: number, text: string, isReview: boolean, created: string): TaskCommentOverlayDoc => ({
      ...comment(n, YOU, text, created, { task_log_id: uuid(3), is_review: isReview }),
      kind: 'comment',
      status: '',
      sort_key: created,
      local_only: true,
      sync_state: 'pending',
      sync_message: null,
      sync_outbox_id: uuid(900 + n),
    });
    fake.overlays = [overlay(10, 'It went well', true, '2026-03-10T09:00:00.000000Z'), overlay(11, 'Can we go again?', false, '2026-03-10T10:00:00.000000Z')];
    renderApp(`/objectives/${uuid(3)}`);
    const review = await screen.findByRole('region', { name: 'Your review' });
    expect(within(review).getByText('It went well')).toBeTruthy();
    expect(within(review).getByText(/Your 20 points arrive when it is sent/)).toBeTruthy();
    expect(within(review).queryByRole('form')).toBeNull();
    const items = within(screen.getByRole('list', { name: 'Comments, newest first' })).getAllByRole('article');
    expect(items.map((a) => a.getAttribute('aria-label'))).toEqual(['Comment from You', 'Review from You', 'Comment from You', 'Comment from Ali Hassan']);
    expect(within(items[0]!).getByText('Waiting to send')).toBeTruthy();
  });

  it('a refused comment shows the reason, Try again, Edit and Discard (after a confirmation that offers the words to copy)', async () => {
    withThread();
    fake.overlays = [
      {
        ...comment(12, YOU, 'Refused words', '2026-03-10T09:00:00.000000Z', { task_log_id: uuid(3) }),
        kind: 'comment',
        status: '',
        sort_key: '2026-03-10T09:00:00.000000Z',
        local_only: true,
        sync_state: 'failed',
        sync_message: taskMessages.postCommentFailed,
        sync_outbox_id: null,
      } satisfies TaskCommentOverlayDoc,
    ];
    const { user } = renderApp(`/objectives/${uuid(3)}`);
    const item = (await screen.findByText('Refused words')).closest('article')!;
    expect(within(item).getByRole('alert').textContent).toBe(taskMessages.postCommentFailed);
    expect(within(item).getByRole('button', { name: 'Try again to send your comment' })).toBeTruthy();
    expect(within(item).getByRole('link', { name: 'Edit your comment' })).toBeTruthy();

    await user.click(within(item).getByRole('button', { name: 'Discard your comment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Discard your comment?' });
    expect((within(dialog).getByRole('textbox', { name: 'Your words' }) as HTMLTextAreaElement).value).toBe('Refused words');
    await user.click(within(dialog).getByRole('button', { name: 'Copy my words' }));
    expect(await navigator.clipboard.readText()).toBe('Refused words');
    await user.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    expect(fake.discard).not.toHaveBeenCalled();
    await user.click(within(item).getByRole('button', { name: 'Discard your comment' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Discard' }));
    expect(fake.discard).toHaveBeenCalledWith(uuid(512));
  });

  it('the focus after Try again, Keep it and Discard: on the comment, back on Discard, on "Comments"', async () => {
    emulateModalDialogs();
    withThread();
    fake.overlays = [
      {
        ...comment(12, YOU, 'Refused words', '2026-03-10T09:00:00.000000Z', { task_log_id: uuid(3) }),
        kind: 'comment',
        status: '',
        sort_key: '2026-03-10T09:00:00.000000Z',
        local_only: true,
        sync_state: 'failed',
        sync_message: taskMessages.postCommentFailed,
        sync_outbox_id: null,
      } satisfies TaskCommentOverlayDoc,
    ];
    let answer: (value: unknown) => void = () => undefined;
    fake.retry.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    const { user } = renderApp(`/objectives/${uuid(3)}`);
    const item = (await screen.findByText('Refused words')).closest('article')!;

    // Try again keeps the focus while it works (aria-disabled, not disabled; a second press does nothing).
    const again = within(item).getByRole('button', { name: 'Try again to send your comment' }) as HTMLButtonElement;
    await user.click(again);
    await waitUntil(() => expect(again.getAttribute('aria-disabled')).toBe('true'));
    expect(again.disabled).toBe(false);
    expect(document.activeElement).toBe(again);
    await user.click(again);
    expect(fake.retry).toHaveBeenCalledTimes(1);
    await act(async () => answer({ ok: true, id: uuid(512), queuedOffline: false }));
    // Sent again, its failed actions go: the comment itself has the focus.
    await waitUntil(() => expect(document.activeElement).toBe(item));

    // Keep it: back on Discard. Discard: the comment goes, "Comments" has the focus.
    const discard = within(item).getByRole('button', { name: 'Discard your comment' });
    await user.click(discard);
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Keep it' }));
    await waitUntil(() => expect(document.activeElement).toBe(discard));
    await user.click(discard);
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Discard' }));
    await waitUntil(() => expect(document.activeElement).toBe(screen.getByRole('heading', { level: 2, name: 'Comments' })));
  });

  it('"Objective not found" for a log the replica does not have after its first pull', async () => {
    renderApp(`/objectives/${uuid(77)}`);
    expect(await screen.findByRole('heading', { level: 2, name: taskMessages.objectiveNotFound })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to objectives' }).getAttribute('href')).toBe('/objectives');
  });

  it('waits (Loading…) rather than saying "not found" while the first pull runs', async () => {
    fake.loading = true;
    renderApp(`/objectives/${uuid(77)}`);
    expect(await screen.findByText('Loading…')).toBeTruthy();
    expect(screen.queryByText(taskMessages.objectiveNotFound)).toBeNull();
  });
});

describe('editing a comment', () => {
  beforeEach(() => {
    const logs = fake.logs as TaskLogDoc[];
    logs[0] = {
      ...logs[0]!,
      comments: [comment(1, YOU, 'My first words', '2026-03-12T11:00:00.000000Z', { task_log_id: uuid(1) }), comment(2, ALI, 'Staff words', '2026-03-12T10:00:00.000000Z', { task_log_id: uuid(1) })],
    };
  });

  it('the young person edits their own comment: the form holds its words', async () => {
    renderApp(`/objectives/${uuid(1)}/comment/edit/${uuid(501)}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit comment' })).toBeTruthy();
    await waitUntil(() => expect(document.title).toBe('Hearth - Edit comment'));
    const form = screen.getByRole('form', { name: 'Edit your comment' });
    expect((within(form).getByRole('textbox', { name: 'Your comment' }) as HTMLTextAreaElement).value).toBe('My first words');
  });

  it('a connection that drops while editing (the page needs one) does not throw the edit away', async () => {
    let online = true;
    vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
    const { user } = renderApp(`/objectives/${uuid(1)}/comment/edit/${uuid(501)}`);
    const form = await screen.findByRole('form', { name: 'Edit your comment' });
    const box = within(form).getByRole('textbox', { name: 'Your comment' }) as HTMLTextAreaElement;
    await user.clear(box);
    await user.type(box, 'My first words, and what happened after');
    act(() => {
      online = false;
      window.dispatchEvent(new Event('offline'));
    });
    expect(screen.getByText('You need to be online for this page')).toBeTruthy();
    act(() => {
      online = true;
      window.dispatchEvent(new Event('online'));
    });
    expect(await screen.findByText(KEPT_DRAFT_NOTE)).toBeTruthy();
    const again = await screen.findByRole('form', { name: 'Edit your comment' });
    expect((within(again).getByRole('textbox', { name: 'Your comment' }) as HTMLTextAreaElement).value).toBe('My first words, and what happened after');
    expect(fakeDrafts.get(commentEditDraftKey(uuid(501)))).toMatchObject({ comment: 'My first words, and what happened after' });
  });

  it('saving a review says "Your review has been updated." (a comment: "Your comment ..."), and offline that the review waits', async () => {
    const logs = fake.logs as TaskLogDoc[];
    logs[0] = { ...logs[0]!, comments: [...logs[0]!.comments, comment(3, YOU, 'It went well', '2026-03-12T12:00:00.000000Z', { task_log_id: uuid(1), is_review: true })] };
    const { user, router } = renderApp(`/objectives/${uuid(1)}/comment/edit/${uuid(503)}`);
    const save = async (name: string) => {
      const form = await screen.findByRole('form', { name });
      await user.click(within(form).getByRole('button', { name: 'Save' }));
      await waitUntil(() => expect(router.state.location.pathname.slice(-20)).toBe(`/objectives/${uuid(1)}`.slice(-20)));
    };
    await save('Edit your review');
    expect(await screen.findByText('Your review has been updated.')).toBeTruthy();
    expect(screen.queryByText('Your comment has been updated.')).toBeNull();

    fake.update.mockResolvedValueOnce({ ok: true, id: uuid(503), queuedOffline: true });
    await act(() => router.navigate(`/objectives/${uuid(1)}/comment/edit/${uuid(503)}`));
    // Saved and closed, the edit kept no draft: it opens again with the review's words.
    const again = await screen.findByRole('form', { name: 'Edit your review' });
    expect((within(again).getByRole('textbox', { name: 'Your review' }) as HTMLTextAreaElement).value).toBe('It went well');
    expect(screen.queryByText(KEPT_DRAFT_NOTE)).toBeNull();
    await save('Edit your review');
    expect(await screen.findByText('You are offline, we will retry updating your review when back online.')).toBeTruthy();

    await act(() => router.navigate(`/objectives/${uuid(1)}/comment/edit/${uuid(501)}`));
    await save('Edit your comment');
    expect(await screen.findByText('Your comment has been updated.')).toBeTruthy();
    expect(fake.update).toHaveBeenCalledTimes(3);
  });

  it('"Comment not found" for someone else\'s comment, and for one that is not there', async () => {
    renderApp(`/objectives/${uuid(1)}/comment/edit/${uuid(502)}`);
    expect(await screen.findByRole('heading', { level: 2, name: taskMessages.commentNotFound })).toBeTruthy();
    expect(screen.queryByRole('form')).toBeNull();
  });

  it('"Comment not found" for an unknown comment id', async () => {
    renderApp(`/objectives/${uuid(1)}/comment/edit/${uuid(599)}`);
    expect(await screen.findByRole('heading', { level: 2, name: taskMessages.commentNotFound })).toBeTruthy();
  });
});

describe('after a review', () => {
  it('"+20 points" with the total, pending shown as on its way, and the way back', async () => {
    fake.overlays = [
      {
        ...comment(13, YOU, 'It went well', '2026-03-10T09:00:00.000000Z', { task_log_id: uuid(5), is_review: true }),
        kind: 'comment',
        status: '',
        sort_key: '2026-03-10T09:00:00.000000Z',
        local_only: true,
        sync_state: 'pending',
        sync_message: null,
        sync_outbox_id: uuid(913),
      } satisfies TaskCommentOverlayDoc,
    ];
    fake.points = { balance: 120, pending: 20, spending: 0 };
    renderApp(`/objectives/${uuid(5)}/success`);
    expect(await screen.findByRole('heading', { level: 1, name: '+20 points' })).toBeTruthy();
    await waitUntil(() => expect(document.title).toBe('Hearth - Objective complete'));
    expect(screen.getByText('You have 120 points · 20 points on their way.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the objective' }).getAttribute('href')).toBe(`/objectives/${uuid(5)}`);
    expect(screen.getByRole('link', { name: 'All objectives' })).toBeTruthy();
    expect(within(screen.getByRole('main')).queryByRole('link', { name: /reward|spend|swap/i })).toBeNull();
  });

  it('a review on its way: "being sent" online; "when you are back online" only offline, and it follows the connection', async () => {
    fake.overlays = [
      {
        ...comment(13, YOU, 'It went well', '2026-03-10T09:00:00.000000Z', { task_log_id: uuid(5), is_review: true }),
        kind: 'comment',
        status: '',
        sort_key: '2026-03-10T09:00:00.000000Z',
        local_only: true,
        sync_state: 'pending',
        sync_message: null,
        sync_outbox_id: uuid(913),
      } satisfies TaskCommentOverlayDoc,
    ];
    let online = true;
    vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
    renderApp(`/objectives/${uuid(5)}/success`);
    expect(await screen.findByText('Your review is being sent. Your 20 points arrive when it is sent.')).toBeTruthy();
    expect(screen.queryByText(/back online/)).toBeNull();
    act(() => {
      online = false;
      window.dispatchEvent(new Event('offline'));
    });
    expect(await screen.findByText(taskMessages.reviewPointsOffline)).toBeTruthy();
    expect(screen.queryByText(/being sent/)).toBeNull();
  });
});
