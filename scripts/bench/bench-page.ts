/**
 * A benchmark that runs the data layer in Chromium: its browser entry (a module exporting `run`)
 * built by Vite with production settings (no RxDB dev-mode) into `outDir` as `bench.js`, beside a
 * blank index.html, so any server of that directory on loopback can load it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'vite';

export const BENCH_MODULE = '/bench.js';

export async function buildBenchPage(root: string, entry: string, outDir: string): Promise<void> {
  await build({
    configFile: false,
    root,
    // 'error': the bench's own entry imports modules the app loads lazily, which Vite warns about.
    logLevel: 'error',
    resolve: { alias: { '@': join(root, 'src') } },
    define: { 'import.meta.env.DEV': 'false', 'import.meta.env.PROD': 'true', 'process.env.NODE_ENV': '"production"' },
    build: {
      outDir,
      emptyOutDir: true,
      copyPublicDir: false,
      lib: { entry: join(root, entry), formats: ['es'], fileName: () => BENCH_MODULE.slice(1) },
    },
  });
  writeFileSync(join(outDir, 'index.html'), '<!doctype html><title>bench</title>\n');
}
