/**
 * The outbox's rules as pure functions: what an HTTP answer means for an entry, and the entry's
 * next state. The replay loop (./replay.ts) reads, claims, sends and writes; it asks these what to
 * write. Shared by the page and the service worker (no DOM).
 *
 * 2xx → sent (request and files wiped, the answer's `data` kept for the page to settle);
 * 401/419 → held (nothing more goes until the person signs in again);
 * network error (0), 408, 409, 425, 429, 5xx → retried later with backoff (Retry-After honoured);
 * 412, 422 and any other refusal → failed, with the server's message (or the write's own), its
 * field errors and, when the refusal carries one, its `data` (an edit conflict: the entry as it is now).
 */
import { chosenMessages } from '@/contract/messages';
import { isRetryable, retryDelayMs } from './backoff';
import type { OutboxRecord, OutboxResult } from './types';

/** How long a replayer owns an entry it is sending. */
export const LEASE_MS = 90_000;

/** status 0: the network failed. `body` is the parsed JSON answer, or null. */
export interface HttpOutcome {
  readonly status: number;
  readonly body: unknown;
  readonly retryAfterMs?: number | null;
}

/** What an answer means for the entry, and so for the rest of this pass. */
export type Verdict =
  | { readonly kind: 'sent'; readonly result: OutboxResult }
  | { readonly kind: 'held'; readonly status: 401 | 419 }
  | { readonly kind: 'retry'; readonly retryAfterMs: number | null }
  | {
      readonly kind: 'failed';
      readonly message: string;
      readonly errors?: Readonly<Record<string, readonly string[]>>;
      /** What the refusal says is there instead (an edit conflict's 412: the entry as it is now). */
      readonly data?: Record<string, unknown>;
    };

export function messageOf(body: unknown): string {
  if (body && typeof body === 'object') {
    const message = (body as Record<string, unknown>).message;
    if (typeof message === 'string') return message;
  }
  return '';
}

function firstFieldError(body: unknown): string {
  const errors = body && typeof body === 'object' ? (body as Record<string, unknown>).errors : null;
  if (!errors || typeof errors !== 'object') return '';
  for (const list of Object.values(errors as Record<string, unknown>)) {
    const first: unknown = Array.isArray(list) ? list[0] : null;
    if (typeof first === 'string' && first) return first;
  }
  return '';
}

/**
 * The text a refusal leaves on the document: the server's message, or, when that is only the
 * generic "Some details need fixing", its first field error, which says what went wrong (staff
 * closed the conversation, an image was inappropriate). Empty when the answer has neither.
 */
export function refusalTextOf(body: unknown): string {
  const message = messageOf(body);
  if (message && message !== chosenMessages.validationFailed) return message;
  return firstFieldError(body) || message;
}

/** A refusal's field errors (`errors` of the answer: field → messages), or undefined when it has none. */
export function fieldErrorsOf(body: unknown): Record<string, string[]> | undefined {
  const errors = body && typeof body === 'object' ? (body as Record<string, unknown>).errors : null;
  if (!errors || typeof errors !== 'object' || Array.isArray(errors)) return undefined;
  const out: Record<string, string[]> = {};
  for (const [key, list] of Object.entries(errors as Record<string, unknown>)) {
    const messages = Array.isArray(list) ? list.filter((m): m is string => typeof m === 'string') : [];
    if (messages.length) out[key] = messages;
  }
  return Object.keys(out).length ? out : undefined;
}

/** The part of a 2xx answer the page needs: `data.id` and `data` (see OutboxResult). */
export function resultOf(body: unknown): OutboxResult {
  const data = body && typeof body === 'object' ? (body as Record<string, unknown>).data : null;
  if (!data || typeof data !== 'object' || Array.isArray(data)) return { id: null, data: null };
  const id = (data as Record<string, unknown>).id;
  return { id: typeof id === 'string' ? id : null, data: data as Record<string, unknown> };
}

/** The verdict on an answer; `failureMessage` is the write's own text for a refusal without one. */
export function verdictOf(outcome: HttpOutcome, failureMessage: string): Verdict {
  const { status } = outcome;
  if (status >= 200 && status < 300) return { kind: 'sent', result: resultOf(outcome.body) };
  if (status === 401 || status === 419) return { kind: 'held', status };
  if (isRetryable(status)) return { kind: 'retry', retryAfterMs: outcome.retryAfterMs ?? null };
  const errors = fieldErrorsOf(outcome.body);
  const { data } = resultOf(outcome.body);
  return { kind: 'failed', message: refusalTextOf(outcome.body) || failureMessage, ...(errors ? { errors } : {}), ...(data ? { data } : {}) };
}

/**
 * An entry a replayer may take now: pending, due, and nobody holds its lease. `leasesLapsed`: the
 * replayer holds the lock every replayer takes (./replay.ts), so none other is running and a lease
 * still on an entry was left by one that went away mid-flight (a page closed or reloaded while
 * sending, a stopped worker): it no longer holds the entry back for the rest of LEASE_MS. A repeat
 * of what that replayer may have sent is harmless (the Idempotency-Key).
 */
export const isReady = (record: OutboxRecord, now: number, leasesLapsed = false): boolean =>
  record.state === 'pending' && record.nextAttemptAt <= now && (leasesLapsed || record.leaseUntil <= now);

/** The claim, decided on the stored entry inside the write: leased to this replayer, or null if not ready. */
export function claim(current: OutboxRecord, now: number, leasesLapsed = false): OutboxRecord | null {
  return isReady(current, now, leasesLapsed) ? { ...current, leaseUntil: now + LEASE_MS } : null;
}

export interface TransitionContext {
  /** When the answer came. */
  readonly now: number;
  readonly random?: () => number;
  /** Encrypts a part of the entry with the data key (the answer's result, a failure message). */
  seal(part: 'result' | 'failure', value: unknown): string;
}

/** The entry after an answer with `status` and its verdict (applied to the stored entry, in one write). */
export function nextRecord(current: OutboxRecord, status: number, verdict: Verdict, context: TransitionContext): OutboxRecord {
  const attempts = current.attempts + 1;
  const answered = { ...current, leaseUntil: 0, attempts, lastStatus: status };
  switch (verdict.kind) {
    case 'sent':
      return { ...answered, state: 'sent', request: null, files: [], failure: null, result: context.seal('result', verdict.result), notified: false };
    case 'held':
      return { ...answered, state: 'held' };
    case 'retry':
      return { ...answered, nextAttemptAt: context.now + retryDelayMs(attempts, context.random, verdict.retryAfterMs) };
    case 'failed':
      return {
        ...answered,
        state: 'failed',
        failure: context.seal('failure', verdict.message),
        // The field errors (and what the refusal says is there instead), sealed like an answer, for
        // the screen that shows them (a form's answers beside their questions; an edit conflict's other version).
        result:
          verdict.errors || verdict.data
            ? context.seal('result', { id: null, data: verdict.data ?? null, ...(verdict.errors ? { errors: verdict.errors } : {}) } satisfies OutboxResult)
            : null,
        notified: false,
      };
  }
}

/** An entry this key cannot open (the key was replaced): it can never be sent. */
export function unreadableRecord(current: OutboxRecord): OutboxRecord {
  return { ...current, state: 'failed', leaseUntil: 0, failure: null, notified: false };
}
