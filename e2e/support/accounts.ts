/** The demo sign-ins of the README (server/seed/demo.ts creates them on first start). */
export const DEMO_PASSWORD = 'hearth-demo-1';
export const DEMO_SITE = 'demo';
export const RILEY_TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
