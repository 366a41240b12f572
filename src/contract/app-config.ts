import { z } from 'zod';
import { envelope } from './envelope';

/**
 * A region names an API base address. `{site}` in it is replaced by the client site, so a
 * deployment can give each site its own host (SPEC §7); the default `/api` is same-origin.
 */
export const regionSchema = z.object({ name: z.string().min(1), api_base: z.string().min(1) });
export type Region = z.infer<typeof regionSchema>;

// GET /api/app-config (public, served by the origin that serves the PWA)
export const appConfigSchema = z.object({
  product_name: z.string(),
  regions: z.array(regionSchema).min(1),
  default_region: z.string(),
  /** Used when the host name gives no site (localhost, an IP address). */
  default_site: z.string().nullable(),
  /** Development mode only: the /dev page may read the development mailbox. */
  dev_mailbox: z.boolean(),
  /** The server's VAPID public key (base64url) for PushManager.subscribe; null: no push. */
  push_public_key: z.string().nullable(),
});
export const appConfigResponseSchema = envelope(appConfigSchema);
export type AppConfig = z.infer<typeof appConfigSchema>;

// GET /api/dev/mailbox (development mode only)
export const devMailSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  sent_at: z.string(),
});
export const devMailboxResponseSchema = envelope(z.array(devMailSchema));
export type DevMail = z.infer<typeof devMailSchema>;

/**
 * Header that carries the anti-forgery token, and the cookie it is read from. Defined once, zod-free,
 * in http.ts (`CSRF_COOKIE_NAME`, `CSRF_HEADER_NAME`); these are the same constants under the names
 * the server uses.
 */
export { CSRF_COOKIE_NAME as CSRF_COOKIE, CSRF_HEADER_NAME as CSRF_HEADER } from './http';
export const SESSION_COOKIE = 'hearth_session';
