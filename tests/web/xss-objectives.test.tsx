import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REVIEW_TEXT_FIELD, type TaskComment, type TaskLogStatus } from '@/contract/tasks';
import type { Live } from '@/data/hooks';
import type { PointsSummary, TaskLogView } from '@/data/replica/task-overlays';
import { threadOf } from '@/data/replica/task-overlays';
import type { TaskCommentOverlayDoc, TaskLogDoc } from '@/data/replica/types';
import { setAccount } from '@/data/session-store';
import type * as TaskLogsHooks from '@/features/objectives/hooks/use-task-logs';
import { ALL_PAYLOADS, XSS_VECTORS } from '../support/xss-vectors';
import { makeAccount } from './support/account';
import { fakeFetch } from './support/fake-fetch';
import { renderApp } from './support/render-app';
import { formViewChecks, hostileForm } from './support/xss-forms';
import { checksMade, installMarker, shown, sweepScreen } from './support/xss-scan';

/**
 * Issue 12's XSS sweep, objectives: what staff write (the task's title, description and category,
 * the form's questions, headings, help, options, columns, related forms' names, comments and their
 * names and files) and what the young person writes (answers, comments, the review), on the lists,
 * the category page, the objective, the comment editor and the success page. Every vector of
 * tests/support/xss-vectors.ts, through the real routes and providers and the live fakes of
 * tests/web/objectives-pages.test.tsx.
 */
const fake = vi.hoisted(() => ({ logs: [] as unknown[], formNames: [] as unknown[], draft: null as unknown }));

vi.mock('@/features/objectives/hooks/use-task-logs', async (importOriginal) => {
  const original = await importOriginal<typeof TaskLogsHooks>();
  return {
    ...original,
    useTaskLogs: (status: TaskLogStatus, category?: string) => ({
      data: (fake.logs as TaskLogDoc[]).filter((log) => log.status === status && (category === undefined || log.task.form.name === category)).map((log) => original.itemOf(log, [])),
      loading: false,
    }),
  };
});
vi.mock('@/features/objectives/hooks/use-task-tab-status', () => ({ useTaskTabFailed: () => false }));
vi.mock('@/features/objectives/hooks/use-task-log', () => ({
  useTaskLog: (id: string | null): Live<TaskLogView> => {
    const log = (fake.logs as TaskLogDoc[]).find((l) => l.id === id) ?? null;
    const overlays: TaskCommentOverlayDoc[] = [];
    return { data: { log, overlays, thread: threadOf(log, overlays) }, loading: false };
  },
}));
vi.mock('@/data/hooks/use-points', () => ({ usePoints: (): Live<PointsSummary | null> => ({ data: { balance: 120, pending: 0, spending: 0 }, loading: false }) }));
vi.mock('@/entries/hooks/use-entry-file', () => ({ useEntryFile: () => null, useEntryFileView: () => null }));
vi.mock('@/data/hooks/use-user-photo', () => ({ useUserPhoto: () => null }));
vi.mock('@/data/hooks/use-form-names', () => ({ useFormNames: () => fake.formNames }));
vi.mock('@/data/hooks/use-draft', () => ({ useDraft: () => ({ value: fake.draft, loading: false, save: async () => true, clear: async () => undefined }) }));

const V = XSS_VECTORS;
const ME = makeAccount().user;
const YOU = { id: ME.id, first_name: ME.first_name, last_name: ME.last_name, has_photo: false };
const sync = { sync_state: 'synced', sync_message: null, sync_outbox_id: null } as const;
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function comment(n: number, logId: string, creator: typeof YOU, text: string, extra: Partial<TaskComment> = {}): TaskComment {
  const created = `2026-03-12T10:${String(n % 60).padStart(2, '0')}:00.000000Z`;
  return { id: uuid(50_000 + n), updated_at: created, deleted_at: null, task_log_id: logId, comment: text, is_review: false, created_at: created, edited_at: null, creator, files: [], ...extra };
}

function log(n: number, status: TaskLogStatus, title: string, form: string, extra: Partial<TaskLogDoc> = {}): TaskLogDoc {
  const created = '2026-03-12T09:00:00.000000Z';
  return {
    id: uuid(n),
    kind: 'log',
    task_log_id: uuid(n),
    sort_key: `2026-03-12T${created}`,
    local_only: false,
    updated_at: created,
    task_id: uuid(10_000 + n),
    resident_id: ME.resident!.id,
    status,
    answers: {},
    completed_at: status === 'completed' ? created : null,
    reviewed: false,
    task: { id: uuid(10_000 + n), title, description: null, task_date: '2026-03-12', form: { id: uuid(20_000 + n), name: form, description: null } },
    form_version: { id: uuid(30_000 + n), version: 1, fields: [] },
    comments: [],
    created_at: created,
    ...sync,
    ...extra,
  };
}

/** The objective with everything at once: its own texts, a form of every kind, staff and own comments, the review. */
const ONE = uuid(9_999);
const form = hostileForm(V);
const hostileLog = (): TaskLogDoc =>
  log(9_999, 'completed', ALL_PAYLOADS, ALL_PAYLOADS, {
    task: { id: uuid(19_999), title: ALL_PAYLOADS, description: ALL_PAYLOADS, task_date: '2026-03-12', form: { id: uuid(29_999), name: ALL_PAYLOADS, description: ALL_PAYLOADS } },
    form_version: { id: uuid(39_999), version: 1, fields: form.fields },
    answers: form.answers,
    comments: [
      ...V.map((v) =>
        comment(v.id, ONE, { id: uuid(60_000 + v.id), first_name: v.payload, last_name: 'Staff', has_photo: false }, v.payload, { files: [{ id: uuid(70_000 + v.id), name: v.payload, mime: 'application/pdf', size: 10 }] }),
      ),
      comment(900, ONE, YOU, ALL_PAYLOADS),
      comment(901, ONE, YOU, ALL_PAYLOADS, { is_review: true }),
    ],
  });

let marker: ReturnType<typeof installMarker>;
beforeEach(() => {
  marker = installMarker();
  fake.logs = [
    ...V.map((v) => log(v.id, 'current', v.payload, v.payload)),
    ...V.map((v) => log(1_000 + v.id, 'completed', v.payload, v.payload)),
    hostileLog(),
  ];
  fake.formNames = form.formNames;
  fake.draft = null;
  fakeFetch();
  setAccount(makeAccount({ flags: { rewards_enabled: 1 } }));
});
afterEach(() => marker.remove());
afterAll(() => console.info(`xss-objectives: ${checksMade()} vector × field × screen checks`));

const clean = { ran: [], injected: [], notShownAsText: [] };
const main = () => document.querySelector('main')!;

describe('objectives lists', () => {
  it('Current: every title and category (one objective per vector) is text', async () => {
    renderApp('/objectives');
    await shown('.objective-card__title');
    expect(
      await sweepScreen(marker, main(), [
        { field: 'objective title (list)', selector: '.objective-card__title', vectors: V },
        { field: 'objective category (list)', selector: '.objective-card__meta .badge:first-child', vectors: V },
      ]),
    ).toEqual(clean);
  });

  it('Completed: every category heading and its link, and every title, is text', async () => {
    renderApp('/objectives?tab=1');
    await shown('.objectives__group h2');
    expect(
      await sweepScreen(marker, main(), [
        { field: 'category heading', selector: '.objectives__group h2', vectors: V },
        { field: 'category link', selector: '.objectives__group h2 ~ * a, .objectives__group a[href^="/objectives/category/"]', vectors: V },
        { field: 'objective title (completed)', selector: '.objective-card__title', vectors: V },
      ]),
    ).toEqual(clean);
  });

  it('/objectives/category/{name}: a category named with every vector is a text heading', async () => {
    // React Router decodes an escaped slash in a parameter twice ("%2F" typed in a name comes back
    // as "/"), so the one vector with a literal %2F would not find its objectives: not an XSS matter.
    const vectors = V.filter((v) => !v.payload.includes('%2F'));
    const name = vectors.map((v) => v.payload).join('\n');
    fake.logs = [log(5_000, 'completed', ALL_PAYLOADS, name)];
    renderApp(`/objectives/category/${encodeURIComponent(name)}`);
    await shown('.objective-card__title');
    expect(
      await sweepScreen(marker, main(), [
        { field: 'category page heading (from the address)', selector: 'h1', vectors },
        { field: 'objective title (category page)', selector: '.objective-card__title', vectors: V },
      ]),
    ).toEqual(clean);
  });
});

describe('one objective', () => {
  it('the task, the filled form, the thread (one staff comment per vector, names, files) and the review are text', async () => {
    renderApp(`/objectives/${ONE}`);
    await shown('.thread__list');
    expect(
      await sweepScreen(marker, main(), [
        { field: 'objective title', selector: 'h1', vectors: V },
        { field: 'objective category', selector: '.objective__facts li:nth-child(2)', vectors: V },
        { field: 'objective description', selector: '.objective > .thread__text', vectors: V },
        ...formViewChecks('objective form', V),
        { field: 'staff comment', selector: '.thread__list .thread__comment:not(.thread__comment--mine) .thread__text', vectors: V },
        { field: 'staff name on a comment', selector: '.thread__list .thread__comment:not(.thread__comment--mine) .thread__name', vectors: V },
        { field: 'comment file name', selector: '.thread__list .attachments', vectors: V },
        { field: 'own comment', selector: '.thread__comment--mine .thread__text', vectors: V },
        { field: 'own review', selector: '#objective-review-title ~ .thread__text', vectors: V },
      ]),
    ).toEqual(clean);
  });

  it('a review being written: its kept draft fills the field as text', async () => {
    fake.draft = { answers: { [REVIEW_TEXT_FIELD]: ALL_PAYLOADS }, files: [] };
    renderApp(`/objectives/${uuid(1_001)}`);
    const field = (await shown('#objective-review-title ~ form textarea, #objective-review-title ~ * textarea')) as HTMLTextAreaElement;
    expect(field.value).toBe(ALL_PAYLOADS);
    expect(await sweepScreen(marker, main(), [{ field: 'review draft (field value)', selector: '.objective__section textarea', vectors: V }])).toEqual(clean);
  });

  it('editing one’s own comment: the field holds it as text', async () => {
    renderApp(`/objectives/${ONE}/comment/edit/${uuid(50_900)}`);
    const field = (await shown('main textarea')) as HTMLTextAreaElement;
    expect(field.value).toBe(ALL_PAYLOADS);
    expect(await sweepScreen(marker, main(), [{ field: 'own comment (edit field)', selector: 'textarea', vectors: V }])).toEqual(clean);
  });

  it('after the review: the objective is named as text', async () => {
    renderApp(`/objectives/${ONE}/success`);
    await shown('h1', '+20 points');
    expect(await sweepScreen(marker, main(), [{ field: 'objective title (success)', selector: '.lead', vectors: V }])).toEqual(clean);
  });
});
