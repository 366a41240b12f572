/**
 * The anti-forgery cookie and header names without zod, so the PWA's entry chunk can use them
 * without loading the schema library. The one definition: app-config.ts re-exports them as
 * `CSRF_COOKIE`/`CSRF_HEADER`.
 */
export const CSRF_COOKIE_NAME = 'XSRF-TOKEN';
export const CSRF_HEADER_NAME = 'X-XSRF-TOKEN';
