/**
 * The anti-forgery cookie and header names without zod, so the PWA's entry chunk can use them
 * without loading the schema library. Same values as `CSRF_COOKIE`/`CSRF_HEADER` in app-config.ts.
 */
export const CSRF_COOKIE_NAME = 'XSRF-TOKEN';
export const CSRF_HEADER_NAME = 'X-XSRF-TOKEN';
