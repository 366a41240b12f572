/**
 * Requests at an even pace (an open model: one every 1000/rate ms, whatever the answers are doing),
 * each latency taken from the moment it was due, so a slow answer cannot hide the ones queued behind
 * it. For "the latency a person sees at 200 requests a second" this replaces autocannon's
 * `overallRate`, which gives each connection its own per-second budget: with 200 connections all 200
 * requests of a second leave together at the top of the second (a burst of 200 at once, not a pace),
 * and its correction for coordinated omission then assumes one request per millisecond.
 */
import http from 'node:http';
import { quantile } from './quantile';

export interface PacedRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
}

export interface PacedResult {
  requests: number;
  seconds: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

const TIMEOUT_MS = 10_000;

const ms = (sorted: readonly number[], q: number) => Math.round(quantile(sorted, q) * 100) / 100;

export async function pacedLoad(options: {
  base: string;
  requests: readonly PacedRequest[];
  rate: number;
  seconds: number;
  headers: Record<string, string>;
}): Promise<PacedResult> {
  const { hostname, port } = new URL(options.base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const interval = 1000 / options.rate;
  const total = Math.round(options.rate * options.seconds);
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let timeouts = 0;
  const start = performance.now();

  await new Promise<void>((resolve) => {
    let sent = 0;
    let settled = 0;
    const settle = () => {
      settled += 1;
      if (settled === total) resolve();
    };
    const fire = (n: number, due: number) => {
      const request = options.requests[n % options.requests.length]!;
      let done = false;
      const once = (record: () => void) => {
        if (done) return;
        done = true;
        record();
        settle();
      };
      const req = http.request(
        { agent, hostname, port, method: request.method, path: request.path, headers: { ...options.headers, ...request.headers }, timeout: TIMEOUT_MS },
        (res) => {
          res.resume();
          res.on('end', () =>
            once(() => {
              if ((res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300) latencies.push(performance.now() - due);
              else non2xx += 1;
            }),
          );
        },
      );
      // Counted once, as a timeout: the destroy's error event then finds the request already settled.
      req.on('timeout', () => {
        once(() => (timeouts += 1));
        req.destroy();
      });
      req.on('error', () => once(() => (errors += 1)));
      req.end();
    };
    const tick = () => {
      const now = performance.now();
      // Everything due by now leaves now (a late timer never thins the pace), timed from when it was due.
      while (sent < total && start + sent * interval <= now) {
        fire(sent, start + sent * interval);
        sent += 1;
      }
      if (sent < total) setTimeout(tick, Math.max(0, start + sent * interval - performance.now()));
    };
    tick();
  });
  agent.destroy();

  const sorted = latencies.sort((a, b) => a - b);
  return {
    requests: total,
    seconds: Math.round(((performance.now() - start) / 1000) * 10) / 10,
    latencyMs: { p50: ms(sorted, 0.5), p90: ms(sorted, 0.9), p99: ms(sorted, 0.99), max: ms(sorted, 1) },
    non2xx,
    errors,
    timeouts,
  };
}
