import { Worker } from 'node:worker_threads';

/**
 * The image check of SPEC §5/§8 ("Image added is inappropriate"). The real classifier is nsfwjs 4
 * (MobileNetV2, bundled in the npm package: nothing is downloaded) on TensorFlow.js's pure-JS CPU
 * backend, in a worker thread (lib/nsfw-worker.mjs) so a classification (about 1.3 s on two cores)
 * never blocks the event loop. The worker starts, and loads the model, on the first image, and is
 * kept; images are checked one at a time; each check is time-bound: a timeout terminates the
 * worker (the next image starts a fresh one) and the request answers 503, which clients retry.
 * Tests inject their own classifier through buildApp({ imageClassifier }).
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

/** `null`: a type the server cannot decode (GIF, WebP): not checked here. */
export type ClassifyResult = { kind: 'ok'; probabilities: Probabilities } | { kind: 'undecodable' } | null;

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

const DECODABLE = new Set(['image/jpeg', 'image/png']);

interface Pending {
  resolve: (result: ClassifyResult) => void;
  reject: (error: Error) => void;
}

export function createNsfwClassifier(options: { timeoutMs?: number } = {}): ImageClassifier {
  const timeoutMs = options.timeoutMs ?? 30_000;
  let worker: Worker | null = null;
  let nextId = 1;
  const pending = new Map<number, Pending>();
  let queue: Promise<unknown> = Promise.resolve();

  const failAll = (error: Error) => {
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };
  const start = (): Worker => {
    if (worker) return worker;
    const w = new Worker(new URL('./nsfw-worker.mjs', import.meta.url));
    w.unref();
    w.on('message', (message: { id: number; probabilities?: Probabilities | null; undecodable?: boolean; error?: string }) => {
      const p = pending.get(message.id);
      if (!p) return;
      pending.delete(message.id);
      if (message.error) p.reject(new ClassifierUnavailableError(message.error));
      else if (message.undecodable) p.resolve({ kind: 'undecodable' });
      else p.resolve(message.probabilities ? { kind: 'ok', probabilities: message.probabilities } : null);
    });
    w.on('error', (error) => {
      worker = null;
      failAll(new ClassifierUnavailableError(error.message));
    });
    w.on('exit', () => {
      if (worker === w) worker = null;
      failAll(new ClassifierUnavailableError('image check stopped'));
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
      }, timeoutMs);
      pending.set(id, {
        resolve: (r) => (clearTimeout(timer), resolve(r)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      const copy = new Uint8Array(bytes);
      w.postMessage({ id, bytes: copy, mime }, [copy.buffer]);
    });

  return {
    classify(bytes, mime) {
      if (!DECODABLE.has(mime)) return Promise.resolve(null);
      const result = queue.then(() => run(bytes, mime));
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
