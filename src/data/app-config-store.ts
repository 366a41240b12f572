import { getAppConfig } from '@/api/app-config';
import type { AppConfig } from '@/contract/app-config';
import { rules } from '@/contract/rules';
import { createStore, local, useStore } from './create-store';

export const APP_CONFIG_KEY = 'hearth.appConfig';

/** Used until the server answers, and offline on a first start. */
export const fallbackAppConfig: AppConfig = {
  product_name: 'Hearth',
  regions: [{ name: rules.defaultRegion, api_base: '/api' }],
  default_region: rules.defaultRegion,
  default_site: null,
  dev_mailbox: false,
  push_public_key: null,
};

/** The last copy the server gave (validated with the contract when it arrived), if any. */
function cached(): AppConfig | null {
  const value = local.read(APP_CONFIG_KEY) as Partial<AppConfig> | null;
  const usable =
    value &&
    typeof value.product_name === 'string' &&
    Array.isArray(value.regions) &&
    value.regions.length > 0 &&
    typeof value.default_region === 'string';
  return usable ? { ...fallbackAppConfig, ...value } : null;
}

const initial = cached();
const store = createStore<AppConfig>(initial ?? fallbackAppConfig);
/**
 * True once the app knows the server's config or knows it cannot have it yet: a cached copy, or the
 * first load finished (answered or failed). False only on a very first visit while the request runs.
 */
const settledStore = createStore<boolean>(initial !== null);
let loading: Promise<void> | null = null;

export const getAppConfigSnapshot = store.get;
export const subscribeAppConfig = store.subscribe;

/** Fetches /api/app-config once per start; keeps the last good copy for offline starts. */
export function loadAppConfig(force = false): Promise<void> {
  if (loading && !force) return loading;
  // The answer is checked without zod (src/api/app-config.ts): this runs on the login screen too.
  loading = getAppConfig()
    .then((result) => {
      if (!result.ok) return;
      local.write(APP_CONFIG_KEY, result.data);
      store.set(result.data);
    })
    .finally(() => settledStore.set(true));
  return loading;
}

export function useAppConfig(): AppConfig {
  void loadAppConfig();
  return useStore(store);
}

export const useProductName = (): string => useAppConfig().product_name || 'Hearth';

/** See `settledStore`: whether what useAppConfig() gives is more than the built-in defaults will ever be. */
export const useAppConfigSettled = (): boolean => useStore(settledStore);

/** Tests: forget the loaded copy. */
export function resetAppConfig(): void {
  loading = null;
  local.remove(APP_CONFIG_KEY);
  store.set(fallbackAppConfig);
  settledStore.set(false);
}
