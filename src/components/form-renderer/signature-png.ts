/**
 * Turns a signature (typed name or drawn strokes) into a PNG Blob. A browser draws it on a canvas
 * (the typed name in a handwriting-like system font). Where there is no 2D context (jsdom, a
 * browser with canvas switched off, or one that throws), the same signature is rasterised here in
 * plain JavaScript with a small block-letter font and encoded as a PNG: a typed name is still
 * saved legibly, rather than as a blank picture that would look signed and say nothing.
 */

export interface StrokePoint {
  readonly x: number;
  readonly y: number;
}

/** The signature pad's logical size (CSS scales it; strokes are stored in these units). */
export const PAD_WIDTH = 600;
export const PAD_HEIGHT = 200;

/** System fonts only (no download): script faces where the system has one, then the generic `cursive`. */
export const HANDWRITING_FONTS = "'Segoe Script', 'Bradley Hand', 'Snell Roundhand', 'Brush Script MT', 'URW Chancery L', 'Apple Chancery', cursive";

const INK = '#1f1b24';

export function context2d(canvas: HTMLCanvasElement | null | undefined): CanvasRenderingContext2D | null {
  try {
    return canvas?.getContext('2d') ?? null;
  } catch {
    return null;
  }
}

const canvasBlob = (canvas: HTMLCanvasElement): Promise<Blob | null> =>
  new Promise((resolve) => {
    try {
      canvas.toBlob((blob) => resolve(blob), 'image/png');
    } catch {
      resolve(null);
    }
  });

/** The typed name as a PNG: on a canvas in a handwriting font, or the block-letter fallback. */
export async function typedSignaturePng(name: string): Promise<Blob> {
  const canvas = typeof document === 'undefined' ? null : document.createElement('canvas');
  const ctx = context2d(canvas);
  if (canvas && ctx) {
    canvas.width = PAD_WIDTH;
    canvas.height = 160;
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    // Shrink the font until the name fits the width, so a long name is never cut off.
    let size = 64;
    ctx.font = `${size}px ${HANDWRITING_FONTS}`;
    while (size > 16 && ctx.measureText(name).width > canvas.width - 48) {
      size -= 4;
      ctx.font = `${size}px ${HANDWRITING_FONTS}`;
    }
    ctx.fillStyle = INK;
    ctx.textBaseline = 'middle';
    ctx.fillText(name, 24, canvas.height / 2);
    const blob = await canvasBlob(canvas);
    if (blob) return blob;
  }
  return textBitmap(name).toPng();
}

/** Drawn strokes as a PNG on white: the pad's own canvas when it has one, else rasterised here. */
export async function drawnSignaturePng(canvas: HTMLCanvasElement | null, strokes: readonly (readonly StrokePoint[])[]): Promise<Blob> {
  if (canvas && context2d(canvas)) {
    const flat = document.createElement('canvas');
    flat.width = canvas.width;
    flat.height = canvas.height;
    const ctx = context2d(flat);
    if (ctx) {
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, flat.width, flat.height);
      ctx.drawImage(canvas, 0, 0);
      const blob = await canvasBlob(flat);
      if (blob) return blob;
    }
  }
  const scale = 0.5;
  const bitmap = new Bitmap(PAD_WIDTH * scale, PAD_HEIGHT * scale);
  for (const stroke of strokes) {
    const points = stroke.map((p) => ({ x: p.x * scale, y: p.y * scale }));
    points.forEach((p, i) => bitmap.line(points[i - 1] ?? p, p, 2));
  }
  return bitmap.toPng();
}

/** A greyscale picture in memory (0 ink … 255 paper). */
export class Bitmap {
  readonly pixels: Uint8Array;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.pixels = new Uint8Array(width * height).fill(255);
  }

  dot(x: number, y: number, size: number): void {
    const half = Math.floor(size / 2);
    for (let dy = -half; dy < size - half; dy += 1) {
      for (let dx = -half; dx < size - half; dx += 1) {
        const px = Math.round(x) + dx;
        const py = Math.round(y) + dy;
        if (px >= 0 && py >= 0 && px < this.width && py < this.height) this.pixels[py * this.width + px] = 0;
      }
    }
  }

  line(from: StrokePoint, to: StrokePoint, size: number): void {
    const steps = Math.max(1, Math.ceil(Math.hypot(to.x - from.x, to.y - from.y)));
    for (let i = 0; i <= steps; i += 1) this.dot(from.x + ((to.x - from.x) * i) / steps, from.y + ((to.y - from.y) * i) / steps, size);
  }

  toPng(): Blob {
    return new Blob([encodePng(this)], { type: 'image/png' });
  }
}

/** 3×5 block letters, rows top to bottom; lower case is drawn as upper case, accents are dropped. */
const GLYPHS: Record<string, string> = {
  A: '010101111101101', B: '110101110101110', C: '011100100100011', D: '110101101101110', E: '111100110100111',
  F: '111100110100100', G: '011100101101011', H: '101101111101101', I: '111010010010111', J: '001001001101010',
  K: '101101110101101', L: '100100100100111', M: '101111111101101', N: '110101101101101', O: '010101101101010',
  P: '110101110100100', Q: '010101101110011', R: '110101110101101', S: '011100010001110', T: '111010010010010',
  U: '101101101101111', V: '101101101101010', W: '101101111111101', X: '101101010101101', Y: '101101010010010',
  Z: '111001010100111', '0': '111101101101111', '1': '010110010010111', '2': '110001010100111', '3': '110001010001110',
  '4': '101101111001001', '5': '111100110001110', '6': '011100111101111', '7': '111001010010010', '8': '111101111101111',
  '9': '111101111001110', '-': '000000111000000', '.': '000000000000010', "'": '010010000000000', ',': '000000000010100',
  ' ': '000000000000000', '?': '110001010000010',
};

/** The name in block letters, 4 px per font pixel, with a margin. */
export function textBitmap(text: string): Bitmap {
  const chars = Array.from(text.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase()).map((c) => GLYPHS[c] ?? GLYPHS['?']!);
  const cell = 4;
  const margin = 8;
  const width = Math.max(1, chars.length * 4 * cell - cell) + margin * 2;
  const bitmap = new Bitmap(width, 5 * cell + margin * 2);
  chars.forEach((glyph, index) => {
    for (let bit = 0; bit < 15; bit += 1) {
      if (glyph[bit] !== '1') continue;
      const x = margin + index * 4 * cell + (bit % 3) * cell;
      const y = margin + Math.floor(bit / 3) * cell;
      for (let dy = 0; dy < cell; dy += 1) bitmap.pixels.fill(0, (y + dy) * width + x, (y + dy) * width + x + cell);
    }
  });
  return bitmap;
}

let crcTable: Uint32Array | null = null;
function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n += 1) {
      let c = n;
      for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** zlib with stored (uncompressed) deflate blocks: a few lines, and a signature is small anyway. */
function zlibStored(data: Uint8Array): Uint8Array {
  const blocks = Math.max(1, Math.ceil(data.length / 0xffff));
  const out = new Uint8Array(2 + blocks * 5 + data.length + 4);
  out.set([0x78, 0x01]);
  let at = 2;
  for (let i = 0; i < blocks; i += 1) {
    const chunk = data.subarray(i * 0xffff, (i + 1) * 0xffff);
    out[at] = i === blocks - 1 ? 1 : 0;
    out[at + 1] = chunk.length & 0xff;
    out[at + 2] = chunk.length >>> 8;
    out[at + 3] = ~chunk.length & 0xff;
    out[at + 4] = (~chunk.length >>> 8) & 0xff;
    out.set(chunk, at + 5);
    at += 5 + chunk.length;
  }
  let a = 1;
  let b = 0;
  for (const byte of data) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  new DataView(out.buffer).setUint32(at, ((b << 16) | a) >>> 0);
  return out;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(Array.from(type, (c) => c.charCodeAt(0)), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** An 8-bit greyscale PNG of the bitmap. */
export function encodePng(bitmap: Bitmap): Uint8Array<ArrayBuffer> {
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, bitmap.width);
  view.setUint32(4, bitmap.height);
  header.set([8, 0, 0, 0, 0], 8); // bit depth 8, greyscale, deflate, no filter method, no interlace
  const raw = new Uint8Array((bitmap.width + 1) * bitmap.height);
  for (let y = 0; y < bitmap.height; y += 1) {
    raw[y * (bitmap.width + 1)] = 0; // filter: none
    raw.set(bitmap.pixels.subarray(y * bitmap.width, (y + 1) * bitmap.width), y * (bitmap.width + 1) + 1);
  }
  const parts = [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', zlibStored(raw)), chunk('IEND', new Uint8Array(0))];
  const png = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    png.set(part, at);
    at += part.length;
  }
  return png;
}
