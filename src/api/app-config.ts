import type { AppConfig, Region } from '@/contract/app-config';
import { request } from './client';
import type { Result } from './result';
import { paths } from '@/contract/paths';

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);
const isNullableString = (value: unknown): value is string | null => value === null || typeof value === 'string';
const isFilledString = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/**
 * The answer of GET /api/app-config, checked by hand: what the contract's appConfigResponseSchema
 * accepts, and only its fields (tests/unit/app-config-reader.test.ts holds the two together). The
 * config is read at every start, on the login screen too, whose JavaScript stays without zod (issue 13).
 */
export function readAppConfig(body: unknown): AppConfig | null {
  if (!isObject(body) || body.success !== true) return null;
  if (body.message !== undefined && typeof body.message !== 'string') return null;
  const data = body.data;
  if (!isObject(data)) return null;
  const { product_name, regions, default_region, default_site, dev_mailbox, push_public_key } = data;
  if (typeof product_name !== 'string' || typeof default_region !== 'string' || typeof dev_mailbox !== 'boolean') return null;
  if (!isNullableString(default_site) || !isNullableString(push_public_key)) return null;
  if (!Array.isArray(regions) || regions.length === 0) return null;
  const read: Region[] = [];
  for (const region of regions as unknown[]) {
    if (!isObject(region) || !isFilledString(region.name) || !isFilledString(region.api_base)) return null;
    read.push({ name: region.name, api_base: region.api_base });
  }
  return { product_name, regions: read, default_region, default_site, dev_mailbox, push_public_key };
}

/** GET /api/app-config: always from the origin that serves the PWA, whatever the region. */
export async function getAppConfig(): Promise<Result<AppConfig>> {
  const result = await request<unknown>(paths.appConfig.build(), { base: '/api', skipSessionHandling: true });
  if (!result.ok) return result;
  const config = readAppConfig(result.data);
  if (config) return { ...result, data: config };
  console.error('Unexpected answer from GET /api/app-config');
  return { ok: false, status: result.status, message: '' };
}
