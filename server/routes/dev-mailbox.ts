import type { FastifyInstance } from 'fastify';
import { paths } from '../../src/contract/paths';

/** GET /api/dev/mailbox: the development mailbox. Registered only when NODE_ENV=development. */
export default async function devMailboxRoute(app: FastifyInstance) {
  app.get(paths.devMailbox.pattern, async () => ({ success: true as const, data: app.mailer.mailbox() }));
}
