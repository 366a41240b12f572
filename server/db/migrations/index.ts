import type { Migration, MigrationProvider } from 'kysely';
import { initial } from './0001-initial';
import { offlineData } from './0002-offline-data';
import { entryFiles } from './0003-entry-files';
import { accessRevocations } from './0004-access-revocations';
import { objectives } from './0005-objectives';
import { rewards } from './0006-rewards';
import { documents } from './0007-documents';
import { staffAccessLog } from './0008-staff-access-log';
import { listIndexes } from './0009-list-indexes';
import { entryVersions } from './0010-entry-versions';
import { scaleOut } from './0011-scale-out';
import { calendarSyncTime } from './0012-calendar-sync-time';
import { residentHomeStays } from './0013-resident-home-stays';
import { staffAccessDetail } from './0014-staff-access-detail';

/** Static list: no directory scanning, so it works the same under tsx, vitest and a bundle. */
const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-offline-data': offlineData,
  '0003-entry-files': entryFiles,
  '0004-access-revocations': accessRevocations,
  '0005-objectives': objectives,
  '0006-rewards': rewards,
  '0007-documents': documents,
  '0008-staff-access-log': staffAccessLog,
  '0009-list-indexes': listIndexes,
  '0010-entry-versions': entryVersions,
  '0011-scale-out': scaleOut,
  '0012-calendar-sync-time': calendarSyncTime,
  '0013-resident-home-stays': residentHomeStays,
  '0014-staff-access-detail': staffAccessDetail,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
