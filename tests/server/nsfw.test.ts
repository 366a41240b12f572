import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryMessages, nsfwResponseSchema } from '../../src/contract/entries';
import { createNsfwClassifier, isInappropriate, NSFW_CLASSES, SENSITIVITY_THRESHOLDS, type ImageClassifier } from '../../server/lib/image-classifier';
import type { Client } from './support/client';
import { demoIds, signedIn } from './support/session';
import { startTestServer, type TestServer } from './support/server';
import { FakeClassifier, jpegImage, pngImage, postForm } from './support/uploads';

/**
 * The image check. The real classifier (nsfwjs MobileNetV2 bundled in the package, TensorFlow.js
 * CPU, in a worker thread) runs here on generated images: what is asserted is only what is stable
 * for such images (it runs offline, answers five probabilities summing to ~1, a plain blue picture
 * is not flagged). That it flags explicit pictures cannot be shown without such pictures; the
 * threshold logic is shown with an injected classifier.
 */
const BLUE = pngImage(64, 64, [30, 80, 220]);
const SKIN = pngImage(64, 64, [224, 172, 140], true);

describe('the real classifier (nsfwjs, bundled model, no network)', () => {
  let classifier: ImageClassifier;
  beforeAll(() => {
    classifier = createNsfwClassifier({ timeoutMs: 120_000 });
  });
  afterAll(async () => {
    await classifier.close();
  });

  it('classifies JPEG and PNG into five probabilities; a plain blue picture is not flagged', { timeout: 180_000 }, async () => {
    for (const [bytes, mime] of [[BLUE, 'image/png'], [SKIN, 'image/png'], [jpegImage(300, 200, [30, 80, 220]), 'image/jpeg']] as const) {
      const result = await classifier.classify(bytes, mime);
      expect(result?.kind).toBe('ok');
      if (result?.kind !== 'ok') return;
      expect(Object.keys(result.probabilities).sort()).toEqual([...NSFW_CLASSES].sort());
      const sum = Object.values(result.probabilities).reduce((a, b) => a + b, 0);
      expect(sum).toBeGreaterThan(0.98);
      expect(sum).toBeLessThan(1.02);
      if (bytes === BLUE) expect(isInappropriate(result.probabilities, 'high')).toBe(false);
    }
    expect(await classifier.classify(Buffer.from('GIF89a....'), 'image/gif')).toBeNull();
    expect(await classifier.classify(Buffer.concat([BLUE.subarray(0, 40), Buffer.alloc(20)]), 'image/png')).toEqual({ kind: 'undecodable' });
  });

  it('thresholds: Porn + Hentai + Sexy against 0.8 / 0.6 / 0.4', () => {
    const p = { Porn: 0.3, Hentai: 0.1, Sexy: 0.1, Neutral: 0.4, Drawing: 0.1 };
    expect(SENSITIVITY_THRESHOLDS).toEqual({ low: 0.8, medium: 0.6, high: 0.4 });
    expect(isInappropriate(p, 'high')).toBe(true);
    expect(isInappropriate(p, 'medium')).toBe(false);
    expect(isInappropriate(p, 'low')).toBe(false);
  });
});

describe('POST /api/v1/projects/residents/{id}/photos/nsfw', () => {
  let server: TestServer;
  let ids: Awaited<ReturnType<typeof demoIds>>;
  let jamie: Client;
  const fake = new FakeClassifier();
  beforeAll(async () => {
    server = await startTestServer({ imageClassifier: fake });
    ids = await demoIds(server);
    jamie = await signedIn(server, 'jamie');
  });
  afterAll(async () => {
    await server?.close();
  });
  const path = () => `/api/v1/projects/residents/${ids.resident['demo/jamie']}/photos/nsfw`;

  it("answers with the young person's sensitivity; staff of the home may ask, others get 404", async () => {
    const ok = await postForm(server.base, jamie, path(), [['image', { name: 'blue.png', data: BLUE }]]);
    expect(ok.status).toBe(200);
    expect(nsfwResponseSchema.parse(ok.body).data).toEqual({ inappropriate: false, sensitivity: 'medium' });
    fake.flag(SKIN);
    const flagged = await postForm(server.base, jamie, path(), [['image', { name: 'x.png', data: SKIN }]]);
    expect(nsfwResponseSchema.parse(flagged.body).data).toEqual({ inappropriate: true, sensitivity: 'medium' });
    await server.db.updateTable('resident_settings').set({ value: 'high' }).where('resident_id', '=', ids.resident['demo/jamie']!).where('name', '=', 'explicit_image_sensitivity').execute();
    const high = await postForm(server.base, jamie, path(), [['image', { name: 'blue.png', data: BLUE }]]);
    expect(nsfwResponseSchema.parse(high.body).data.sensitivity).toBe('high');
    const ali = await signedIn(server, 'carer.ali');
    expect((await postForm(server.base, ali, path(), [['image', { name: 'blue.png', data: BLUE }]])).status).toBe(200);
    const sam = await signedIn(server, 'sam');
    expect((await postForm(server.base, sam, path(), [['image', { name: 'blue.png', data: BLUE }]])).status).toBe(404);
    const text = await postForm<{ errors: Record<string, string[]> }>(server.base, jamie, path(), [['image', { name: 'a.png', data: Buffer.from('hello') }]]);
    expect(text.status).toBe(422);
    expect(text.body.errors.image).toEqual([entryMessages.fileTypeNotAllowed]);
    // The entry routes run the same check even when the client skipped it (offline).
    const entry = await postForm<{ errors: Record<string, string[]> }>(server.base, jamie, '/api/v1/projects/residents/journal/entries', [['description', 'pic'], ['files[0]', { name: 'x.png', data: SKIN }]]);
    expect(entry.status).toBe(422);
    expect(entry.body.errors.files).toEqual([entryMessages.imageInappropriate]);
  });
});
