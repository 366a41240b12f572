import { request } from '../client';
import type { Result } from '../result';

/** GET /auth/csrf-cookie: sets the XSRF-TOKEN cookie. The client calls it by itself before a write. */
export const getCsrfCookie = (): Promise<Result<unknown>> =>
  request('/auth/csrf-cookie', { skipSessionHandling: true });
