import { importInTasks } from '@/lib/import-in-tasks';
import { accountContract } from './contract-in-tasks';
import { getSessionStub } from './session-store';

/**
 * At a start with a stored session, asks the server for the account once the device is online.
 * The account on the device is only as new as the last sign-in (or a reload that cut its save
 * short): two-factor methods, feature flags and names change on the server and on other devices,
 * and the two-factor page must show what is true now. Offline it waits for the `online` event; a
 * network failure waits for the next one. The account module (and zod) loads on demand, kept out
 * of the entry chunk, its schemas a module per task.
 */
export function refreshAccountAtStart(): () => void {
  if (typeof window === 'undefined' || !getSessionStub()) return () => undefined;
  let state: 'waiting' | 'asking' | 'done' = 'waiting';
  const ask = (): void => {
    if (state !== 'waiting' || !navigator.onLine) return;
    state = 'asking';
    // The contract's schemas a module per task (./contract-in-tasks.ts), then the account's code.
    void importInTasks(accountContract)
      .then(() => import('./load-account'))
      .then(({ loadAccount }) => loadAccount())
      .then((result) => {
        if (state !== 'asking') return;
        // status 0: the network failed; try again when the browser next says it is online.
        state = !result.ok && result.status === 0 ? 'waiting' : 'done';
        if (state === 'done') window.removeEventListener('online', ask);
      })
      .catch(() => {
        if (state === 'asking') state = 'waiting';
      });
  };
  window.addEventListener('online', ask);
  ask();
  return () => {
    state = 'done';
    window.removeEventListener('online', ask);
  };
}
