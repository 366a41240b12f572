/// <reference types="vite-plugin-pwa/vanillajs" />
import { rules } from '@/contract/rules';
import { setUpdateHandler, updateStore } from './update-state';

/**
 * Registers sw/sw.ts (production builds only) with vite-plugin-pwa's `virtual:pwa-register`
 * (workbox-window underneath; no inline script, so the CSP's `script-src 'self'` holds).
 * A new build is looked for every hour (SPEC §9) and when the app comes back to the foreground;
 * the first registration waits for the page's `load` (the worker's precache, over a megabyte, must
 * not compete with the page's own first download on a slow connection: issue 13);
 * Imported only by src/main.tsx (tests have no `virtual:pwa-register`). When a build is waiting,
 * the update banner offers it, and "Update" activates it and reloads.
 */
let started = false;

export function startServiceWorker(): void {
  if (started || !import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  started = true;
  void import('virtual:pwa-register')
    .then(({ registerSW }) => {
      const update = registerSW({
        immediate: false,
        onNeedRefresh: () => updateStore.set(true),
        onRegisteredSW: (_url, registration) => {
          if (!registration) return;
          const check = () => {
            if (!navigator.onLine || registration.installing) return;
            void registration.update().catch(() => undefined);
          };
          setInterval(check, rules.buildCheckIntervalMs);
          document.addEventListener('visibilitychange', () => {
            if (document.visibilityState === 'visible') check();
          });
        },
        onRegisterError: (error: unknown) => console.warn('Service worker registration failed', error),
      });
      setUpdateHandler(() => update(true));
    })
    .catch((error: unknown) => console.warn('Service worker registration failed', error));
}
