import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../../src/contract/app-config';
import { rules } from '../../src/contract/rules';
import { paths } from '../../src/contract/paths';

/** GET /api/app-config: public facts the PWA needs before anyone signs in. */
export default async function appConfigRoute(app: FastifyInstance) {
  app.get(paths.appConfig.pattern, async () => {
    const { regions } = app.config;
    const data: AppConfig = {
      product_name: app.config.productName,
      regions,
      default_region: regions.some((r) => r.name === rules.defaultRegion) ? rules.defaultRegion : (regions[0]?.name ?? rules.defaultRegion),
      default_site: app.config.defaultSite,
      dev_mailbox: app.config.nodeEnv === 'development',
      push_public_key: app.config.vapid.publicKey,
    };
    return { success: true as const, data };
  });
}
