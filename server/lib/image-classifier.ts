import { Worker } from 'node:worker_threads';

/**
 * The image check of SPEC §5/§8 ("Image added is inappropriate"). The real classifier is nsfwjs 4
 * (MobileNetV2, bundled in the npm package: nothing is downloaded) on TensorFlow.js's pure-JS CPU
 * backend, in a worker thread (lib/nsfw-worker.mjs) so a classification (about 1.1 s per picture
 * on two cores) never blocks the event loop. The worker decodes with sharp (libvips): JPEG, PNG,
 * GIF and WebP; animated GIF and WebP are checked on up to three frames (first, middle, last) and
 * the most explicit frame counts. The worker starts, and loads the model, on the first image, and
 * is kept; images are checked one at a time; each check (all its frames) is time-bound: a timeout
 * terminates the worker (the next image starts a fresh one) and the request answers 503, which
 * clients retry. Tests inject their own classifier through buildApp({ imageClassifier }).
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

type WorkerAnswer = { id: number; frames?: FrameResult[]; probabilities?: null; undecodable?: string; error?: string };

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

interface Pending {
  /** The worker the image was sent to: only its own failure fails the check. */
  worker: Worker;
  resolve: (result: ClassifyResult) => void;
  reject: (error: Error) => void;
}

/** `timeoutMs` (default 30 s) is read for each image, so a test may change it between checks. */
export function createNsfwClassifier(options: { timeoutMs?: number } = {}): ImageClassifier {
  let worker: Worker | null = null;
  let nextId = 1;
  const pending = new Map<number, Pending>();
  let queue: Promise<unknown> = Promise.resolve();

  /** Fails the checks sent to `w`; not those of a fresh worker started after `w` timed out. */
  const failAll = (w: Worker, error: Error) => {
    for (const [id, p] of pending) {
      if (p.worker !== w) continue;
      pending.delete(id);
      p.reject(error);
    }
  };
  const start = (): Worker => {
    if (worker) return worker;
    const w = new Worker(new URL('./nsfw-worker.mjs', import.meta.url));
    w.unref();
    w.on('message', (message: WorkerAnswer) => {
      const p = pending.get(message.id);
      if (!p) return;
      pending.delete(message.id);
      if (message.error) return p.reject(new ClassifierUnavailableError(message.error));
      if (message.undecodable !== undefined) return p.resolve({ kind: 'undecodable', reason: message.undecodable });
      const worst = mostExplicit(message.frames ?? []);
      p.resolve(worst ? { kind: 'ok', probabilities: worst.probabilities, frames: message.frames } : null);
    });
    w.on('error', (error) => {
      if (worker === w) worker = null;
      failAll(w, new ClassifierUnavailableError(error.message));
    });
    w.on('exit', () => {
      if (worker === w) worker = null;
      failAll(w, new ClassifierUnavailableError('image check stopped'));
    });
    worker = w;
    return w;
  };

  const run = (bytes: Buffer, mime: string) =>
    new Promise<ClassifyResult>((resolve, reject) => {
      const w = start();
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new ClassifierUnavailableError('image check timed out'));
        if (worker === w) worker = null;
        void w.terminate();
      }, options.timeoutMs ?? 30_000);
      pending.set(id, {
        worker: w,
        resolve: (r) => (clearTimeout(timer), resolve(r)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      const copy = new Uint8Array(bytes);
      w.postMessage({ id, bytes: copy, mime }, [copy.buffer]);
    });

  return {
    classify(bytes, mime) {
      if (!DECODABLE_IMAGES.has(mime)) return Promise.resolve(null);
      const result = queue.then(keepSharpLoaded).then(() => run(bytes, mime));
      queue = result.catch(() => undefined);
      return result;
    },
    async close() {
      const w = worker;
      worker = null;
      if (w) await w.terminate();
    },
  };
}
