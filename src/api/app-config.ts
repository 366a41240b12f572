import { appConfigResponseSchema, type AppConfig } from '@/contract/app-config';
import { request } from './client';
import type { Result } from './result';
import { paths } from '@/contract/paths';

/** GET /api/app-config: always from the origin that serves the PWA, whatever the region. */
export async function getAppConfig(): Promise<Result<AppConfig>> {
  const result = await request(paths.appConfig.build(), { base: '/api', schema: appConfigResponseSchema, skipSessionHandling: true });
  return result.ok ? { ...result, data: result.data.data } : result;
}
