import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileStore } from '../../server/lib/file-store';

const TENANT = '0190a000-0000-7000-8000-000000000001';
let root: string | null = null;
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = null;
});

describe('finding 10: upload temp files left by a crash', () => {
  it('are removed at start; stored files and anything else stay', async () => {
    root = await mkdtemp(join(tmpdir(), 'hearth-files-'));
    const store = new FileStore(root);
    const kept = await store.write(TENANT, Buffer.from('a whole file'));
    const dir = join(root, 'files', TENANT);
    // What a write cut off between open and rename leaves (server/lib/file-store.ts write()).
    await writeFile(join(dir, `.${'a'.repeat(32)}.tmp`), 'half a fi');
    await writeFile(join(dir, `.${'b'.repeat(32)}.tmp`), '');
    await writeFile(join(dir, 'notes.txt'), 'not ours to judge');

    expect(await new FileStore(root).removeLeftovers()).toBe(2);
    expect((await readdir(dir)).sort()).toEqual([kept, 'notes.txt'].sort());
    expect((await store.read(TENANT, kept)).toString()).toBe('a whole file');
  });

  it('is a no-op on a new data directory', async () => {
    root = await mkdtemp(join(tmpdir(), 'hearth-files-'));
    expect(await new FileStore(root).removeLeftovers()).toBe(0);
  });
});
