import type { Migration, MigrationProvider } from 'kysely';
import { initial } from './0001-initial';

/** Static list: no directory scanning, so it works the same under tsx, vitest and a bundle. */
const migrations: Record<string, Migration> = {
  '0001-initial': initial,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
