import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { configureRetryPolicy } from '@/api/client';
import { setApiBase } from '@/api/base-address';
import { resetReachability } from '@/api/reachability';
import { startData } from '@/app/start-data';
import { resetAppConfig } from '@/data/app-config-store';
import { resetToastHold } from '@/components/toast-hold';
import { resetToastQueue } from '@/components/toast-queue';
import { clearSession } from '@/data/session-store';
import { resetSettings } from '@/data/settings-store';
import { WAIT_MS } from '../support/wait';

// CI shares two cores with a database and a browser: give findBy/waitFor room before failing.
configure({ asyncUtilTimeout: WAIT_MS });

// jsdom has no layout: scrolling is a no-op here.
window.scrollTo = (() => undefined) as typeof window.scrollTo;

function clearCookies(): void {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
}

let stopData: () => void = () => undefined;

beforeEach(() => {
  // Retries stay real but quick.
  configureRetryPolicy({ retries: 3, baseDelayMs: 1, maxDelayMs: 5 });
  setApiBase('/api');
  // What src/main.tsx starts, minus what jsdom has no room for (IndexedDB, a service worker, the
  // outbox's window listeners): a 401 or 419 expires the session, logout runs its wipe steps.
  stopData = startData({ replica: false, outbox: false, shell: false });
});

afterEach(() => {
  stopData();
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  clearSession();
  resetSettings();
  resetAppConfig();
  resetToastHold();
  resetToastQueue();
  resetReachability();
  localStorage.clear();
  sessionStorage.clear();
  clearCookies();
});
