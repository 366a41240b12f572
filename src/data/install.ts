/**
 * Installing Hearth (issue 10): on iOS, web push reaches only a web app on the Home Screen and Safari
 * may clear a site's storage after seven days without a visit; installed, neither happens.
 *
 * - Chromium fires `beforeinstallprompt` when Hearth can be installed: the capture (started by the
 *   composition root, before any screen) keeps the event so a calm offer on the dashboard can call
 *   its `prompt()` when the person asks, instead of the browser's own banner. `appinstalled` ends it.
 * - Each offer can be dismissed for good: a flag per device in localStorage (not personal; sign-out
 *   keeps it, so a shared tablet is not asked again by the next person either).
 */
import { createStore, local, useStore } from './create-store';

/** Chromium's event (not in TypeScript's DOM types). */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform?: string }>;
}

interface InstallState {
  /** The kept event: the browser would install Hearth now if asked. */
  readonly prompt: BeforeInstallPromptEvent | null;
  /** Installed in this session (`appinstalled`, or accepted). */
  readonly installed: boolean;
}

const store = createStore<InstallState>({ prompt: null, installed: false });

/** Listens for the browser's install events; returns the undo. */
export function startInstallCapture(target: Window | undefined = typeof window === 'undefined' ? undefined : window): () => void {
  if (!target) return () => undefined;
  const onPrompt = (event: Event) => {
    event.preventDefault(); // no mini-infobar: the offer is ours, where and when it is calm
    store.set((state) => ({ ...state, prompt: event as BeforeInstallPromptEvent }));
  };
  const onInstalled = () => store.set({ prompt: null, installed: true });
  target.addEventListener('beforeinstallprompt', onPrompt);
  target.addEventListener('appinstalled', onInstalled);
  return () => {
    target.removeEventListener('beforeinstallprompt', onPrompt);
    target.removeEventListener('appinstalled', onInstalled);
    store.set({ prompt: null, installed: false });
  };
}

export const useInstallState = (): InstallState => useStore(store);

/**
 * Shows the browser's install dialog (once per kept event: the browser allows one `prompt()`).
 * 'unavailable' when there is nothing to show.
 */
export async function promptInstall(): Promise<'accepted' | 'dismissed' | 'unavailable'> {
  const event = store.get().prompt;
  if (!event) return 'unavailable';
  store.set((state) => ({ ...state, prompt: null }));
  try {
    await event.prompt();
    const { outcome } = await event.userChoice;
    if (outcome === 'accepted') store.set((state) => ({ ...state, installed: true }));
    return outcome;
  } catch {
    return 'unavailable';
  }
}

/** The offers that can be dismissed for good, each with its own device flag. */
export type InstallOffer = 'install' | 'ios-guide' | 'push';
const flagKey = (offer: InstallOffer) => `hearth.offer.${offer}.dismissed`;

/** Bumped by a dismissal, so readers look at the flags again. */
const flagsChanged = createStore(0);

function readFlags(): Readonly<Record<InstallOffer, boolean>> {
  return { install: local.read(flagKey('install')) === true, 'ios-guide': local.read(flagKey('ios-guide')) === true, push: local.read(flagKey('push')) === true };
}

/** Whether each offer was dismissed for good on this device. */
export function useDismissedOffers(): Readonly<Record<InstallOffer, boolean>> {
  useStore(flagsChanged);
  return readFlags();
}

export function dismissOffer(offer: InstallOffer): void {
  local.write(flagKey(offer), true);
  flagsChanged.set((n) => n + 1);
}
