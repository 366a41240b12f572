import type { AppConfig } from '@/contract/app-config';
import { siteFromHostname } from '@/lib/host-site';
import type { Settings } from './settings-store';

/**
 * The client site to sign in to: the one the person typed, else the first label of the host name,
 * else the server's default site. Null when nothing gives one (the login screen then asks).
 */
export function effectiveClientSite(settings: Settings, config: AppConfig, hostname = globalThis.location?.hostname ?? ''): string | null {
  if (settings.userSetDomain && settings.domain) return settings.domain;
  return siteFromHostname(hostname) ?? config.default_site ?? settings.domain ?? null;
}
