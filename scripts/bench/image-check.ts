/**
 * Bench section: the image check (issue 13). The same pictures go through the old set-up (the
 * pure-JavaScript CPU backend on one worker thread, one picture at a time) and the new one
 * (WebAssembly backend, the pool's default number of workers) in one run, so the ratios compare
 * like with like on this machine:
 *
 *   - one still photo: cold (a fresh classifier: workers start, the model loads) and warm (median of 5);
 *   - 8 different photos at once (wall time, and each check's time);
 *   - a journal entry with 5 animated images and a drawing, POSTed to the real server (its route
 *     checks them; before issue 13 one after the other);
 *   - equivalence: the probabilities both backends give for every frame looked at (these pictures
 *     and the test suite's generated ones): the largest difference, and whether the classes come
 *     in the same order.
 *
 * The pictures are generated (no photo is stored in the repository): 1600×1200 JPEG "photos" (the
 * PWA's upload size) of gradients, shapes and grain, 10-frame 480×360 animations, a drawing on a
 * transparent canvas. IMAGE_BENCH_OLD=0 skips the old backend (it takes most of the time).
 */
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import sharp from 'sharp';
import { createNsfwClassifier, explicitScore, NSFW_CLASSES, type FrameResult, type ImageClassifier, type NsfwClassifier, type NsfwClassifierOptions, type Probabilities } from '../../server/lib/image-classifier';
import { CSRF_COOKIE, CSRF_HEADER } from '../../src/contract/app-config';
import { startTestServer } from '../../tests/server/support/server';

const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const round = (n: number, digits = 0) => Number(n.toFixed(digits));
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
};

/** A deterministic pseudo-random sequence (the pictures are the same every run). */
function random(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

/** A photo-sized JPEG: a gradient, some soft shapes and film grain, as a phone photo resized by the PWA. */
async function photo(seed: number, width = 1600, height = 1200): Promise<Buffer> {
  const r = random(seed);
  const colour = () => `rgb(${Math.floor(r() * 255)},${Math.floor(r() * 255)},${Math.floor(r() * 255)})`;
  const shapes = Array.from({ length: 14 }, () => `<ellipse cx="${r() * width}" cy="${r() * height}" rx="${40 + r() * 300}" ry="${40 + r() * 200}" fill="${colour()}" opacity="${0.3 + r() * 0.6}"/>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" x1="0" y1="0" x2="${r()}" y2="1"><stop offset="0" stop-color="${colour()}"/><stop offset="1" stop-color="${colour()}"/></linearGradient><filter id="b"><feGaussianBlur stdDeviation="12"/></filter></defs><rect width="100%" height="100%" fill="url(#g)"/><g filter="url(#b)">${shapes}</g></svg>`;
  const grain = await sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 18 } } }).png().toBuffer();
  return sharp(Buffer.from(svg)).composite([{ input: grain, blend: 'overlay' }]).jpeg({ quality: 82 }).toBuffer();
}

/** An animation of `frames` 480×360 frames (shapes moving over a gradient) as GIF or WebP. */
async function animation(seed: number, format: 'gif' | 'webp', frames = 10): Promise<Buffer> {
  const pictures = await Promise.all(Array.from({ length: frames }, (_, i) => photo(seed * 100 + i, 480, 360).then((jpeg) => sharp(jpeg).png().toBuffer())));
  const input = sharp(pictures, { join: { animated: true } });
  return format === 'gif' ? input.gif().toBuffer() : input.webp({ quality: 80 }).toBuffer();
}

/** Strokes on a transparent canvas, as the journal's drawing is exported. */
const drawing = () =>
  sharp(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="600"><path d="M40 100 C 250 20, 500 500, 950 80" stroke="#222" stroke-width="8" fill="none"/><circle cx="500" cy="320" r="150" stroke="#c33" stroke-width="7" fill="none"/><path d="M100 500 L 300 420 L 420 560" stroke="#36c" stroke-width="10" fill="none"/></svg>'))
    .png()
    .toBuffer();

/** The test suite's generated pictures (tests/server/nsfw.test.ts): solid colours and a gradient. */
async function testPictures(): Promise<[string, Buffer][]> {
  const solid = (rgb: [number, number, number]) => sharp({ create: { width: 64, height: 64, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } }).png().toBuffer();
  const skin = sharp(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><defs><linearGradient id="g"><stop offset="0" stop-color="rgb(224,172,140)"/><stop offset="1" stop-color="rgb(160,110,80)"/></linearGradient></defs><rect width="64" height="64" fill="url(#g)"/></svg>')).png().toBuffer();
  return Promise.all([
    ['blue', solid([30, 80, 220])],
    ['red', solid([200, 40, 40])],
    ['green', solid([40, 160, 60])],
    ['skin gradient', skin],
  ].map(async ([name, bytes]) => [name as string, await (bytes as Promise<Buffer>)] as [string, Buffer]));
}

interface Pictures {
  photos: Buffer[];
  animations: { name: string; bytes: Buffer; mime: string }[];
  drawing: Buffer;
  tests: [string, Buffer][];
}

async function pictures(): Promise<Pictures> {
  const formats = ['gif', 'webp', 'gif', 'webp', 'gif'] as const;
  return {
    photos: await Promise.all(Array.from({ length: 8 }, (_, i) => photo(i + 1))),
    animations: await Promise.all(formats.map(async (format, i) => ({ name: `anim-${i}.${format}`, bytes: await animation(i + 11, format), mime: `image/${format}` }))),
    drawing: await drawing(),
    tests: await testPictures(),
  };
}

interface Run {
  backend: string;
  workers: number;
  coldStillMs: number;
  warmStillMs: number;
  concurrent8: { wallMs: number; medianMs: number; maxMs: number };
  entry: { ms: number; status: number; errors: unknown; frames: number };
  /** Process memory after warming minus before, per worker (MB). */
  rssPerWorkerMb: number;
  /** Probabilities per picture frame, for the equivalence check. */
  answers: Map<string, Probabilities>;
}

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

function framesOf(label: string, result: Awaited<ReturnType<ImageClassifier['classify']>>, into: Map<string, Probabilities>) {
  if (result?.kind !== 'ok') throw new Error(`${label}: not classified (${JSON.stringify(result)})`);
  for (const f of result.frames ?? ([{ frame: 0, probabilities: result.probabilities }] as FrameResult[])) into.set(`${label}#${f.frame}`, f.probabilities);
  return result.frames?.length ?? 1;
}

/** A signed-in multipart POST with the client's cookies and CSRF header, as the PWA sends it. */
async function postEntry(base: string, jar: Map<string, string>, p: Pictures): Promise<{ status: number; errors: unknown }> {
  const form = new FormData();
  form.append('description', 'Bench: five animations and a drawing');
  p.animations.forEach((a, i) => form.append(`files[${i}]`, new Blob([new Uint8Array(a.bytes)], { type: a.mime }), a.name));
  form.append('canvas', new Blob([new Uint8Array(p.drawing)], { type: 'image/png' }), 'blob');
  const res = await fetch(`${base}/api/v1/projects/residents/journal/entries`, {
    method: 'POST',
    headers: { accept: 'application/json', cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '), [CSRF_HEADER]: jar.get(CSRF_COOKIE) ?? '' },
    body: form,
  });
  const body = (await res.json().catch(() => ({}))) as { errors?: unknown };
  // 201, or 422 when the model flags one of the generated pictures: either way every image was checked.
  return { status: res.status, errors: body.errors ?? null };
}

async function run(options: NsfwClassifierOptions, p: Pictures, server: { use: (c: ImageClassifier) => void; post: () => ReturnType<typeof postEntry> }): Promise<Run> {
  const answers = new Map<string, Probabilities>();
  const classifier: NsfwClassifier = createNsfwClassifier(options);
  try {
    const rssBefore = process.memoryUsage().rss;
    const cold = await timed(() => classifier.classify(p.photos[0]!, 'image/jpeg'));
    framesOf('photo-1', cold.value, answers);
    const ready = await classifier.warm();
    const rssPerWorkerMb = (process.memoryUsage().rss - rssBefore) / 2 ** 20 / ready.length;
    const warm: number[] = [];
    for (let i = 0; i < 5; i++) warm.push((await timed(() => classifier.classify(p.photos[0]!, 'image/jpeg'))).ms);

    const each = await timed(() => Promise.all(p.photos.map((bytes, i) => timed(() => classifier.classify(bytes, 'image/jpeg')).then((r) => (framesOf(`photo-${i + 1}`, r.value, answers), r.ms)))));

    // The entry through the real route (its upload parsing, the check of every image, storing);
    // what the route's checks answered is kept for the equivalence check.
    const names = new Map([...p.animations.map((a) => [digest(a.bytes), a.name] as const), [digest(p.drawing), 'drawing']]);
    let frames = 0;
    server.use({
      classify: async (bytes, mime) => {
        const result = await classifier.classify(bytes, mime);
        frames += framesOf(names.get(digest(bytes)) ?? 'unknown', result, answers);
        return result;
      },
      close: async () => undefined,
    });
    const entry = await timed(() => server.post());
    for (const [name, bytes] of p.tests) framesOf(`test ${name}`, await classifier.classify(bytes, 'image/png'), answers);

    return {
      backend: ready[0]?.backend ?? 'unknown',
      workers: ready.length,
      coldStillMs: round(cold.ms),
      warmStillMs: round(median(warm)),
      concurrent8: { wallMs: round(each.ms), medianMs: round(median(each.value)), maxMs: round(Math.max(...each.value)) },
      entry: { ms: round(entry.ms), ...entry.value, frames },
      rssPerWorkerMb: round(rssPerWorkerMb),
      answers,
    };
  } finally {
    await classifier.close();
  }
}

/** Largest difference between the two backends' probabilities, and whether the classes rank the same. */
function equivalence(a: Map<string, Probabilities>, b: Map<string, Probabilities>) {
  let maxAbsDiff = 0;
  let maxExplicitDiff = 0;
  let sameOrder = 0;
  let sameTop = 0;
  let worst = '';
  const rank = (p: Probabilities) => [...NSFW_CLASSES].sort((x, y) => p[y] - p[x]).join(' > ');
  for (const [key, p] of a) {
    const q = b.get(key);
    if (!q) throw new Error(`${key}: answered by one backend only`);
    for (const c of NSFW_CLASSES) {
      const d = Math.abs(p[c] - q[c]);
      if (d > maxAbsDiff) [maxAbsDiff, worst] = [d, `${key} ${c}`];
    }
    maxExplicitDiff = Math.max(maxExplicitDiff, Math.abs(explicitScore(p) - explicitScore(q)));
    if (rank(p) === rank(q)) sameOrder++;
    if (rank(p).split(' > ')[0] === rank(q).split(' > ')[0]) sameTop++;
  }
  return { frames: a.size, maxAbsDiff: Number(maxAbsDiff.toExponential(2)), worst, maxExplicitScoreDiff: Number(maxExplicitDiff.toExponential(2)), sameClassOrder: sameOrder, sameTopClass: sameTop };
}

export async function imageCheckBench() {
  const p = await pictures();
  // The server's image check is whichever classifier the run in progress has made.
  let current: ImageClassifier | null = null;
  const server = await startTestServer({
    imageClassifier: {
      classify: (bytes, mime) => (current ? current.classify(bytes, mime) : Promise.reject(new Error('no classifier'))),
      close: async () => undefined,
    },
  });
  try {
    await server.db.updateTable('resident_settings').set({ value: 'medium' }).where('name', '=', 'explicit_image_sensitivity').execute();
    const client = server.client();
    const login = await client.login('jamie', 'hearth-demo-1', 'demo');
    if (login.status !== 200) throw new Error(`login answered ${login.status}`);
    await client.csrf();
    const entryServer = { use: (c: ImageClassifier) => (current = c), post: () => postEntry(server.base, client.jar, p) };

    const wantOld = process.env.IMAGE_BENCH_OLD !== '0';
    const old = wantOld ? await run({ backend: 'cpu', workers: 1 }, p, entryServer) : null;
    const fresh = await run({ backend: 'wasm' }, p, entryServer);
    const ratio = (a: number | undefined, b: number) => (a === undefined ? null : round(a / b, 1));
    const strip = ({ answers, ...rest }: Run) => (void answers, rest);
    return {
      cores: availableParallelism(),
      pictures: {
        photoBytes: p.photos.map((b) => b.length),
        animationBytes: p.animations.map((a) => a.bytes.length),
        animationFrames: 10,
        drawingBytes: p.drawing.length,
      },
      old: old && strip(old),
      new: strip(fresh),
      /** old / new: how many times faster. */
      speedup: {
        coldStill: ratio(old?.coldStillMs, fresh.coldStillMs),
        warmStill: ratio(old?.warmStillMs, fresh.warmStillMs),
        concurrent8: ratio(old?.concurrent8.wallMs, fresh.concurrent8.wallMs),
        entry: ratio(old?.entry.ms, fresh.entry.ms),
      },
      equivalence: old ? equivalence(old.answers, fresh.answers) : null,
    };
  } finally {
    await server.close();
  }
}
