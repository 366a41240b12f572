import { describe, expect, it } from 'vitest';
import { openValue } from '@/data/outbox/seal';
import { allRecords } from '@/data/outbox/store';
import type { OutboxRequest } from '@/data/outbox/types';
import { dumpDatabase, enqueue, entryWrite, freshStore, testKey } from './outbox-support';

const CANARY = 'CANARY-my-secret-diary-7f3a';

/** Every byte sequence IndexedDB holds for a value, as text (strings, and typed arrays decoded). */
function flatten(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (value instanceof Uint8Array || value instanceof ArrayBuffer) out.push(new TextDecoder('latin1').decode(value));
  else if (Array.isArray(value)) value.forEach((v) => flatten(v, out));
  else if (value && typeof value === 'object') Object.entries(value).forEach(([k, v]) => (out.push(k), flatten(v, out)));
  else out.push(String(value));
  return out;
}

describe('outbox encryption at rest', () => {
  it('stores no plaintext of the body, the address, the files or the local document', async () => {
    const store = freshStore();
    const key = testKey();
    const residentId = crypto.randomUUID();
    const input = entryWrite({
      path: `/v1/projects/residents/journal/entries/${residentId}`,
      fields: { description: `Today ${CANARY}`, shared_with: ['u-1', 'u-2'] },
      files: [new File([`photo bytes ${CANARY}`], `${CANARY}.jpg`, { type: 'image/jpeg' })],
      label: `label ${CANARY}`,
      methodOverride: 'PUT',
    });
    await enqueue(store, key, input);

    const raw = flatten(await dumpDatabase(store.indexedDB, store.databaseName)).join('\n');
    expect(raw.length).toBeGreaterThan(100);
    expect(raw).not.toContain(CANARY);
    expect(raw).not.toContain('description');
    expect(raw).not.toContain(residentId);
    expect(raw).not.toContain('shared_with');

    // …and it is really there, under the key.
    const [record] = await allRecords(store);
    const request = openValue<OutboxRequest>(key, record!.id, 'request', record!.request!);
    expect(JSON.stringify(request)).toContain(CANARY);
    expect(request.path).toBe(`/v1/projects/residents/journal/entries/${residentId}?_method=PUT`);
  });

  it('binds each ciphertext to its entry: moved to another entry, it does not decrypt', async () => {
    const store = freshStore();
    const key = testKey();
    const a = await enqueue(store, key, entryWrite());
    const b = await enqueue(store, key, entryWrite());
    expect(() => openValue(key, b.id, 'request', a.request!)).toThrow();
    expect(() => openValue(key, a.id, 'meta', a.request!)).toThrow();
    expect(() => openValue(testKey(), a.id, 'request', a.request!)).toThrow();
  });
});
