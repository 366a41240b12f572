import type { FastifyInstance } from 'fastify';
import { topUpDemo } from '../seed/demo';

/**
 * With SEED_DEMO on, the rolling demo rows (rota, Jamie's calendar) are topped up every few hours
 * so a long-running demo never runs out of days; whoever has the event stream open is told.
 */
const EVERY_MS = 6 * 60 * 60 * 1000;

export function registerDemoTopUp(app: FastifyInstance): void {
  if (!app.config.seedDemo) return;
  let timer: NodeJS.Timeout | null = null;
  const run = async () => {
    try {
      for (const result of await topUpDemo(app.db)) {
        const collections = [...(result.rota > 0 ? (['rota'] as const) : []), ...(result.calendar > 0 ? (['calendar'] as const) : [])];
        if (collections.length > 0) app.notifier.publish({ tenantId: result.tenantId, homeId: null, residentId: null }, collections);
      }
    } catch (error) {
      app.log.warn({ err: error }, 'demo top-up failed');
    }
  };
  app.addHook('onReady', async () => {
    timer = setInterval(() => void run(), EVERY_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
