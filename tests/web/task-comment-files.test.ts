import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { EntryFile } from '@/contract/entries';
import { describeBody } from '@/data/outbox/serialise';
import type { MultipartPart, WriteInput } from '@/data/outbox/types';
import type * as WriteSupport from '@/entries/data/write-support';
import { postTaskComment } from '@/features/objectives/actions/post-task-comment';
import { reviewTaskLog } from '@/features/objectives/actions/review-task-log';

/**
 * SPEC §3 ("Task comment: task_log_id, files (sent as files[])") and §7 ("POST /v1/tasks/logs/comments
 * (multipart, fields plus files[])"): the request an objective comment queues names its files `files[]`,
 * in the order they were added. The replica and the outbox are stand-ins here (the data layer's own
 * tests run them against the real server); the multipart body is the real serialiser's.
 */
const fake = vi.hoisted(() => ({ queued: [] as unknown[], logs: new Map<string, unknown>(), stored: 0 }));

const LOG_ID = '00000000-0000-4000-8000-000000000003';
const ME = '00000000-0000-4000-8000-0000000000aa';

vi.mock('@/entries/data/replica-for-write', () => ({
  replicaForWrite: async () => ({
    identity: { userId: ME, residentId: '00000000-0000-4000-8000-0000000000bb' },
    db: {
      tasks: {
        findOne: (id: string) => ({ exec: async () => (fake.logs.has(id) ? { toJSON: () => fake.logs.get(id) } : null) }),
        find: () => ({ exec: async () => [] }),
      },
    },
  }),
}));
vi.mock('@/data/outbox/outbox', () => ({
  enqueueWrite: async (input: WriteInput) => {
    fake.queued.push(input);
    return { outboxId: input.idempotencyKey };
  },
  newIdempotencyKey: () => crypto.randomUUID(),
  withdrawUnsentWrite: async () => true,
}));
vi.mock('@/data/replica/local-writes', () => ({ applyLocalChange: async () => undefined }));
vi.mock('@/entries/data/check-images', () => ({ checkImages: async () => ({ outcome: 'ok' }) }));
vi.mock('@/entries/data/validate', () => ({ isAllowedFile: async () => true, checkSizes: () => ({}) }));
vi.mock('@/entries/data/local-files', () => ({
  storeLocalFile: async (_db: unknown, file: File, name: string): Promise<EntryFile> => {
    fake.stored += 1;
    return { id: `00000000-0000-4000-8000-${String(700 + fake.stored).padStart(12, '0')}`, name, mime: file.type, size: file.size };
  },
  readLocalFile: async (_db: unknown, file: EntryFile) => new File([`bytes of ${file.name}`], file.name, { type: file.mime }),
}));
vi.mock('@/entries/data/write-support', async (importOriginal) => ({
  ...(await importOriginal<typeof WriteSupport>()),
  prepareFiles: async (files: readonly File[]) => [...files],
  creatorOf: async () => ({ id: ME, first_name: 'Sam', last_name: 'Smith', has_photo: false }),
  isOnline: () => true,
}));

function completedLog() {
  return {
    id: LOG_ID,
    kind: 'log',
    status: 'completed',
    reviewed: false,
    comments: [],
    task: { id: '00000000-0000-4000-8000-000000000103', title: 'Go for a run', description: null, task_date: '2026-03-08', form: { id: '00000000-0000-4000-8000-000000000201', name: 'Health', description: null } },
  };
}

/** The multipart parts the outbox would send for the one write queued. */
function partsQueued(): readonly MultipartPart[] {
  expect(fake.queued).toHaveLength(1);
  const input = fake.queued[0] as WriteInput;
  const files = [...(input.files ?? []), ...(input.fileFields ?? []).map((part) => part.file)] as File[];
  const { body } = describeBody(input, files.map((file) => ({ name: file.name, type: file.type })));
  if (body.kind !== 'multipart') throw new Error('expected a multipart body');
  return body.parts;
}

const fileParts = (parts: readonly MultipartPart[]) => parts.filter((part) => 'file' in part).map((part) => [part.name, 'filename' in part ? part.filename : null]);

beforeEach(() => {
  fake.queued = [];
  fake.stored = 0;
  fake.logs = new Map([[LOG_ID, completedLog()]]);
});

describe('an objective comment with files', () => {
  it('sends its files as files[], in the order they were added, beside task_log_id and comment', async () => {
    const one = new File(['one'], 'one.png', { type: 'image/png' });
    const two = new File(['two'], 'two.pdf', { type: 'application/pdf' });
    const result = await postTaskComment(LOG_ID, { comment: 'Here are my photos', files: [one, two] });
    expect(result.ok).toBe(true);
    const parts = partsQueued();
    expect(fileParts(parts)).toEqual([
      ['files[]', 'one.png'],
      ['files[]', 'two.pdf'],
    ]);
    expect(parts.filter((part) => 'value' in part).map((part) => part.name)).toEqual(expect.arrayContaining(['task_log_id', 'comment']));
  });

  it('a review sends its photos as files[] too', async () => {
    const photo: EntryFile = { id: '00000000-0000-4000-8000-000000000801', name: 'run.png', mime: 'image/png', size: 11 };
    const result = await reviewTaskLog(LOG_ID, { comment: 'It went well', photos: [photo] });
    expect(result.ok).toBe(true);
    expect(fileParts(partsQueued())).toEqual([['files[]', 'run.png']]);
  });
});
