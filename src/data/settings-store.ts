import { rules } from '@/contract/rules';
import { createStore, local, useStore } from './create-store';

/** SPEC §3 settings, remembered on the device. None of them is personal: they survive sign-out. */
export const themeNames = ['fun', 'metro', 'none'] as const;
export type ThemeName = (typeof themeNames)[number];

export interface Settings {
  theme: ThemeName;
  /** The client site (SPEC calls it domain). */
  domain: string | null;
  region: string;
  /** True once the person typed a site: then it wins over the host name. */
  userSetDomain: boolean;
}

export const SETTINGS_KEY = 'hearth.settings';

export const defaultSettings: Settings = {
  theme: rules.defaultTheme,
  domain: null,
  region: rules.defaultRegion,
  userSetDomain: false,
};

/** Reads what is stored field by field; anything unreadable falls back to its default (no zod in the entry chunk). */
function load(): Settings {
  const raw = local.read(SETTINGS_KEY);
  const stored = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  return {
    theme: themeNames.includes(stored.theme as ThemeName) ? (stored.theme as ThemeName) : defaultSettings.theme,
    domain: typeof stored.domain === 'string' && stored.domain ? stored.domain : null,
    region: typeof stored.region === 'string' && stored.region ? stored.region : defaultSettings.region,
    userSetDomain: stored.userSetDomain === true,
  };
}

const store = createStore<Settings>(load());

export const getSettings = store.get;
export const subscribeSettings = store.subscribe;
export const useSettings = (): Settings => useStore(store);

export function updateSettings(patch: Partial<Settings>): void {
  store.set((previous) => ({ ...previous, ...patch }));
  local.write(SETTINGS_KEY, store.get());
}

/** Back to the defaults (tests, or "forget this device"). */
export function resetSettings(): void {
  local.remove(SETTINGS_KEY);
  store.set(load());
}
