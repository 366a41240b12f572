import { appConfigResponseSchema, type AppConfig } from '@/contract/app-config';
import { request } from './client';
import type { Result } from './result';

/** GET /api/app-config: always from the origin that serves the PWA, whatever the region. */
export async function getAppConfig(): Promise<Result<AppConfig>> {
  const result = await request('/app-config', { base: '/api', schema: appConfigResponseSchema, skipSessionHandling: true });
  return result.ok ? { ...result, data: result.data.data } : result;
}
