import { describe, expect, it } from 'vitest';
import { retryAfterMs } from '@/contract/retry-after';

const now = Date.parse('2026-03-01T12:00:00Z');

describe('retryAfterMs', () => {
  it('reads delta-seconds', () => {
    expect(retryAfterMs('30', now)).toBe(30_000);
    expect(retryAfterMs('0', now)).toBe(0);
    expect(retryAfterMs(' 5 ', now)).toBe(5_000);
    expect(retryAfterMs('1.5', now)).toBe(1_500);
  });

  it('never answers a negative delay', () => {
    expect(retryAfterMs('-3', now)).toBe(0);
    expect(retryAfterMs('Sun, 01 Mar 2026 11:59:00 GMT', now)).toBe(0);
  });

  it('reads an HTTP-date relative to now', () => {
    expect(retryAfterMs('Sun, 01 Mar 2026 12:00:45 GMT', now)).toBe(45_000);
    expect(retryAfterMs(new Date(now + 2_000).toUTCString(), now)).toBe(2_000);
  });

  it('uses the clock when no now is given', () => {
    const value = retryAfterMs(new Date(Date.now() + 60_000).toUTCString());
    expect(value).toBeGreaterThan(55_000);
    expect(value).toBeLessThanOrEqual(60_000);
  });

  it('is null when absent, empty or unreadable', () => {
    expect(retryAfterMs(null, now)).toBeNull();
    expect(retryAfterMs(undefined, now)).toBeNull();
    expect(retryAfterMs('', now)).toBeNull();
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs('Infinity', now)).toBeNull();
  });

  it('reads a header as the three copies did (Headers.get)', () => {
    expect(retryAfterMs(new Headers({ 'Retry-After': '30' }).get('Retry-After'), now)).toBe(30_000);
    expect(retryAfterMs(new Headers().get('Retry-After'), now)).toBeNull();
  });
});
