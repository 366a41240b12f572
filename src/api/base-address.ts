import type { Region } from '@/contract/app-config';

let apiBase = '/api';

/** The base address every call is made against (no trailing slash). */
export const getApiBase = (): string => apiBase;

export function setApiBase(base: string): void {
  apiBase = base.replace(/\/+$/, '') || '/api';
}

/**
 * SPEC §7: the chosen region's `api_base` with `{site}` replaced by the client site. An unknown
 * region falls back to the default region, then to same-origin `/api`.
 */
export function resolveApiBase(
  regions: readonly Region[],
  regionName: string,
  defaultRegion: string,
  site: string | null,
): string {
  const region =
    regions.find((r) => r.name === regionName) ?? regions.find((r) => r.name === defaultRegion) ?? regions[0];
  const template = region?.api_base ?? '/api';
  const base = site ? template.replaceAll('{site}', encodeURIComponent(site)) : template;
  return base.replace(/\/+$/, '') || '/api';
}
