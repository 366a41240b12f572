import { resolveApiBase, setApiBase } from '@/api/base-address';
import { getAppConfigSnapshot, subscribeAppConfig } from './app-config-store';
import { effectiveClientSite } from './client-site';
import { getSettings, subscribeSettings } from './settings-store';

function apply(): void {
  const config = getAppConfigSnapshot();
  const settings = getSettings();
  setApiBase(resolveApiBase(config.regions, settings.region, config.default_region, effectiveClientSite(settings, config)));
}

let stop: (() => void) | null = null;

/** Keeps the HTTP client's base address in step with the region, the site and the app config. */
export function startApiBaseSync(): () => void {
  if (!stop) {
    apply();
    const a = subscribeAppConfig(apply);
    const b = subscribeSettings(apply);
    stop = () => {
      a();
      b();
      stop = null;
    };
  }
  return stop;
}
