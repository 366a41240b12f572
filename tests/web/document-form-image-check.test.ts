import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { EntryFile } from '@/contract/entries';
import { messages } from '@/contract/messages';
import type * as ReplicaDocuments from '@/data/replica/documents';
import { submitDocumentForm } from '@/features/documents/actions/submit-form';
import { duuid, formDoc } from './support/document-fixtures';

/**
 * SPEC §5 "Images are checked for inappropriate content ('Image added is inappropriate')": a form
 * document's pictures are checked on the device before the answers are queued, as a journal entry's
 * and an objective comment's are (docs/decisions.md "Image check"); a refused one is named beside its
 * question and nothing is queued. The replica, the outbox and the check are stand-ins here (the data
 * layer's tests run them for real; the server checks again on arrival).
 */
const fake = vi.hoisted(() => ({
  doc: null as unknown,
  queued: [] as unknown[],
  stateChanges: 0,
  checked: [] as string[][],
  refuse: new Set<string>(),
  online: true,
}));

vi.mock('@/entries/data/replica-for-write', () => ({
  replicaForWrite: async () => ({ identity: { userId: duuid(1), residentId: duuid(2) }, db: {} }),
}));
vi.mock('@/data/replica/documents', async (importOriginal) => ({
  ...(await importOriginal<typeof ReplicaDocuments>()),
  readDocument: async () => fake.doc,
  readDocumentState: async () => null,
  changeDocumentState: async () => {
    fake.stateChanges += 1;
    return null;
  },
}));
vi.mock('@/entries/data/local-files', () => ({
  readLocalFile: async (_db: unknown, file: EntryFile) => new File([`bytes of ${file.name}`], file.name, { type: file.mime || 'image/png' }),
}));
vi.mock('@/entries/data/check-images', () => ({
  checkImages: async (_resident: string | null, files: readonly File[]) => {
    if (!fake.online) return { outcome: 'offline' };
    fake.checked.push(files.map((file) => file.name));
    return files.some((file) => fake.refuse.has(file.name)) ? { outcome: 'refused', field: 'files' } : { outcome: 'ok' };
  },
}));
vi.mock('@/data/outbox/outbox', () => ({
  enqueueWrite: async (input: unknown) => {
    fake.queued.push(input);
    return { outboxId: 'x' };
  },
  newIdempotencyKey: () => crypto.randomUUID(),
  withdrawUnsentWrite: async () => true,
}));

const FIELDS = [
  { id: 'going_well', kind: 'large_text', label: 'What is going well?', required: true },
  { id: 'my_photo', kind: 'image', label: 'A photo of me', required: false },
  { id: 'things', kind: 'embedded_files', label: 'Things to show', required: false },
];
const form = formDoc(30, 'My views', FIELDS);
const file = (n: number, name: string): EntryFile => ({ id: duuid(800 + n), name, mime: 'image/png', size: 10 });
const photo = file(1, 'me.png');
const extra = file(2, 'drawing.png');
const answers = { going_well: 'Football', my_photo: { file_id: photo.id }, things: [{ file_id: extra.id }] };

beforeEach(() => {
  fake.doc = form;
  fake.queued = [];
  fake.stateChanges = 0;
  fake.checked = [];
  fake.refuse = new Set();
  fake.online = true;
});

describe('a form document with pictures', () => {
  it('an inappropriate picture is refused beside its question, and nothing is queued', async () => {
    fake.refuse.add('drawing.png');
    const result = await submitDocumentForm(form.id, answers, [photo, extra]);
    expect(result).toEqual({ ok: false, message: messages.imageInappropriate, errors: { things: [messages.imageInappropriate] } });
    expect(fake.queued).toEqual([]);
    expect(fake.stateChanges).toBe(0);
  });

  it('pictures that pass are checked, question by question, and the answers queued', async () => {
    const result = await submitDocumentForm(form.id, answers, [photo, extra]);
    expect(result.ok).toBe(true);
    expect(fake.checked).toEqual([['me.png'], ['drawing.png']]);
    expect(fake.queued).toHaveLength(1);
  });

  it('offline the answers are queued (the server checks them when they arrive)', async () => {
    fake.online = false;
    const result = await submitDocumentForm(form.id, answers, [photo, extra]);
    expect(result.ok).toBe(true);
    expect(fake.queued).toHaveLength(1);
  });
});
