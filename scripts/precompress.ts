/**
 * `npm run build`, after `vite build`: a `.br` (brotli, quality 11) and a `.gz` (gzip, level 9) beside
 * every compressible file of dist/, so the server (server/plugins/static-pwa.ts, `preCompressed`)
 * sends the smallest copy without compressing anything per request (issue 13, transfer).
 *
 * Skipped: files under 1 KiB (headers and framing cost more than they save) and any compressed copy
 * that is not smaller than its source. Already-compressed formats (images, fonts, wasm) are left alone.
 * Usage: `tsx scripts/precompress.ts [dir]` (default `dist`); prints what it wrote.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.webmanifest', '.json', '.txt']);
const MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export interface Precompressed {
  file: string;
  raw: number;
  br: number | null;
  gz: number | null;
}

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

/** Writes the compressed copies of one file; a size is null where that copy was not written. */
async function precompressFile(path: string): Promise<Precompressed> {
  const bytes = await readFile(path);
  const [br, gz] = await Promise.all([
    brotli(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
    gzipAsync(bytes, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  const keep = async (copy: Buffer, suffix: string) => {
    if (copy.length >= bytes.length) return null;
    await writeFile(path + suffix, copy);
    return copy.length;
  };
  return { file: path, raw: bytes.length, br: await keep(br, '.br'), gz: await keep(gz, '.gz') };
}

export async function precompress(dir: string): Promise<Precompressed[]> {
  const candidates: string[] = [];
  for await (const path of filesUnder(dir)) {
    if (!COMPRESSIBLE.has(extname(path).toLowerCase())) continue;
    if ((await stat(path)).size < MIN_BYTES) continue;
    candidates.push(path);
  }
  // Two files at a time: brotli 11 is CPU-heavy, and the build machine may be busy with other work.
  const results: Precompressed[] = [];
  let next = 0;
  const worker = async () => {
    while (next < candidates.length) {
      const path = candidates[next++]!;
      results.push(await precompressFile(path));
    }
  };
  await Promise.all([worker(), worker()]);
  return results.sort((a, b) => a.file.localeCompare(b.file));
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const dir = resolve(process.argv[2] ?? 'dist');
  const results = await precompress(dir);
  const sum = (pick: (r: Precompressed) => number | null) => results.reduce((n, r) => n + (pick(r) ?? r.raw), 0);
  console.log(`precompress: ${results.length} files in ${relative(process.cwd(), dir) || '.'}: ${sum((r) => r.raw)} B raw, ${sum((r) => r.br)} B br, ${sum((r) => r.gz)} B gz`);
}
