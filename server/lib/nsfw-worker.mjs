// The image check's worker thread (lib/image-classifier.ts). Plain JavaScript so it runs the same
// under tsx, vitest and node. nsfwjs 4 bundles its models as JavaScript modules inside the npm
// package (nsfwjs/dist/models/mobilenet_v2/*.min.js), so `load('MobileNetV2')` reads no network;
// TensorFlow.js runs on its pure-JavaScript CPU backend. JPEG and PNG are decoded here.
import { parentPort } from 'node:worker_threads';
import * as tf from '@tensorflow/tfjs';
import jpeg from 'jpeg-js';
import { load } from 'nsfwjs';
import { PNG } from 'pngjs';

const SIZE = 224;
const MAX_PIXELS = 40 * 1024 * 1024;
let modelPromise = null;

function model() {
  modelPromise ??= (async () => {
    await tf.setBackend('cpu');
    await tf.ready();
    return load('MobileNetV2', { size: SIZE });
  })();
  return modelPromise;
}

/** RGBA pixels; transparent areas (drawings) are laid on white. */
function decode(bytes, mime) {
  if (mime === 'image/jpeg') {
    const img = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: 40, maxMemoryUsageInMB: 600 });
    return { width: img.width, height: img.height, data: img.data };
  }
  if (mime === 'image/png') {
    const width = bytes.readUInt32BE(16);
    const height = bytes.readUInt32BE(20);
    if (width * height > MAX_PIXELS) throw new Error('image too large');
    const img = PNG.sync.read(bytes);
    return { width: img.width, height: img.height, data: img.data };
  }
  return null;
}

async function classify(image) {
  const { width, height, data } = image;
  const rgb = new Float32Array(width * height * 3);
  for (let i = 0, j = 0; i < width * height; i++, j += 4) {
    const a = data[j + 3] / 255;
    rgb[i * 3] = data[j] * a + 255 * (1 - a);
    rgb[i * 3 + 1] = data[j + 1] * a + 255 * (1 - a);
    rgb[i * 3 + 2] = data[j + 2] * a + 255 * (1 - a);
  }
  const nsfw = await model();
  const input = tf.tidy(() => tf.image.resizeBilinear(tf.tensor3d(rgb, [height, width, 3], 'float32'), [SIZE, SIZE], true));
  try {
    const predictions = await nsfw.classify(input, 5);
    return Object.fromEntries(predictions.map((p) => [p.className, p.probability]));
  } finally {
    input.dispose();
  }
}

parentPort.on('message', async ({ id, bytes, mime }) => {
  try {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let image;
    try {
      image = decode(buffer, mime);
    } catch {
      parentPort.postMessage({ id, undecodable: true });
      return;
    }
    parentPort.postMessage({ id, probabilities: image ? await classify(image) : null });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
