import { createStore, useStore } from '@/data/create-store';

/** Whether a new build waits, and how to switch to it (set by ./service-worker; no worker code here). */
export const updateStore = createStore<boolean>(false);
let applyUpdate: (() => Promise<void>) | null = null;

export const useUpdateAvailable = (): boolean => useStore(updateStore);

export function setUpdateHandler(handler: () => Promise<void>): void {
  applyUpdate = handler;
}

export async function updateNow(): Promise<void> {
  if (applyUpdate) await applyUpdate();
  else window.location.reload();
}
