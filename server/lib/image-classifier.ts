import { availableParallelism } from 'node:os';
import { ImageCheckPool, type PoolStats, type WorkerReady } from './image-check-pool';

/**
 * The image check of SPEC §5/§8 ("Image added is inappropriate"). The real classifier is nsfwjs 4
 * (MobileNetV2, bundled in the npm package: nothing is downloaded) on TensorFlow.js's WebAssembly
 * backend (its .wasm files ship in @tensorflow/tfjs-backend-wasm and are read from node_modules),
 * in a small pool of worker threads (lib/image-check-pool.ts, lib/nsfw-worker.mjs), so checks run
 * in parallel across cores and never block the event loop: about 0.15 s per picture where the
 * pure-JavaScript CPU backend took 1.1 s. Each worker decodes with sharp (libvips) straight to the
 * model's 224×224 input: JPEG, PNG, GIF and WebP; animated GIF and WebP are checked on up to three
 * frames (first, middle, last), spread over the pool, and the most explicit frame counts. Each
 * check (all its frames) is time-bound: a timeout terminates the workers running it (a fresh one
 * starts when needed; other checks go on) and the request answers 503, which clients retry. Tests
 * inject their own classifier through buildApp({ imageClassifier }).
 */
export const NSFW_CLASSES = ['Drawing', 'Hentai', 'Neutral', 'Porn', 'Sexy'] as const;
export type NsfwClass = (typeof NSFW_CLASSES)[number];
export type Probabilities = Record<NsfwClass, number>;

export type Sensitivity = 'low' | 'medium' | 'high';

/**
 * An image is inappropriate when Porn + Hentai + Sexy reaches the threshold of the young person's
 * explicit_image_sensitivity setting: high sensitivity flags earlier.
 */
export const SENSITIVITY_THRESHOLDS: Record<Sensitivity, number> = { low: 0.8, medium: 0.6, high: 0.4 };

export const explicitScore = (p: Probabilities): number => (p.Porn ?? 0) + (p.Hentai ?? 0) + (p.Sexy ?? 0);
export const isInappropriate = (p: Probabilities, sensitivity: Sensitivity): boolean =>
  explicitScore(p) >= SENSITIVITY_THRESHOLDS[sensitivity];

export const toSensitivity = (value: string | null | undefined): Sensitivity =>
  value === 'low' || value === 'high' ? value : 'medium';

/** One classified frame of a picture (frame 0 for a still image). */
export interface FrameResult {
  frame: number;
  probabilities: Probabilities;
}

/**
 * `ok`: the probabilities of the most explicit frame looked at (`frames`: each of them, when the
 * real classifier answered). `undecodable`: the bytes are not a readable image of the type (corrupt,
 * truncated, more than 50 megapixels a frame): callers refuse the file (docs/decisions.md).
 * `null`: not an image type (a PDF): nothing to check.
 */
export type ClassifyResult =
  | { kind: 'ok'; probabilities: Probabilities; frames?: FrameResult[] }
  | { kind: 'undecodable'; reason?: string }
  | null;

export interface ImageClassifier {
  classify(bytes: Buffer, mime: string): Promise<ClassifyResult>;
  close(): Promise<void>;
}

export class ClassifierUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClassifierUnavailableError';
  }
}

/** The most explicit of the frames (by Porn + Hentai + Sexy): one explicit frame flags the picture. */
export function mostExplicit(frames: FrameResult[]): FrameResult | null {
  let worst: FrameResult | null = null;
  for (const f of frames) if (!worst || explicitScore(f.probabilities) > explicitScore(worst.probabilities)) worst = f;
  return worst;
}

export const DECODABLE_IMAGES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/**
 * sharp is loaded once in the main thread too before the first worker starts: its native library
 * then stays loaded when a timed-out worker is terminated (sharp's advice for worker threads).
 */
let sharpInMainThread: Promise<unknown> | null = null;
const keepSharpLoaded = () =>
  (sharpInMainThread ??= import('sharp').catch((error: unknown) => {
    sharpInMainThread = null;
    throw new ClassifierUnavailableError(`image decoder not available: ${error instanceof Error ? error.message : String(error)}`);
  }));

/** One worker per core, at most two: each holds about 100 MB (model, WebAssembly heap, sharp). */
export const defaultImageCheckWorkers = (): number => Math.max(1, Math.min(availableParallelism(), 2));

export type ImageCheckBackend = 'wasm' | 'cpu';

export interface NsfwClassifierOptions {
  /** Per check, all its frames (default 30 s); read for each check, so a test may change it. */
  timeoutMs?: number;
  /** Worker threads (default defaultImageCheckWorkers()). */
  workers?: number;
  /** 'wasm' (default) or the old pure-JavaScript 'cpu' backend (bench comparisons). */
  backend?: ImageCheckBackend;
  /** Start every worker and load its model now (server start); otherwise with the first image. */
  warm?: boolean;
  /** Tests: another worker script that answers the same messages (lib/nsfw-worker.mjs). */
  workerUrl?: URL;
  log?: { info: (details: object, message: string) => void; warn: (details: object, message: string) => void };
}

export interface NsfwClassifier extends ImageClassifier {
  /** Starts every worker; resolves when each has loaded its model (with the backend it runs). */
  warm(): Promise<WorkerReady[]>;
  stats(): PoolStats;
}

export function createNsfwClassifier(options: NsfwClassifierOptions = {}): NsfwClassifier {
  const pool = new ImageCheckPool({
    size: options.workers ?? defaultImageCheckWorkers(),
    workerUrl: options.workerUrl ?? new URL('./nsfw-worker.mjs', import.meta.url),
    workerData: { backend: options.backend ?? 'wasm' },
    timeoutMs: () => options.timeoutMs ?? 30_000,
    beforeFirstWorker: keepSharpLoaded,
    unavailable: (message) => new ClassifierUnavailableError(message),
    log: options.log,
  });
  // The whole pool starts at once (now, or with the first image), so that the next pictures, or an
  // animation's other frames, find a model loaded instead of starting a worker each.
  let warming = false;
  let closing = false;
  const warmAll = () => {
    warming = true;
    pool.warm().then(
      (workers) => options.log?.info({ workers }, 'image check ready'),
      (error: unknown) => {
        warming = false;
        if (!closing) options.log?.warn({ err: error }, 'image check did not start; it is tried again with the next image');
      },
    );
  };
  if (options.warm) warmAll();
  return {
    async classify(bytes, mime) {
      if (!DECODABLE_IMAGES.has(mime)) return null;
      if (!warming) warmAll();
      const answer = await pool.check(bytes, mime);
      if ('undecodable' in answer) return { kind: 'undecodable', reason: answer.undecodable };
      const frames = answer.frames as FrameResult[];
      const worst = mostExplicit(frames);
      return worst ? { kind: 'ok', probabilities: worst.probabilities, frames } : null;
    },
    warm: () => pool.warm(),
    stats: () => pool.stats(),
    close: () => {
      closing = true;
      return pool.close();
    },
  };
}
