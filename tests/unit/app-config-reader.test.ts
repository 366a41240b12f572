/**
 * The app config's hand-written check (src/api/app-config.ts, zod-free for the login screen's
 * JavaScript, issue 13) accepts exactly what the contract's schema accepts, and gives what it gives.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readAppConfig } from '@/api/app-config';
import { appConfigResponseSchema } from '@/contract/app-config';

const fromSchema = (body: unknown) => {
  const parsed = appConfigResponseSchema.safeParse(body);
  return parsed.success ? parsed.data.data : null;
};

const valid = {
  success: true,
  data: {
    product_name: 'Hearth',
    regions: [{ name: 'United Kingdom', api_base: '/api' }],
    default_region: 'United Kingdom',
    default_site: 'demo',
    dev_mailbox: false,
    push_public_key: null,
  },
};

// Values of every kind the fields could be given; each field is mostly of its own type, so that
// about a third of the answers are valid and the rest differ in one or two places.
const anything = fc.oneof(fc.string(), fc.constant(''), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.integer(), fc.constant([]), fc.constant({}));
const mostly = <T,>(good: fc.Arbitrary<T>) => fc.oneof({ arbitrary: good, weight: 12 }, { arbitrary: anything, weight: 1 });
const region = mostly(fc.record({ name: fc.string({ maxLength: 3 }), api_base: fc.string({ maxLength: 3 }), extra: anything }, { requiredKeys: ['name', 'api_base'] }));
const data = fc.record(
  {
    product_name: mostly(fc.string()),
    regions: mostly(fc.array(region, { maxLength: 3 })),
    default_region: mostly(fc.string()),
    default_site: mostly(fc.option(fc.string())),
    dev_mailbox: mostly(fc.boolean()),
    push_public_key: mostly(fc.option(fc.string())),
    extra: anything,
  },
  { requiredKeys: ['product_name', 'regions', 'default_region', 'default_site', 'dev_mailbox', 'push_public_key'] },
);
const body = mostly(fc.record({ success: mostly(fc.constant(true)), message: fc.option(mostly(fc.string()), { nil: undefined }), data: mostly(data) }, { requiredKeys: ['success', 'data'] }));

describe('readAppConfig', () => {
  it('reads a valid answer, unknown fields dropped', () => {
    expect(readAppConfig({ ...valid, message: 'ok', data: { ...valid.data, extra: 1 } })).toEqual(valid.data);
    expect(readAppConfig(valid)).toEqual(fromSchema(valid));
  });

  it('refuses what the schema refuses', () => {
    expect(readAppConfig({ ...valid, data: { ...valid.data, regions: [] } })).toBeNull();
    expect(readAppConfig({ ...valid, data: { ...valid.data, regions: [{ name: '', api_base: '/api' }] } })).toBeNull();
    expect(readAppConfig({ ...valid, success: false })).toBeNull();
    expect(readAppConfig({ ...valid, data: { ...valid.data, dev_mailbox: 'no' } })).toBeNull();
  });

  it('agrees with the contract schema on generated answers', () => {
    let accepted = 0;
    fc.assert(
      fc.property(body, (value) => {
        const expected = fromSchema(value);
        if (expected) accepted += 1;
        expect(readAppConfig(value)).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
    // Both sides of the check were tried.
    expect(accepted).toBeGreaterThan(100);
    expect(accepted).toBeLessThan(1900);
  });
});
