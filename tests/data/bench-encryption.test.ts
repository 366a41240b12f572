import { describe, expect, it } from 'vitest';
import { benchEncryption } from '../../scripts/bench/bench-encryption';
import { fakeIdb, randomKey } from './fixtures';

describe('encryption overhead', () => {
  // The regression guard only: 300 documents twice keep the test short; `npm run bench` measures 1,000.
  it('measures 300 documents encrypted vs unencrypted', async () => {
    const result = await benchEncryption({ ...fakeIdb, key: randomKey(), documents: 300, repeats: 2 });
    const fmt = (n: number) => n.toFixed(1);
    console.info(
      `[bench] ${result.documents} docs | insert plain ${fmt(result.plain.insertMs)} ms, encrypted ${fmt(result.encrypted.insertMs)} ms (x${result.ratio.insert.toFixed(2)})` +
        ` | query plain ${fmt(result.plain.queryMs)} ms, encrypted ${fmt(result.encrypted.queryMs)} ms (x${result.ratio.query.toFixed(2)})` +
        ` | cold query plain ${fmt(result.plain.coldQueryMs)} ms, encrypted ${fmt(result.encrypted.coldQueryMs)} ms (x${result.ratio.coldQuery.toFixed(2)})` +
        ` | total x${result.ratio.total.toFixed(2)}`,
    );
    expect(result.plain.insertMs).toBeGreaterThan(0);
    // The target is 1.3x; the bound is loose because other test files (RSA key generation) share the CPU.
    expect(result.ratio.total).toBeLessThan(4);
  }, 120_000);
});
