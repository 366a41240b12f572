// The image check's worker thread (lib/image-classifier.ts). Plain JavaScript so it runs the same
// under tsx, vitest and node. nsfwjs 4 bundles its models as JavaScript modules inside the npm
// package (nsfwjs/dist/models/mobilenet_v2/*.min.js), so `load('MobileNetV2')` reads no network;
// TensorFlow.js runs on its pure-JavaScript CPU backend.
//
// Images are decoded by sharp (libvips): JPEG, PNG, GIF and WebP, checked against the type the
// server sniffed. sharp also scales each picture to the model's 224×224 input (stretched, as
// nsfwjs's own resize does), lays transparent areas (drawings) on white and turns EXIF-rotated
// photos upright, so the model sees what a viewer sees; nsfwjs then scales 0..255 to 0..1.
// Animated GIF and WebP: up to three frames (first, middle, last) are classified; the caller keeps
// the most explicit. Anything sharp refuses (corrupt or truncated data, more than MAX_PIXELS pixels
// per frame, a different format inside) is answered `undecodable`.
import { parentPort } from 'node:worker_threads';
import * as tf from '@tensorflow/tfjs';
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

let modelPromise = null;

function model() {
  modelPromise ??= (async () => {
    await tf.setBackend('cpu');
    await tf.ready();
    return load('MobileNetV2', { size: SIZE });
  })();
  return modelPromise;
}

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
  const nsfw = await model();
  const input = tf.tensor3d(Float32Array.from(rgb), [SIZE, SIZE, 3], 'float32');
  try {
    const predictions = await nsfw.classify(input, 5);
    return Object.fromEntries(predictions.map((p) => [p.className, p.probability]));
  } finally {
    input.dispose();
  }
}

parentPort.on('message', async ({ id, bytes, mime }) => {
  try {
    if (!FORMATS[mime]) {
      parentPort.postMessage({ id, probabilities: null });
      return;
    }
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const frames = [];
    for (const frame of await framesOf(buffer, mime)) frames.push({ frame, probabilities: await classify(await pixels(buffer, frame)) });
    parentPort.postMessage({ id, frames });
  } catch (error) {
    if (error instanceof Undecodable) parentPort.postMessage({ id, undecodable: error.message });
    else parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
