/**
 * Renders Hearth's app icons (a flame inside a house) to PNG with nothing but node:zlib, so the
 * icons can be rebuilt offline: `npx tsx scripts/generate-icons.ts`. Writes public/icons/ (the app
 * icons, maskable ones, the Apple touch icon and the monochrome notification badge).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

type RGBA = [number, number, number, number];
const PURPLE: RGBA = [0x3b, 0x2a, 0x6b, 255]; // --header-bg, the manifest theme colour
const CREAM: RGBA = [0xff, 0xf8, 0xef, 255]; // --bg of the fun theme
const ORANGE: RGBA = [0xff, 0x9f, 0x1c, 255]; // --loading-bar
const YELLOW: RGBA = [0xff, 0xd1, 0x66, 255]; // --header-focus
const CLEAR: RGBA = [0, 0, 0, 0];

function roundedSquare(x: number, y: number, radius: number): boolean {
  const dx = Math.max(Math.abs(x - 0.5) - (0.5 - radius), 0);
  const dy = Math.max(Math.abs(y - 0.5) - (0.5 - radius), 0);
  return dx * dx + dy * dy <= radius * radius;
}

function house(x: number, y: number): boolean {
  const roof = y >= 0.2 && y <= 0.5 && Math.abs(x - 0.5) <= ((y - 0.2) / 0.3) * 0.34;
  const body = x >= 0.27 && x <= 0.73 && y >= 0.46 && y <= 0.8;
  return roof || body;
}

function flame(x: number, y: number, cy: number, r: number, tip: number): boolean {
  const dx = x - 0.5;
  if (y >= cy) return dx * dx + (y - cy) * (y - cy) <= r * r;
  if (y < tip) return false;
  const t = (y - tip) / (cy - tip);
  return Math.abs(dx) <= r * Math.pow(t, 0.8);
}

const WHITE: RGBA = [255, 255, 255, 255];

/**
 * The notification badge (Android's status bar): only the alpha counts, so the house in white with
 * the flame cut out, on nothing, filling most of the square.
 */
function badge(u: number, v: number): RGBA {
  const x = 0.5 + (u - 0.5) / 1.15;
  const y = 0.5 + (v - 0.5) / 1.15 - 0.02;
  if (flame(x, y, 0.68, 0.085, 0.5)) return CLEAR;
  return house(x, y) ? WHITE : CLEAR;
}

/** The colour at a point of the unit square; `maskable` keeps everything inside the safe zone. */
function shade(u: number, v: number, maskable: boolean | 'badge'): RGBA {
  if (maskable === 'badge') return badge(u, v);
  if (!maskable && !roundedSquare(u, v, 0.2)) return CLEAR;
  const s = maskable ? 0.78 : 1; // maskable: content within the central 80% circle
  const x = 0.5 + (u - 0.5) / s;
  const y = 0.5 + (v - 0.5) / s;
  if (flame(x, y, 0.68, 0.085, 0.5)) return flame(x, y, 0.7, 0.045, 0.6) ? YELLOW : ORANGE;
  if (house(x, y)) return CREAM;
  return PURPLE;
}

function render(size: number, maskable: boolean | 'badge'): Uint8Array {
  const samples = 4;
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let py = 0; py < size; py++) {
    const row = py * (size * 4 + 1);
    rows[row] = 0; // filter: none
    for (let px = 0; px < size; px++) {
      const sum = [0, 0, 0, 0];
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const c = shade((px + (sx + 0.5) / samples) / size, (py + (sy + 0.5) / samples) / size, maskable);
          const a = c[3] / 255;
          sum[0]! += c[0] * a;
          sum[1]! += c[1] * a;
          sum[2]! += c[2] * a;
          sum[3]! += c[3];
        }
      }
      const n = samples * samples;
      const alpha = sum[3]! / n;
      const o = row + 1 + px * 4;
      const k = alpha > 0 ? 255 / alpha : 0;
      rows[o] = Math.round((sum[0]! / n) * k);
      rows[o + 1] = Math.round((sum[1]! / n) * k);
      rows[o + 2] = Math.round((sum[2]! / n) * k);
      rows[o + 3] = Math.round(alpha);
    }
  }
  return png(size, size, rows);
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function png(width: number, height: number, rows: Uint8Array): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

const out = new URL('../public/icons/', import.meta.url);
mkdirSync(out, { recursive: true });
const icons: [string, number, boolean | 'badge'][] = [
  ['icon-192.png', 192, false],
  ['icon-512.png', 512, false],
  ['maskable-192.png', 192, true],
  ['maskable-512.png', 512, true],
  ['apple-touch-icon-180.png', 180, true],
  ['badge-96.png', 96, 'badge'],
];
for (const [name, size, maskable] of icons) {
  writeFileSync(new URL(name, out), render(size, maskable));
  console.log(`public/icons/${name}`);
}
