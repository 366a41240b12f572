// One worker thread of the image check's pool (lib/image-check-pool.ts). Plain JavaScript so it
// runs the same under tsx, vitest and node. nsfwjs 4 bundles its models as JavaScript modules
// inside the npm package (nsfwjs/dist/models/mobilenet_v2/*.min.js), so `load('MobileNetV2')`
// reads no network.
//
// TensorFlow.js runs on its WebAssembly backend (@tensorflow/tfjs-backend-wasm, XNNPACK, SIMD):
// about 10x faster than the pure-JavaScript CPU backend for MobileNetV2. The .wasm binaries ship
// inside that npm package and are read from node_modules by file path (setWasmPaths with a
// directory, read by fs), never fetched. Its multi-threaded build cannot start in Node (its
// threads are blob: URL workers, which worker_threads refuses; tfjs turns it off in Node), so each
// worker runs one inference thread and the pool gives the parallelism. workerData.backend 'cpu'
// keeps the old backend (bench comparisons, IMAGE_CHECK_BACKEND=cpu).
//
// The model is loaded once, when the worker starts; 'ready' is posted when it has answered a
// first (warm-up) inference, so the first real picture does not pay for compiling kernels.
//
// Images are decoded by sharp (libvips): JPEG, PNG, GIF and WebP, checked against the type the
// server sniffed. sharp scales each picture straight to the model's 224×224 input (stretched, as
// nsfwjs's own resize does; JPEG and WebP shrink while decoding), lays transparent areas
// (drawings) on white and turns EXIF-rotated photos upright, so the model sees what a viewer sees;
// nsfwjs then scales 0..255 to 0..1. Anything sharp refuses (corrupt or truncated data, more than
// MAX_PIXELS pixels per frame, a different format inside) is answered `undecodable`.
//
// Messages: { id, bytes, mime, frame, probe }. With `probe`, the worker first reads the header and
// answers { id, frames } (the frames of an animation to look at: first, middle, last), so the pool
// can hand the other frames to other workers while this one classifies `frame`. Then, for every
// task: { id, frame, probabilities } or { id, undecodable } or { id, error }.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import * as tf from '@tensorflow/tfjs';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { load } from 'nsfwjs';
import sharp from 'sharp';

const SIZE = 224;
/** Per frame. A decompression bomb (a small file claiming huge dimensions) is refused unread. */
const MAX_PIXELS = 50_000_000;
/** libvips gives up on one frame's pipeline after this long (the caller's own timeout is longer). */
const DECODE_SECONDS = 20;
const FORMATS = { 'image/jpeg': 'jpeg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp' };
// 'error': truncated or corrupt pixel data is refused (a browser might show more of it than
// libvips decoded); harmless warnings (say, an odd colour profile) are not.
const INPUT = { limitInputPixels: MAX_PIXELS, failOn: 'error', autoOrient: true };

// No cache of decoded pictures kept in memory between checks.
sharp.cache(false);

const wanted = workerData?.backend === 'cpu' ? 'cpu' : 'wasm';

/**
 * The wanted backend; if WebAssembly cannot start (it ships with the package, so this should not
 * happen), the CPU backend: a slow check beats refusing every picture. Returns why it fell back.
 */
async function startBackend() {
  let fallback;
  if (wanted === 'wasm') {
    try {
      // The package's own directory: dist/ holds tfjs-backend-wasm{,-simd,-threaded-simd}.wasm.
      const pkg = createRequire(import.meta.url).resolve('@tensorflow/tfjs-backend-wasm/package.json');
      setWasmPaths(`${join(dirname(pkg), 'dist')}/`);
      if (await tf.setBackend('wasm')) return undefined;
      fallback = 'the WebAssembly backend did not start';
    } catch (error) {
      fallback = error instanceof Error ? error.message : String(error);
    }
  }
  if (!(await tf.setBackend('cpu'))) throw new Error('TensorFlow.js CPU backend did not start');
  return fallback;
}

const modelPromise = (async () => {
  const started = performance.now();
  const fallback = await startBackend();
  await tf.ready();
  // load() runs one inference on zeros: kernels are set up before the first picture.
  const nsfw = await load('MobileNetV2', { size: SIZE });
  return { nsfw, backend: tf.getBackend(), fallback, loadMs: Math.round(performance.now() - started) };
})();
modelPromise.then(
  ({ backend, fallback, loadMs }) => parentPort.postMessage({ ready: true, backend, fallback, loadMs }),
  (error) => parentPort.postMessage({ ready: false, error: error instanceof Error ? error.message : String(error) }),
);

/** Frames to classify out of `pages`: first, middle and last (fewer when there are fewer). */
function frameIndexes(pages) {
  const n = Number.isInteger(pages) && pages > 1 ? pages : 1;
  return [...new Set([0, Math.floor(n / 2), n - 1])];
}

class Undecodable extends Error {}

/** The frames to look at, or Undecodable when the bytes are not a readable image of that type. */
async function framesOf(bytes, mime) {
  let meta;
  try {
    meta = await sharp(bytes, INPUT).metadata();
  } catch (error) {
    throw new Undecodable(error instanceof Error ? error.message : String(error));
  }
  if (meta.format !== FORMATS[mime]) throw new Undecodable(`${meta.format} is not ${mime}`);
  return frameIndexes(meta.pages ?? 1);
}

/** One frame as 224×224 RGB bytes (row-major, interleaved). */
async function pixels(bytes, page) {
  try {
    const { data, info } = await sharp(bytes, { ...INPUT, page, pages: 1 })
      .resize(SIZE, SIZE, { fit: 'fill' })
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .removeAlpha()
      .raw({ depth: 'uchar' })
      .timeout({ seconds: DECODE_SECONDS })
      .toBuffer({ resolveWithObject: true });
    if (info.width !== SIZE || info.height !== SIZE || info.channels !== 3) throw new Error(`unexpected ${info.width}×${info.height}×${info.channels}`);
    return data;
  } catch (error) {
    throw new Undecodable(error instanceof Error ? error.message : String(error));
  }
}

async function classify(rgb) {
  const { nsfw } = await modelPromise;
  const input = tf.tensor3d(Float32Array.from(rgb), [SIZE, SIZE, 3], 'float32');
  try {
    const predictions = await nsfw.classify(input, 5);
    return Object.fromEntries(predictions.map((p) => [p.className, p.probability]));
  } finally {
    input.dispose();
  }
}

parentPort.on('message', async ({ id, bytes, mime, frame, probe }) => {
  try {
    if (!FORMATS[mime]) throw new Error(`no decoder for ${mime}`);
    // `bytes` may be a view of memory shared with the pool (one copy for all of an image's frames).
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (probe) parentPort.postMessage({ id, frames: await framesOf(buffer, mime) });
    parentPort.postMessage({ id, frame, probabilities: await classify(await pixels(buffer, frame)) });
  } catch (error) {
    if (error instanceof Undecodable) parentPort.postMessage({ id, undecodable: error.message });
    else parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
