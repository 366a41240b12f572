import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import sharp from 'sharp';
import type { ClassifyResult, ImageClassifier } from '../../../server/lib/image-classifier';
import type { Client } from './client';
import { browserHeaders } from './session';

/** A solid-colour PNG (pngjs), optionally with a horizontal gradient. */
export function pngImage(width: number, height: number, rgb: [number, number, number], gradient = false): Buffer {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const f = gradient ? 0.6 + (0.4 * x) / width : 1;
      const o = (y * width + x) * 4;
      png.data[o] = Math.round(rgb[0] * f);
      png.data[o + 1] = Math.round(rgb[1] * f);
      png.data[o + 2] = Math.round(rgb[2] * f);
      png.data[o + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}

/** A solid-colour JPEG (jpeg-js: synchronous, for module-level constants). */
export function jpegImage(width: number, height: number, rgb: [number, number, number]): Buffer {
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set([...rgb, 255], i * 4);
  return jpeg.encode({ data, width, height }, 80).data;
}

/** The picture re-encoded as GIF or WebP (sharp); `frames` of several pictures make an animation. */
export async function imageAs(format: 'gif' | 'webp', ...frames: Buffer[]): Promise<Buffer> {
  const input = frames.length === 1 ? sharp(frames[0]) : sharp(frames, { join: { animated: true } });
  return format === 'gif' ? input.gif().toBuffer() : input.webp({ lossless: true }).toBuffer();
}

/** A copy of a PNG whose header claims other dimensions (IHDR checksum fixed): a decompression bomb's shape. */
export function claimDimensions(png: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(png);
  out.writeUInt32BE(width, 16);
  out.writeUInt32BE(height, 20);
  out.writeUInt32BE(crc32(out.subarray(12, 29)), 29);
  return out;
}

export const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * A classifier for tests: images whose bytes were marked flagged score high for Porn, marked
 * undecodable answer `undecodable`; `seen` lists the types it was asked about, in order.
 */
export class FakeClassifier implements ImageClassifier {
  readonly flagged = new Set<string>();
  readonly undecodable = new Set<string>();
  readonly seen: string[] = [];
  calls = 0;
  flag(bytes: Buffer) {
    this.flagged.add(sha256(bytes));
  }
  markUndecodable(bytes: Buffer) {
    this.undecodable.add(sha256(bytes));
  }
  async classify(bytes: Buffer, mime: string): Promise<ClassifyResult> {
    this.calls++;
    this.seen.push(mime);
    const hash = sha256(bytes);
    if (this.undecodable.has(hash)) return { kind: 'undecodable' };
    const bad = this.flagged.has(hash);
    return { kind: 'ok', probabilities: bad ? { Porn: 0.9, Sexy: 0.05, Hentai: 0.01, Neutral: 0.02, Drawing: 0.02 } : { Porn: 0.01, Sexy: 0.01, Hentai: 0.01, Neutral: 0.9, Drawing: 0.07 } };
  }
  async close() {}
}

export type FormValue = string | { name: string; data: Buffer; type?: string };

/** A multipart form from [name, value] pairs (repeated names allowed), as the PWA sends it. */
export function form(fields: [string, FormValue][]): FormData {
  const data = new FormData();
  for (const [name, value] of fields) {
    if (typeof value === 'string') data.append(name, value);
    else data.append(name, new Blob([new Uint8Array(value.data)], { type: value.type ?? 'application/octet-stream' }), value.name);
  }
  return data;
}

export interface FormResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

/** POSTs a multipart form with the client's cookies and CSRF header. */
export async function postForm<T = Record<string, unknown>>(base: string, client: Client, path: string, fields: [string, FormValue][], headers: Record<string, string> = {}): Promise<FormResponse<T>> {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { accept: 'application/json', ...browserHeaders(client), ...headers }, body: form(fields) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text) as T };
}

/** GETs bytes with the client's cookies. */
export async function getBytes(base: string, client: Client, path: string) {
  const res = await fetch(`${base}${path}`, { headers: { cookie: browserHeaders(client).cookie! } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}
