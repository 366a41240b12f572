import { request } from '../client';
import type { Result } from '../result';
import { paths } from '@/contract/paths';

/** GET /auth/csrf-cookie: sets the XSRF-TOKEN cookie. The client calls it by itself before a write. */
export const getCsrfCookie = (): Promise<Result<unknown>> =>
  request(paths.csrfCookie.build(), { skipSessionHandling: true });
