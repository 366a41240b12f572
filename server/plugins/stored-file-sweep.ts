import type { FastifyInstance } from 'fastify';
import { DatabaseFileStore } from '../lib/database-file-store';

/**
 * With files in PostgreSQL (lib/database-file-store.ts): now and then, the files no row points at
 * a day after they were stored go (an upload whose entry was never committed because its process
 * died in between). Every process may run it; deleting twice is harmless.
 */
const EVERY_MS = 60 * 60 * 1000;

export function registerStoredFileSweep(app: FastifyInstance): void {
  const store = app.fileStore;
  if (!(store instanceof DatabaseFileStore)) return;
  let timer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      store
        .removeUnreferenced()
        .then((removed) => removed > 0 && app.log.info({ removed }, 'unreferenced stored files removed'))
        .catch((error: unknown) => app.log.warn({ err: error }, 'stored file sweep failed'));
    }, EVERY_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
