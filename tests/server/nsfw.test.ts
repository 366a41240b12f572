import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryMessages, journalEntryResponseSchema, nsfwResponseSchema } from '../../src/contract/entries';
import {
  ClassifierUnavailableError, createNsfwClassifier, explicitScore, isInappropriate, mostExplicit, NSFW_CLASSES, SENSITIVITY_THRESHOLDS,
  type ClassifyResult, type NsfwClassifier, type Probabilities,
} from '../../server/lib/image-classifier';
import type { Client } from './support/client';
import { demoIds, signedIn } from './support/session';
import { startTestServer, type TestServer } from './support/server';
import { claimDimensions, FakeClassifier, imageAs, jpegImage, PDF, pngImage, postForm } from './support/uploads';

/**
 * The image check. The real classifier (nsfwjs MobileNetV2 bundled in the package, TensorFlow.js
 * WebAssembly, sharp decoding, in a pool of worker threads) runs here on generated images: what is asserted is only
 * what is stable for such images (it runs offline, answers five probabilities summing to ~1 for
 * JPEG, PNG, GIF and WebP, looks at the first, middle and last frames of an animation and keeps
 * the most explicit, refuses what it cannot decode, a plain blue picture and a drawing are not
 * flagged). That it flags explicit pictures cannot be shown without such pictures; the threshold
 * and frame logic is shown with made-up probabilities and an injected classifier.
 */
const BLUE = pngImage(64, 64, [30, 80, 220]);
const SKIN = pngImage(64, 64, [224, 172, 140], true);
const RED = pngImage(64, 64, [200, 40, 40]);
const GREEN = pngImage(64, 64, [40, 160, 60]);
/** Strokes on a transparent background, as the journal's drawing canvas exports them. */
const drawing = () =>
  sharp(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><path d="M20 50 C 100 10, 200 250, 380 40" stroke="black" stroke-width="6" fill="none"/><circle cx="200" cy="160" r="60" stroke="#c33" stroke-width="5" fill="none"/></svg>'))
    .png()
    .toBuffer();

let real: NsfwClassifier;
beforeAll(() => {
  real = createNsfwClassifier({ timeoutMs: 120_000 });
});
afterAll(async () => {
  await real.close();
});

/** The result's probabilities, after checking they are the five classes summing to ~1. */
function probabilitiesOf(result: ClassifyResult): Probabilities {
  if (result?.kind !== 'ok') throw new Error(`not classified: ${JSON.stringify(result)}`);
  for (const p of [result.probabilities, ...(result.frames ?? []).map((f) => f.probabilities)]) {
    expect(Object.keys(p).sort()).toEqual([...NSFW_CLASSES].sort());
    const sum = Object.values(p).reduce((a, b) => a + b, 0);
    expect(sum).toBeGreaterThan(0.98);
    expect(sum).toBeLessThan(1.02);
  }
  return result.probabilities;
}

/** One run's timings, for the notes (classification time per still and per animated image). */
const timings: string[] = [];
async function timed(label: string, bytes: Buffer, mime: string) {
  const start = performance.now();
  const result = await real.classify(bytes, mime);
  timings.push(`${label}: ${Math.round(performance.now() - start)} ms`);
  return result;
}
/** The PNG SKIN's answer, asked once: lossless WebP frames of the same pixels must answer the same. */
let skinAnswer: Promise<Probabilities> | null = null;
const skinPng = () => (skinAnswer ??= timed('still image/png', SKIN, 'image/png').then(probabilitiesOf));
afterAll(() => {
  if (process.env.NSFW_TIMINGS) console.log(`image check timings\n  ${timings.join('\n  ')}`);
});

describe('the real classifier (nsfwjs, bundled model, sharp, no network)', () => {
  it('classifies JPEG and PNG into five probabilities; a plain blue picture is not flagged', { timeout: 180_000 }, async () => {
    const blue = await timed('first image (starts the workers, loads the model)', BLUE, 'image/png');
    expect(blue?.kind === 'ok' && blue.frames?.map((f) => f.frame)).toEqual([0]);
    // Every worker runs the WebAssembly backend from node_modules (no silent fall-back to the CPU one).
    const workers = await real.warm();
    expect(workers.length).toBeGreaterThanOrEqual(1);
    expect(workers.map((w) => w.backend)).toEqual(workers.map(() => 'wasm'));
    expect(isInappropriate(probabilitiesOf(blue), 'high')).toBe(false);
    await skinPng();
    probabilitiesOf(await timed('still image/jpeg', jpegImage(300, 200, [30, 80, 220]), 'image/jpeg'));
  });

  it('classifies GIF and WebP; a drawing on a transparent canvas is not flagged', { timeout: 120_000 }, async () => {
    const gif = probabilitiesOf(await timed('still image/gif', await imageAs('gif', SKIN), 'image/gif'));
    const webp = probabilitiesOf(await timed('still image/webp', await imageAs('webp', SKIN), 'image/webp'));
    // Lossless WebP holds the PNG's pixels: the same picture, the same answer.
    expect(webp).toEqual(await skinPng());
    expect(gif.Neutral + gif.Drawing).toBeGreaterThan(0.5);
    const p = probabilitiesOf(await timed('drawing (transparent PNG)', await drawing(), 'image/png'));
    expect(isInappropriate(p, 'high')).toBe(false);
  });

  it('animations: the first, middle and last frames are classified and the most explicit one counts', { timeout: 180_000 }, async () => {
    const three = await timed('animated image/gif, 3 frames', await imageAs('gif', BLUE, SKIN, BLUE), 'image/gif');
    probabilitiesOf(three);
    if (three?.kind !== 'ok') return;
    const [first, middle, last] = three.frames!;
    expect(three.frames!.map((f) => f.frame)).toEqual([0, 1, 2]);
    // Each frame is its own picture: the outer (same) frames agree, the middle one does not.
    expect(last!.probabilities).toEqual(first!.probabilities);
    expect(middle!.probabilities).not.toEqual(first!.probabilities);
    expect(explicitScore(three.probabilities)).toBe(Math.max(...three.frames!.map((f) => explicitScore(f.probabilities))));
    expect(three.probabilities).toEqual(mostExplicit(three.frames!)!.probabilities);

    // Five frames: 0, 2 and 4 are looked at; frame 2 is the skin-coloured one (same pixels as the still WebP).
    const five = await timed('animated image/webp, 5 frames', await imageAs('webp', BLUE, RED, SKIN, GREEN, BLUE), 'image/webp');
    probabilitiesOf(five);
    if (five?.kind !== 'ok') return;
    expect(five.frames!.map((f) => f.frame)).toEqual([0, 2, 4]);
    expect(five.frames![1]!.probabilities).toEqual(await skinPng());
    expect(five.frames![0]!.probabilities).toEqual(five.frames![2]!.probabilities);
  });

  it('refuses what it cannot decode, quickly: corrupt, truncated, another type inside, over 50 megapixels', { timeout: 60_000 }, async () => {
    const jpeg = await sharp(SKIN).resize(300, 300).jpeg().toBuffer();
    const cases: [string, Buffer, string][] = [
      ['corrupt PNG', Buffer.concat([BLUE.subarray(0, 40), Buffer.alloc(20)]), 'image/png'],
      ['truncated JPEG', jpeg.subarray(0, Math.floor(jpeg.length / 2)), 'image/jpeg'],
      ['GIF signature only', Buffer.from('GIF89a....'), 'image/gif'],
      ['a PNG sent as GIF', BLUE, 'image/gif'],
      ['PNG claiming 20000×20000', claimDimensions(BLUE, 20_000, 20_000), 'image/png'],
      ['PNG claiming 8000×6500 (52 MP)', claimDimensions(BLUE, 8000, 6500), 'image/png'],
    ];
    for (const [label, bytes, mime] of cases) {
      const start = performance.now();
      const result = await real.classify(bytes, mime);
      expect({ label, kind: result?.kind }).toEqual({ label, kind: 'undecodable' });
      expect(performance.now() - start).toBeLessThan(5000);
      if (label.startsWith('PNG claiming')) expect(result?.kind === 'undecodable' && result.reason).toMatch(/pixel limit/);
    }
    // Not an image: nothing to check.
    expect(await real.classify(PDF, 'application/pdf')).toBeNull();
  });

  it('a check that takes too long rejects as unavailable (the routes answer 503); the next image gets a fresh worker', { timeout: 120_000 }, async () => {
    const options = { timeoutMs: 1, workers: 1 };
    const slow = createNsfwClassifier(options);
    try {
      const first = slow.classify(BLUE, 'image/png');
      await expect(first).rejects.toBeInstanceOf(ClassifierUnavailableError);
      await expect(first).rejects.toThrow(/timed out/);
      // The terminated worker's exit must not fail the next image, sent to a new worker.
      options.timeoutMs = 120_000;
      probabilitiesOf(await slow.classify(BLUE, 'image/png'));
    } finally {
      await slow.close();
    }
  });

  it('thresholds: Porn + Hentai + Sexy against 0.8 / 0.6 / 0.4', () => {
    const p = { Porn: 0.3, Hentai: 0.1, Sexy: 0.1, Neutral: 0.4, Drawing: 0.1 };
    expect(SENSITIVITY_THRESHOLDS).toEqual({ low: 0.8, medium: 0.6, high: 0.4 });
    expect(isInappropriate(p, 'high')).toBe(true);
    expect(isInappropriate(p, 'medium')).toBe(false);
    expect(isInappropriate(p, 'low')).toBe(false);
  });

  it('frames: an innocent first frame does not hide an explicit later one', () => {
    const innocent = { Porn: 0.01, Hentai: 0.01, Sexy: 0.02, Neutral: 0.9, Drawing: 0.06 };
    const explicit = { Porn: 0.7, Hentai: 0.05, Sexy: 0.15, Neutral: 0.05, Drawing: 0.05 };
    for (const order of [[innocent, explicit, innocent], [innocent, innocent, explicit], [explicit, innocent, innocent]]) {
      const worst = mostExplicit(order.map((probabilities, frame) => ({ frame, probabilities })));
      expect(worst?.probabilities).toBe(explicit);
      expect(isInappropriate(worst!.probabilities, 'low')).toBe(true);
    }
    expect(mostExplicit([])).toBeNull();
  });
});

describe('POST /api/v1/projects/residents/{id}/photos/nsfw', () => {
  let server: TestServer;
  let ids: Awaited<ReturnType<typeof demoIds>>;
  let jamie: Client;
  const fake = new FakeClassifier();
  /** The server's classifier: the fake, or the real one for the end-to-end test. */
  let use: 'fake' | 'real' = 'fake';
  beforeAll(async () => {
    server = await startTestServer({
      imageClassifier: { classify: (bytes, mime) => (use === 'real' ? real : fake).classify(bytes, mime), close: async () => undefined },
    });
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
    const pdf = await postForm<{ errors: Record<string, string[]> }>(server.base, jamie, path(), [['image', { name: 'a.pdf', data: PDF }]]);
    expect(pdf.status).toBe(422);
    // The entry routes run the same check even when the client skipped it (offline).
    const entry = await postForm<{ errors: Record<string, string[]> }>(server.base, jamie, '/api/v1/projects/residents/journal/entries', [['description', 'pic'], ['files[0]', { name: 'x.png', data: SKIN }]]);
    expect(entry.status).toBe(422);
    expect(entry.body.errors.files).toEqual([entryMessages.imageInappropriate]);
  });

  it('checks GIF and WebP too; an image it cannot decode is 422 image "File type not allowed"', async () => {
    const gif = await imageAs('gif', BLUE, SKIN, BLUE);
    const webp = await imageAs('webp', RED);
    fake.flag(gif);
    const flaggedGif = await postForm(server.base, jamie, path(), [['image', { name: 'a.gif', data: gif }]]);
    expect(flaggedGif.status).toBe(200);
    expect(nsfwResponseSchema.parse(flaggedGif.body).data.inappropriate).toBe(true);
    const cleanWebp = await postForm(server.base, jamie, path(), [['image', { name: 'a.webp', data: webp }]]);
    expect(nsfwResponseSchema.parse(cleanWebp.body).data.inappropriate).toBe(false);
    expect(fake.seen.slice(-2)).toEqual(['image/gif', 'image/webp']);
    const bomb = claimDimensions(BLUE, 20_000, 20_000);
    fake.markUndecodable(bomb);
    const refused = await postForm<{ errors: Record<string, string[]> }>(server.base, jamie, path(), [['image', { name: 'big.png', data: bomb }]]);
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ image: [entryMessages.fileTypeNotAllowed] });
  });

  it('end to end with the real model: a GIF is checked, a drawing and a WebP photo are saved, a 400-megapixel PNG is refused', { timeout: 120_000 }, async () => {
    use = 'real';
    try {
      const res = await postForm(server.base, jamie, path(), [['image', { name: 'a.gif', data: await imageAs('gif', BLUE) }]]);
      expect(res.status).toBe(200);
      expect(nsfwResponseSchema.parse(res.body).data).toEqual({ inappropriate: false, sensitivity: 'high' });
      const saved = await postForm(server.base, jamie, '/api/v1/projects/residents/journal/entries', [
        ['description', 'Drew a thing'],
        ['files[0]', { name: 'sky.webp', data: await imageAs('webp', BLUE) }],
        ['canvas', { name: 'blob', data: await drawing() }],
      ]);
      expect(saved.status).toBe(201);
      const entry = journalEntryResponseSchema.parse(saved.body).data;
      expect(entry.files.map((f) => f.mime)).toEqual(['image/webp']);
      expect(entry.canvas?.mime).toBe('image/png');
      const bomb = await postForm<{ errors: Record<string, string[]> }>(server.base, jamie, '/api/v1/projects/residents/journal/entries', [
        ['description', 'Big'],
        ['files[0]', { name: 'big.png', data: claimDimensions(BLUE, 20_000, 20_000) }],
      ]);
      expect(bomb.status).toBe(422);
      expect(bomb.body.errors).toEqual({ files: [entryMessages.fileTypeNotAllowed], 'files.0': [entryMessages.fileTypeNotAllowed] });
    } finally {
      use = 'fake';
    }
  });
});
