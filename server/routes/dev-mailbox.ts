import type { FastifyInstance } from 'fastify';

/** GET /api/dev/mailbox: the development mailbox. Registered only when NODE_ENV=development. */
export default async function devMailboxRoute(app: FastifyInstance) {
  app.get('/dev/mailbox', async () => ({ success: true as const, data: app.mailer.mailbox() }));
}
