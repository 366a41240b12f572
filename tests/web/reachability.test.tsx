/**
 * A Wi-Fi that is connected but reaches nothing (src/api/reachability.ts): `navigator.onLine`
 * stays true, so the app learns it from its own requests, says "You are currently offline", and
 * finds out by itself when the server answers again.
 */
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { request } from '@/api/client';
import {
  isOnline,
  isServerUnreachable,
  noteNetworkFailure,
  onReachableAgain,
  PROBE_FIRST_MS,
} from '@/api/reachability';
import { messages } from '@/contract/messages';
import { OfflineBanner } from '@/app/shell/offline-banner';
import { fakeFetch, json } from './support/fake-fetch';

/** A network that reaches nothing until `reach()` is called. */
function lieFi() {
  let reaching = false;
  const server = fakeFetch(() => {
    if (!reaching) throw new TypeError('Failed to fetch');
    return json(200, { status: 'ok' });
  });
  return { server, reach: () => (reaching = true) };
}

const setBrowserOnline = (online: boolean) => vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(online);

describe('reaching the server', () => {
  it('one failed request is not enough; two in a row with no answer between make the server unreachable', async () => {
    const net = lieFi();
    expect(await request('/v1/thing', { retries: 0 })).toMatchObject({ ok: false, status: 0 });
    expect(isServerUnreachable()).toBe(false);
    await request('/v1/thing', { retries: 0 });
    expect(isServerUnreachable()).toBe(true);
    expect(isOnline()).toBe(false);
    net.reach();
    // Any answer, even a refusal, means the server is there.
    expect((await request('/v1/thing', { retries: 0 })).ok).toBe(true);
    expect(isServerUnreachable()).toBe(false);
    expect(isOnline()).toBe(true);
  });

  it('does not count requests the caller called off, nor failures while the browser says offline', async () => {
    lieFi();
    const cancelled = new AbortController();
    cancelled.abort();
    await request('/v1/thing', { retries: 0, signal: cancelled.signal });
    await request('/v1/thing', { retries: 0, signal: cancelled.signal });
    expect(isServerUnreachable()).toBe(false);
    setBrowserOnline(false);
    noteNetworkFailure();
    noteNetworkFailure();
    expect(isServerUnreachable()).toBe(false);
  });

  it('asks the server again by itself, less often while it stays away, and says when it is back', async () => {
    vi.useFakeTimers();
    const net = lieFi();
    const back = vi.fn();
    const stop = onReachableAgain(back);
    noteNetworkFailure();
    noteNetworkFailure();
    const probes = () => net.server.calls.filter((call) => call.path === '/health').length;
    expect(probes()).toBe(0);
    await vi.advanceTimersByTimeAsync(PROBE_FIRST_MS);
    expect(probes()).toBe(1);
    // The next one waits twice as long.
    await vi.advanceTimersByTimeAsync(PROBE_FIRST_MS * 2 - 1);
    expect(probes()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(probes()).toBe(2);
    expect(back).not.toHaveBeenCalled();
    net.reach();
    // The browser's `online` event asks at once.
    window.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(0);
    expect(probes()).toBe(3);
    expect(isServerUnreachable()).toBe(false);
    expect(back).toHaveBeenCalledOnce();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(probes()).toBe(3);
    stop();
  });

  it('shows the offline banner while the server is unreachable, though the browser says online', async () => {
    const net = lieFi();
    render(<OfflineBanner />);
    expect(screen.queryByText(messages.offline)).toBeNull();
    await act(async () => {
      await request('/v1/thing', { retries: 0 });
      await request('/v1/thing', { retries: 0 });
    });
    expect(screen.getByRole('status').textContent).toBe(messages.offline);
    net.reach();
    await act(async () => {
      await request('/v1/thing', { retries: 0 });
    });
    expect(screen.queryByText(messages.offline)).toBeNull();
  });
});
