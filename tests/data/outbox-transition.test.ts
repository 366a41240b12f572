/** The outbox's rules as pure functions (src/data/outbox/transition.ts): no IndexedDB, no network. */
import { describe, expect, it } from 'vitest';
import { chosenMessages } from '@/contract/messages';
import { backoffPolicy } from '@/data/outbox/backoff';
import { LEASE_MS, claim, isReady, nextRecord, refusalTextOf, resultOf, unreadableRecord, verdictOf, type TransitionContext } from '@/data/outbox/transition';
import type { OutboxRecord } from '@/data/outbox/types';

const NOW = 1_000_000;

function record(change: Partial<OutboxRecord> = {}): OutboxRecord {
  return {
    id: 'k1',
    seq: 1,
    createdAt: NOW - 10,
    state: 'pending',
    attempts: 0,
    nextAttemptAt: NOW - 1,
    leaseUntil: NOW - 1,
    lastStatus: null,
    meta: 'sealed-meta',
    request: 'sealed-request',
    files: [new Uint8Array([1, 2, 3])],
    failure: null,
    result: null,
    notified: true,
    ...change,
  };
}

const context: TransitionContext = { now: NOW, random: () => 0, seal: (part, value) => `sealed(${part}:${JSON.stringify(value)})` };

describe('verdictOf: what an answer means', () => {
  it.each([200, 201, 204, 299])('%i → sent, with data.id and data', (status) => {
    expect(verdictOf({ status, body: { success: true, data: { id: 'srv-1', x: 1 } } }, 'own')).toEqual({ kind: 'sent', result: { id: 'srv-1', data: { id: 'srv-1', x: 1 } } });
  });

  it('a 2xx without data still counts as sent', () => {
    expect(verdictOf({ status: 204, body: null }, 'own')).toEqual({ kind: 'sent', result: { id: null, data: null } });
  });

  it.each([401, 419])('%i → held', (status) => {
    expect(verdictOf({ status, body: null }, 'own')).toEqual({ kind: 'held', status });
  });

  it.each([0, 408, 409, 425, 429, 500, 502, 503, 504, 599])('%i → retried, Retry-After kept', (status) => {
    expect(verdictOf({ status, body: null, retryAfterMs: 7_000 }, 'own')).toEqual({ kind: 'retry', retryAfterMs: 7_000 });
    expect(verdictOf({ status, body: null }, 'own')).toEqual({ kind: 'retry', retryAfterMs: null });
  });

  it('422 → failed with the server message; the generic one gives way to the first field error', () => {
    expect(verdictOf({ status: 422, body: { message: 'The conversation is closed' } }, 'own')).toEqual({ kind: 'failed', message: 'The conversation is closed' });
    expect(verdictOf({ status: 422, body: { message: chosenMessages.validationFailed, errors: { file: ['Inappropriate image'] } } }, 'own')).toEqual({
      kind: 'failed',
      message: 'Inappropriate image',
      errors: { file: ['Inappropriate image'] },
    });
  });

  it('other refusals without a message → failed with the write\'s own message', () => {
    expect(verdictOf({ status: 403, body: null }, 'Your entry could not be saved')).toEqual({ kind: 'failed', message: 'Your entry could not be saved' });
    expect(verdictOf({ status: 404, body: { errors: {} } }, 'own')).toEqual({ kind: 'failed', message: 'own' });
  });

  it('refusalTextOf and resultOf read only what they should', () => {
    expect(refusalTextOf({ message: chosenMessages.validationFailed })).toBe(chosenMessages.validationFailed);
    expect(refusalTextOf('nonsense')).toBe('');
    expect(resultOf({ data: [1, 2] })).toEqual({ id: null, data: null });
    expect(resultOf({ data: { id: 5 } })).toEqual({ id: null, data: { id: 5 } });
  });
});

describe('nextRecord: the entry after an answer', () => {
  it('sent: request and files wiped, the result sealed, outcome not yet applied', () => {
    const next = nextRecord(record({ attempts: 2 }), 201, { kind: 'sent', result: { id: 'a', data: { id: 'a' } } }, context);
    expect(next).toMatchObject({ state: 'sent', request: null, files: [], failure: null, attempts: 3, lastStatus: 201, leaseUntil: 0, notified: false });
    expect(next.result).toBe('sealed(result:{"id":"a","data":{"id":"a"}})');
  });

  it('held: the body stays for after the next sign-in', () => {
    const before = record({ leaseUntil: NOW + LEASE_MS });
    const next = nextRecord(before, 419, { kind: 'held', status: 419 }, context);
    expect(next).toMatchObject({ state: 'held', request: 'sealed-request', files: before.files, attempts: 1, lastStatus: 419, leaseUntil: 0 });
  });

  it('retry: pending, due after the backoff (or Retry-After when longer)', () => {
    const first = nextRecord(record(), 503, { kind: 'retry', retryAfterMs: null }, context);
    expect(first).toMatchObject({ state: 'pending', attempts: 1, lastStatus: 503, leaseUntil: 0, nextAttemptAt: NOW + backoffPolicy.baseMs / 2 });
    const third = nextRecord(record({ attempts: 2 }), 0, { kind: 'retry', retryAfterMs: null }, context);
    expect(third.nextAttemptAt).toBe(NOW + (backoffPolicy.baseMs * 4) / 2);
    const told = nextRecord(record(), 429, { kind: 'retry', retryAfterMs: 60_000 }, context);
    expect(told.nextAttemptAt).toBe(NOW + 60_000);
  });

  it('failed: the message sealed, the body kept', () => {
    const next = nextRecord(record(), 422, { kind: 'failed', message: 'Closed' }, context);
    expect(next).toMatchObject({ state: 'failed', failure: 'sealed(failure:"Closed")', request: 'sealed-request', attempts: 1, lastStatus: 422, notified: false });
    expect(next.result).toBeNull();
    // A refusal's field errors are sealed too, for the screen that shows them beside its fields.
    const withErrors = nextRecord(record(), 422, { kind: 'failed', message: 'Fix it', errors: { 'answers.x': ['Required'] } }, context);
    expect(withErrors.result).toBe('sealed(result:{"id":null,"data":null,"errors":{"answers.x":["Required"]}})');
  });

  it('does not change the entry it is given', () => {
    const before = record();
    const copy = structuredClone(before);
    nextRecord(before, 201, { kind: 'sent', result: { id: null, data: null } }, context);
    expect(before).toEqual(copy);
  });
});

describe('claims and unreadable entries', () => {
  it('only a pending, due, unleased entry is ready; claiming leases it', () => {
    expect(isReady(record(), NOW)).toBe(true);
    expect(isReady(record({ state: 'held' }), NOW)).toBe(false);
    expect(isReady(record({ nextAttemptAt: NOW + 1 }), NOW)).toBe(false);
    expect(isReady(record({ leaseUntil: NOW + 1 }), NOW)).toBe(false);
    expect(claim(record(), NOW)?.leaseUntil).toBe(NOW + LEASE_MS);
    expect(claim(record({ state: 'failed' }), NOW)).toBeNull();
  });

  it('an entry the key cannot open is failed without a message', () => {
    expect(unreadableRecord(record({ leaseUntil: NOW + 5, failure: 'x' }))).toMatchObject({ state: 'failed', leaseUntil: 0, failure: null, notified: false });
  });
});
