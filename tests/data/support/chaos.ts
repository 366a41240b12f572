/**
 * The chaos suite's parts (tests/data/chaos.test.ts, issue 12): seeded action sequences drawn with
 * fast-check, a network between the outbox and the real server that goes offline and answers 500,
 * 503, 419 and 401 or times out "mid-flight" (before the server saw the request, or after it
 * applied it and before the outbox hears the answer), and a server that restarts on the same
 * database and port. Everything a real answer said is recorded, so the checks can compare the
 * server's rows with what was acknowledged.
 */
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { sendOutboxRequest } from '@/api/outbox-transport';
import type { Transport, TransportRequest, TransportResponse } from '@/data/outbox/replay';
import { buildApp } from '../../../server/app';
import type { TestServer } from '../../server/support/server';
import { FakeClassifier } from '../../server/support/uploads';
import { DEFAULT_SEED, envInt } from '../../support/chaos-seeds';

// --- seeds -------------------------------------------------------------------------------------

export { DEFAULT_SEED, sequenceSeed } from '../../support/chaos-seeds';

/** CHAOS_SEED and CHAOS_SEQUENCES, or the defaults. */
export function chaosSettings(defaultSequences: number): { seed: number; sequences: number } {
  return { seed: envInt('CHAOS_SEED') ?? DEFAULT_SEED, sequences: envInt('CHAOS_SEQUENCES') ?? defaultSequences };
}

// --- actions -----------------------------------------------------------------------------------

export type Fault = '500' | '503' | 'timeout' | '419' | '401' | 'restart';
/** before: the server never saw the request; after: it applied it, the answer is lost or replaced. */
export type FaultPhase = 'before' | 'after';

export type Action =
  | { readonly kind: 'write' }
  | { readonly kind: 'edit'; readonly pick: number }
  | { readonly kind: 'comment'; readonly pick: number }
  | { readonly kind: 'exchange' }
  | { readonly kind: 'offline' }
  | { readonly kind: 'online' }
  /** The next `times` requests of the outbox meet this fault. */
  | { readonly kind: 'fault'; readonly fault: Fault; readonly phase: FaultPhase; readonly times: number }
  /** The next pull (GET) of the replication is answered 500 or 503. */
  | { readonly kind: 'pull-fault'; readonly status: 500 | 503 }
  | { readonly kind: 'restart' }
  | { readonly kind: 'server-down' }
  | { readonly kind: 'server-up' }
  /** `whileSending`: the page goes away while a request is in flight (waits a moment for one). */
  | { readonly kind: 'reload'; readonly whileSending: boolean }
  | { readonly kind: 'close-reopen'; readonly whileSending: boolean; readonly offline: boolean; readonly minutes: number }
  /** Staff pause the reward the swaps are for: a swap still on its way is refused (422), nothing taken. */
  | { readonly kind: 'staff-pause' }
  | { readonly kind: 'other-edit'; readonly pick: number }
  /** This device changes an entry and, at once, the other device changes it too (an edit conflict, one way or the other, or none). */
  | { readonly kind: 'both-edit'; readonly pick: number }
  | { readonly kind: 'other-comment'; readonly pick: number }
  | { readonly kind: 'pull' }
  | { readonly kind: 'sign-in-again' }
  | { readonly kind: 'wait'; readonly ms: number }
  /** A calm moment: the outbox sends what is due, and its outcomes are applied. */
  | { readonly kind: 'drain' };

const pick = fc.nat({ max: 7 });
const actionArbitrary: fc.Arbitrary<Action> = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ kind: 'write' } as const) },
  { weight: 6, arbitrary: pick.map((p) => ({ kind: 'edit', pick: p }) as const) },
  { weight: 4, arbitrary: pick.map((p) => ({ kind: 'comment', pick: p }) as const) },
  { weight: 2, arbitrary: fc.constant({ kind: 'exchange' } as const) },
  { weight: 2, arbitrary: fc.constant({ kind: 'offline' } as const) },
  { weight: 3, arbitrary: fc.constant({ kind: 'online' } as const) },
  {
    weight: 7,
    arbitrary: fc
      .record({
        fault: fc.constantFrom<Fault>('500', '503', 'timeout', '419', '401', 'restart'),
        phase: fc.constantFrom<FaultPhase>('before', 'after'),
        times: fc.integer({ min: 1, max: 3 }),
      })
      .map(({ fault, phase, times }) => ({ kind: 'fault', fault, phase: fault === 'restart' ? 'after' : phase, times: fault === 'restart' ? 1 : times }) as const),
  },
  { weight: 1, arbitrary: fc.constantFrom(500 as const, 503 as const).map((status) => ({ kind: 'pull-fault', status }) as const) },
  { weight: 1, arbitrary: fc.constant({ kind: 'restart' } as const) },
  { weight: 1, arbitrary: fc.constant({ kind: 'server-down' } as const) },
  { weight: 1, arbitrary: fc.constant({ kind: 'server-up' } as const) },
  { weight: 1, arbitrary: fc.boolean().map((whileSending) => ({ kind: 'reload', whileSending }) as const) },
  {
    weight: 1,
    arbitrary: fc
      .record({ whileSending: fc.boolean(), offline: fc.boolean(), minutes: fc.constantFrom(1, 5, 60) })
      .map((r) => ({ kind: 'close-reopen', ...r }) as const),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'staff-pause' } as const) },
  { weight: 3, arbitrary: pick.map((p) => ({ kind: 'other-edit', pick: p }) as const) },
  { weight: 3, arbitrary: pick.map((p) => ({ kind: 'both-edit', pick: p }) as const) },
  { weight: 1, arbitrary: pick.map((p) => ({ kind: 'other-comment', pick: p }) as const) },
  { weight: 2, arbitrary: fc.constant({ kind: 'pull' } as const) },
  { weight: 1, arbitrary: fc.constant({ kind: 'sign-in-again' } as const) },
  { weight: 3, arbitrary: fc.constantFrom(0, 15, 60).map((ms) => ({ kind: 'wait', ms }) as const) },
  { weight: 2, arbitrary: fc.constant({ kind: 'drain' } as const) },
);

/** A sequence always begins with a new entry, so that edits and comments have something to act on. */
export const sequenceArbitrary: fc.Arbitrary<Action[]> = fc
  .array(actionArbitrary, { minLength: 4, maxLength: 10 })
  .map((rest) => [{ kind: 'write' } as const, ...rest]);

export function actionsFor(seed: number): Action[] {
  return fc.sample(sequenceArbitrary, { seed, numRuns: 1 })[0]!;
}

export function describeAction(action: Action): string {
  switch (action.kind) {
    case 'fault':
      return `fault(${action.fault} ${action.phase} x${action.times})`;
    case 'pull-fault':
      return `pull-fault(${action.status})`;
    case 'edit':
    case 'comment':
    case 'other-edit':
    case 'other-comment':
    case 'both-edit':
      return `${action.kind}(#${action.pick})`;
    case 'wait':
      return `wait(${action.ms}ms)`;
    case 'reload':
      return action.whileSending ? 'reload(while sending)' : 'reload';
    case 'close-reopen':
      return `close-reopen(${[action.whileSending ? 'while sending' : '', `${action.minutes} min`, action.offline ? 'reopened offline' : ''].filter(Boolean).join(', ')})`;
    default:
      return action.kind;
  }
}

// --- the server, restartable on its database ---------------------------------------------------

export interface RestartableServer {
  readonly up: boolean;
  stop(): Promise<void>;
  start(): Promise<void>;
  restart(): Promise<void>;
  /** Closes an app this helper started (the original one is closed by the sync server). */
  dispose(): Promise<void>;
  restarts: number;
  /** Whether the server was closing or down at some moment between `from` and `to` (ms epoch). */
  wasDownBetween(from: number, to: number): boolean;
}

/**
 * A real restart: the Fastify app closes (connections refused while it is down) and a new one is
 * built on the same database, configuration and port. Sessions and idempotency keys live in the
 * database; what lives in memory (the change notifier, timers) starts afresh, as after a deploy.
 */
export function restartable(server: TestServer): RestartableServer {
  const port = Number(new URL(server.base).port);
  const original = server.app;
  let app: FastifyInstance | null = server.app;
  let busy: Promise<void> = Promise.resolve();
  const serial = (work: () => Promise<void>) => (busy = busy.then(work, work));
  /** When the server began closing and when it listened again (null: still down). */
  const downtimes: { from: number; to: number | null }[] = [];
  const handle: RestartableServer = {
    get up() {
      return app !== null;
    },
    restarts: 0,
    stop: () =>
      serial(async () => {
        if (!app) return;
        const closing = app;
        app = null;
        downtimes.push({ from: Date.now(), to: null });
        await closing.close();
      }),
    start: () =>
      serial(async () => {
        if (app) return;
        const next = await buildApp({ config: server.config, db: server.db, database: server.database, limits: { authRequestsPerMinute: 100_000 }, imageClassifier: new FakeClassifier() });
        await next.listen({ port, host: '127.0.0.1' });
        app = next;
        server.app = next;
        handle.restarts += 1;
        const last = downtimes.at(-1);
        if (last && last.to === null) last.to = Date.now();
      }),
    async restart() {
      await handle.stop();
      await handle.start();
    },
    wasDownBetween: (from, to) => downtimes.some((d) => d.from <= to && (d.to ?? Infinity) >= from),
    dispose: () =>
      serial(async () => {
        if (app && app !== original) await app.close();
        app = null;
        server.app = original;
      }),
  };
  return handle;
}

// --- the network between the outbox and the server ---------------------------------------------

/** A real answer of the server to one write, as far as the checks need it. */
export interface ServerAnswer {
  readonly key: string;
  readonly path: string;
  readonly status: number;
  /** `data` of the answer (the row written), when it was an object. */
  readonly data: Record<string, unknown> | null;
}

export type InjectedKind = `${Exclude<Fault, 'restart'>} ${FaultPhase}` | 'restart after' | 'offline' | 'pull 500' | 'pull 503' | 'server down';

interface Armed {
  fault: Fault;
  phase: FaultPhase;
}

/** How long a timed-out request is given before the outbox hears "network error". */
const TIMEOUT_MS = 5;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const injectedAnswer = (fault: Exclude<Fault, 'timeout' | 'restart'>): TransportResponse => {
  switch (fault) {
    case '500':
      return { status: 500, body: { success: false, message: 'Server Error' } };
    case '503':
      return { status: 503, body: { success: false, message: 'Service Unavailable' }, retryAfterMs: 1_000 };
    case '419':
      return { status: 419, body: { success: false, message: 'CSRF token mismatch.' } };
    case '401':
      return { status: 401, body: { success: false, message: 'Unauthenticated.' } };
  }
};

/**
 * The outbox's transport in the chaos: the page's real one (sendOutboxRequest, real HTTP to the
 * server in-process) behind a switch for offline, armed faults, and "the page went away" (a reload
 * while a request is in flight: the server may apply it, the page never hears the answer).
 */
export class ChaosNetwork {
  online = true;
  /** The page is gone or the world is stopped: nothing new goes out (and nothing is counted). */
  private paused = false;
  /** The browser was closed: no XSRF cookie until it can fetch one (online, server up). */
  private csrfGone = false;
  private releaseKilledNow: () => void = () => undefined;
  private killedReleased: Promise<void> = Promise.resolve();
  private armed: Armed[] = [];
  private armedPulls: (500 | 503)[] = [];
  private inFlight = new Set<{ killed: boolean }>();
  private background = new Set<Promise<unknown>>();
  /** Idempotency-Keys the outbox heard a 2xx for, and when. */
  readonly acked = new Set<string>();
  readonly ackedAt = new Map<string, number>();
  /** Every real answer to a write, in the order they came. */
  readonly answers: ServerAnswer[] = [];
  /** Local document id → the Idempotency-Keys sent for it, in order (from the requests). */
  readonly keysByDoc = new Map<string, string[]>();
  readonly injected = new Map<InjectedKind, number>();
  requests = 0;
  pulls = 0;
  /** Runs after the server answered a write and before the outbox hears of it (regression cases). */
  afterAnswer: ((request: TransportRequest, response: TransportResponse) => Promise<void>) | null = null;
  /** What happened to each write on the wire, for a failure's log (`key path → what`). */
  readonly trace: string[] = [];
  /** 5xx answers of our own server (never injected ones), by method and path. */
  readonly server5xx: string[] = [];
  /** 503s of a server that was closing for a restart (Fastify answers requests arriving then so). */
  readonly closing5xx: string[] = [];

  private serverError(what: string, status: number, startedAt: number): void {
    if (status === 503 && this.server.wasDownBetween(startedAt, Date.now())) this.closing5xx.push(what);
    else this.server5xx.push(what);
  }

  constructor(private readonly server: RestartableServer) {}

  count(kind: InjectedKind): void {
    this.injected.set(kind, (this.injected.get(kind) ?? 0) + 1);
  }

  private note(request: TransportRequest, what: string): void {
    const url = new URL(request.url);
    this.trace.push(`[${new Date().toISOString().slice(11, 23)}] ${(request.headers['Idempotency-Key'] ?? '').slice(0, 8)} ${url.pathname.replace(/^\/api\/v1\/projects\/residents/, '')}${url.search} → ${what}`);
  }

  arm(fault: Fault, phase: FaultPhase, times: number): void {
    for (let i = 0; i < times; i += 1) this.armed.push({ fault, phase });
  }

  armPull(status: 500 | 503): void {
    this.armedPulls.push(status);
  }

  /** Everything back to normal: online, nothing armed. */
  heal(): void {
    this.online = true;
    this.armed = [];
    this.armedPulls = [];
  }

  /** Requests on their way now. */
  get sending(): number {
    return this.inFlight.size;
  }

  /**
   * Nothing new goes out. `kill`: the page went away, so the answers of requests in flight never
   * reach the outbox (they answer "network error" only after releaseKilled, once the test has read
   * the store as the dead page left it); the requests themselves go on to the server.
   */
  pause(kill = false): void {
    this.paused = true;
    if (!kill) return;
    this.killedReleased = new Promise<void>((resolve) => (this.releaseKilledNow = resolve));
    for (const flight of this.inFlight) flight.killed = true;
  }

  releaseKilled(): void {
    this.releaseKilledNow();
  }

  resume(): void {
    this.releaseKilledNow();
    this.paused = false;
  }

  forgetCsrf(): void {
    this.csrfGone = true;
  }

  /** Waits for requests still running in the background (a timed-out request goes on). */
  async idle(): Promise<void> {
    while (this.background.size > 0) await Promise.allSettled([...this.background]);
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    this.background.add(promise);
    void promise.finally(() => this.background.delete(promise)).catch(() => undefined);
    return promise;
  }

  private rememberDoc(request: TransportRequest, key: string): void {
    let docId: string | null = null;
    if (typeof request.body === 'string') {
      try {
        docId = ((JSON.parse(request.body) as { id?: unknown }).id as string | undefined) ?? null;
      } catch {
        docId = null;
      }
    } else {
      const id = request.body.get('id');
      docId = typeof id === 'string' ? id : null;
    }
    docId ??= /\/([0-9a-f-]{36})(?:\?|$)/.exec(request.url)?.[1] ?? null;
    if (!docId) return;
    const keys = this.keysByDoc.get(docId) ?? [];
    if (!keys.includes(key)) keys.push(key);
    this.keysByDoc.set(docId, keys);
  }

  readonly transport = (csrfToken: () => string | null): Transport => ({
    csrfToken: async () => {
      if (this.csrfGone) {
        // outboxCsrfToken fetches /auth/csrf-cookie when the cookie is missing: it needs the network.
        if (!this.online || !this.server.up) return null;
        this.csrfGone = false;
      }
      return csrfToken();
    },
    send: async (request) => {
      if (this.paused) return { status: 0, body: null };
      this.requests += 1;
      const key = request.headers['Idempotency-Key'] ?? '';
      this.rememberDoc(request, key);
      if (!this.online) {
        this.count('offline');
        this.note(request, 'offline');
        return { status: 0, body: null };
      }
      const fault = this.armed.shift();
      if (fault?.phase === 'before') {
        this.count(`${fault.fault as Exclude<Fault, 'restart'>} before`);
        this.note(request, `${fault.fault} before the server`);
        if (fault.fault === 'timeout') {
          await sleep(TIMEOUT_MS);
          return { status: 0, body: null };
        }
        return injectedAnswer(fault.fault as Exclude<Fault, 'timeout' | 'restart'>);
      }
      if (!this.server.up) this.count('server down');
      const flight = { killed: false };
      this.inFlight.add(flight);
      const startedAt = Date.now();
      const real = this.track(
        sendOutboxRequest(request).then((response) => {
          const path = new URL(request.url).pathname;
          if (response.status >= 500) this.serverError(`${request.method} ${path} ${response.status}`, response.status, startedAt);
          if (response.status > 0) {
            const described = (response.body as { data?: { description?: unknown; comment?: unknown; updated_at?: unknown } } | null)?.data;
            this.note(request, `server ${response.status}${described ? ` ${JSON.stringify(described.description ?? described.comment ?? null)} ${String(described.updated_at)}` : ''}`);
            const body = response.body as { data?: unknown } | null;
            const data = body && typeof body.data === 'object' && body.data !== null && !Array.isArray(body.data) ? (body.data as Record<string, unknown>) : null;
            this.answers.push({ key, path, status: response.status, data });
          }
          return response;
        }),
      );
      void real.finally(() => this.inFlight.delete(flight)).catch(() => undefined);
      let response: TransportResponse;
      if (fault?.fault === 'timeout') {
        const first = await Promise.race([real, sleep(TIMEOUT_MS).then(() => null)]);
        if (first === null) {
          this.note(request, 'timed out (the request goes on)');
          this.count('timeout after');
          return { status: 0, body: null };
        }
        response = first;
      } else {
        response = await real;
      }
      await this.afterAnswer?.(request, response);
      if (flight.killed) {
        this.note(request, 'answer lost: the page went away');
        await this.killedReleased;
        return { status: 0, body: null };
      }
      if (fault) {
        this.note(request, `answer replaced: ${fault.fault}`);
        if (fault.fault === 'restart') {
          this.count('restart after');
          await this.server.restart();
          return { status: 0, body: null };
        }
        if (fault.fault !== 'timeout') {
          this.count(`${fault.fault} after`);
          return injectedAnswer(fault.fault);
        }
      }
      if (response.status >= 200 && response.status < 300) {
        this.acked.add(key);
        if (!this.ackedAt.has(key)) this.ackedAt.set(key, Date.now());
      }
      else if (response.status === 0) this.note(request, 'network error');
      return response;
    },
  });

  /**
   * Wraps fetch for the app's own requests to the server (pulls; the outbox's go through the
   * transport first): offline is a network error, an armed pull fault answers instead of the
   * server. Test clients (the other device, staff) send their own cookies and pass untouched.
   */
  wrapFetch(base: string): () => void {
    const inner = globalThis.fetch;
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      const ownCookies = new Headers(init?.headers).has('cookie');
      if (url.origin !== base || ownCookies) return inner(input, init);
      const method = (init?.method ?? 'GET').toUpperCase();
      if (!this.online) throw new TypeError('fetch failed (offline)');
      if (method === 'GET') {
        this.pulls += 1;
        const status = this.armedPulls.shift();
        if (status) {
          this.count(`pull ${status}`);
          return new Response(JSON.stringify({ success: false, message: 'Server Error' }), { status, headers: { 'content-type': 'application/json' } });
        }
      }
      const startedAt = Date.now();
      const response = await inner(input, init);
      if (method === 'GET' && response.status >= 500) this.serverError(`GET ${url.pathname} ${response.status}`, response.status, startedAt);
      return response;
    }) as typeof fetch;
    return () => {
      globalThis.fetch = inner;
    };
  }
}
