import { startTransition, useLayoutEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { App, whenRouterReady } from '@/app/app';
import { startServiceWorker } from '@/app/shell/service-worker';
import { watchPrerendered } from '@/app/shell/takeover';
import { startData } from '@/app/start-data';
import { getSettings } from '@/data/settings-store';
import { getSessionStub } from '@/data/session-store';
import { kidsStyleAttribute, rememberedKidsStyle } from '@/data/kids-style';
import { yieldToMain } from '@/lib/yield-to-main';
import '@/app/styles/themes.css';
import '@/app/styles/base.css';
import '@/app/styles/shell.css';

// Before React's first paint (index.html's inline script did the same before the first paint of
// all): the chosen theme and, for a signed-in person, the style they had last time (the app then
// follows their account; see app-providers.tsx); then the data layer (API base, app config,
// session, replica, outbox, service worker), started once here and nowhere else.
document.documentElement.dataset.theme = getSettings().theme;
document.documentElement.dataset.kidsStyle = kidsStyleAttribute((getSessionStub() && rememberedKidsStyle()) || 'fun_style');
startData({ startServiceWorker });

/** Runs once, after React's first commit has replaced the prerendered login screen. */
function AfterFirstCommit({ run }: { run: () => void }) {
  useLayoutEffect(run, [run]);
  return null;
}

// index.html's first-paint script may start this module before the document is parsed.
const parsed =
  document.readyState === 'loading' ? new Promise<void>((resolve) => document.addEventListener('DOMContentLoaded', () => resolve(), { once: true })) : Promise.resolve();

void parsed.then(async () => {
  // The entry's evaluation and the data layer's start above are one task; the router's first
  // navigation and React's render start in the next (issue 13: no long task at start).
  await yieldToMain();
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root');
  const takeover = watchPrerendered(container);
  // The first commit shows the page itself (its route modules loaded), never a loading fallback.
  await whenRouterReady();
  const root = createRoot(container);
  // A transition: the first render yields to the browser every few milliseconds instead of being one
  // long task; its commit still replaces the prerendered screen in one go.
  startTransition(() =>
    root.render(
      <>
        <App />
        <AfterFirstCommit run={() => takeover?.carryOver()} />
      </>,
    ),
  );
});
