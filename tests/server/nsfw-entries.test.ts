import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { entryMessages, journalEntryResponseSchema, type JournalEntry } from '../../src/contract/entries';
import { ClassifierUnavailableError, type ClassifyResult, type ImageClassifier } from '../../server/lib/image-classifier';
import type { Client } from './support/client';
import { demoIds, signedIn } from './support/session';
import { startTestServer, storedFileCount, type TestServer } from './support/server';
import { FakeClassifier, imageAs, pngImage, postForm, type FormValue } from './support/uploads';
import { WAIT_MS } from '../support/timeouts';

/**
 * The image check on journal entries with an injected classifier: the drawing (`canvas`) is
 * checked like the attachments, at the young person's sensitivity, and a refused image stores
 * nothing (no entry row, no file on disk). GIF and WebP attachments go through the check too.
 */
let server: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;
let jamie: Client;
let fake: FakeClassifier;
/**
 * `down`: every check fails as unavailable; `answer`: every image gets this result; `together`:
 * no check answers until that many were asked (or WAIT_MS passed: then `alone` says so).
 */
let down = false;
let answer: ClassifyResult | undefined;
let together: ReturnType<typeof gathering> | null = null;
function gathering(count: number) {
  const held: (() => void)[] = [];
  const releaseAll = () => held.splice(0).forEach((release) => release());
  const timer = setTimeout(() => ((gate.alone = true), releaseAll()), WAIT_MS);
  const gate = {
    alone: false,
    arrive: () =>
      new Promise<void>((release) => {
        held.push(release);
        if (gate.alone || held.length === count) {
          clearTimeout(timer);
          releaseAll();
        }
      }),
  };
  return gate;
}
const classifier: ImageClassifier = {
  classify: async (bytes, mime) => {
    if (down) throw new ClassifierUnavailableError('image check timed out');
    await together?.arrive();
    return answer !== undefined ? answer : fake.classify(bytes, mime);
  },
  close: async () => undefined,
};

beforeAll(async () => {
  server = await startTestServer({ imageClassifier: classifier });
  ids = await demoIds(server);
  jamie = await signedIn(server, 'jamie');
});
afterAll(async () => {
  await server?.close();
});
beforeEach(() => {
  fake = new FakeClassifier();
  down = false;
  answer = undefined;
  together = null;
});

const ENTRIES = '/api/v1/projects/residents/journal/entries';
const DRAWING = pngImage(40, 30, [10, 10, 10]);
const PHOTO = pngImage(16, 16, [20, 120, 220]);
const file = (name: string, data: Buffer): FormValue => ({ name, data });
type Answer = { success: boolean; data: JournalEntry; errors?: Record<string, string[]> };
const create = (fields: [string, FormValue][]) => postForm<Answer>(server.base, jamie, ENTRIES, fields);
const update = (id: string, fields: [string, FormValue][]) => postForm<Answer>(server.base, jamie, `${ENTRIES}/${id}?_method=PUT`, fields);

/** What a refused request must leave unchanged: jamie's entries and the stored files. */
async function stored() {
  const row = await server.db
    .selectFrom('journal_entries')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('resident_id', '=', ids.resident['demo/jamie']!)
    .executeTakeFirstOrThrow();
  return { entries: Number(row.n), files: await storedFileCount(server) };
}

describe('the drawing (canvas) goes through the image check', () => {
  it('a flagged drawing is 422 canvas "Image added is inappropriate" and nothing is stored', async () => {
    fake.flag(DRAWING);
    const before = await stored();
    const res = await create([['description', 'my drawing'], ['files[0]', file('photo.png', PHOTO)], ['canvas', file('blob', DRAWING)]]);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ canvas: [entryMessages.imageInappropriate] });
    expect(fake.seen).toEqual(['image/png', 'image/png']);
    expect(await stored()).toEqual(before);
  });

  it("uses the young person's sensitivity", async () => {
    // 0.45 explicit: flagged only at high sensitivity (0.4).
    answer = { kind: 'ok', probabilities: { Porn: 0.2, Sexy: 0.2, Hentai: 0.05, Neutral: 0.5, Drawing: 0.05 } };
    const setting = () => server.db.updateTable('resident_settings').where('resident_id', '=', ids.resident['demo/jamie']!).where('name', '=', 'explicit_image_sensitivity');
    try {
      await setting().set({ value: 'medium' }).execute();
      expect((await create([['canvas', file('blob', DRAWING)]])).status).toBe(201);
      await setting().set({ value: 'high' }).execute();
      const refused = await create([['canvas', file('blob', DRAWING)]]);
      expect(refused.status).toBe(422);
      expect(refused.body.errors).toEqual({ canvas: [entryMessages.imageInappropriate] });
    } finally {
      await setting().set({ value: 'medium' }).execute();
    }
  });

  it('a drawing that will not decode is 422 canvas "File type not allowed"', async () => {
    fake.markUndecodable(DRAWING);
    const before = await stored();
    const res = await create([['description', 'x'], ['canvas', file('blob', DRAWING)]]);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ canvas: [entryMessages.fileTypeNotAllowed] });
    expect(await stored()).toEqual(before);
  });

  it('an update with a flagged drawing keeps the entry and its old drawing as they were', async () => {
    const first = await create([['description', 'first'], ['canvas', file('blob', PHOTO)]]);
    expect(first.status).toBe(201);
    const entry = journalEntryResponseSchema.parse(first.body).data;
    fake.flag(DRAWING);
    const before = await stored();
    const res = await update(entry.id, [['description', 'second'], ['canvas', file('blob', DRAWING)]]);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ canvas: [entryMessages.imageInappropriate] });
    expect(await stored()).toEqual(before);
    const shown = await jamie.get<{ data: JournalEntry }>(`${ENTRIES}/${entry.id}?relations[0]=files`);
    expect(shown.body.data).toMatchObject({ description: 'first', canvas: { id: entry.canvas!.id, size: PHOTO.length } });
  });

  it('flagged attachments keep `files`; a clean drawing beside them adds no canvas error', async () => {
    const gif = await imageAs('gif', PHOTO, DRAWING, PHOTO);
    const webp = await imageAs('webp', PHOTO);
    fake.flag(gif);
    fake.markUndecodable(webp);
    const before = await stored();
    const res = await create([['description', 'x'], ['files[0]', file('ok.png', PHOTO)], ['files[1]', file('anim.gif', gif)], ['files[2]', file('pic.webp', webp)], ['canvas', file('blob', DRAWING)]]);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      files: [entryMessages.imageInappropriate, entryMessages.fileTypeNotAllowed],
      'files.1': [entryMessages.imageInappropriate],
      'files.2': [entryMessages.fileTypeNotAllowed],
    });
    expect(fake.seen).toEqual(['image/png', 'image/gif', 'image/webp', 'image/png']);
    expect(await stored()).toEqual(before);
  });

  it("an entry's images are checked at once (the pool spreads them over its workers); errors stay in file order", async () => {
    const gif = await imageAs('gif', PHOTO, DRAWING, PHOTO);
    fake.flag(gif);
    together = gathering(4);
    const res = await create([['description', 'x'], ['files[0]', file('a.png', PHOTO)], ['files[1]', file('b.gif', gif)], ['files[2]', file('c.png', PHOTO)], ['canvas', file('blob', DRAWING)]]);
    expect(together.alone).toBe(false);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ files: [entryMessages.imageInappropriate], 'files.1': [entryMessages.imageInappropriate] });
  });

  it('when the check is unavailable the entry is 503 (Retry-After) and nothing is stored', async () => {
    down = true;
    const before = await stored();
    const res = await create([['description', 'x'], ['canvas', file('blob', DRAWING)]]);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('30');
    expect(await stored()).toEqual(before);
  });
});
