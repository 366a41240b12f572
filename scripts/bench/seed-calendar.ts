/**
 * Section a's data: `documents` instances of one of the young person's events, four a day from
 * 2025-01-01, written straight into the server's database (a bench, not a test: no carer makes
 * 5,000 calendar entries through the staff screens).
 */
import type { TestServer } from '../../tests/server/support/server';

export async function seedCalendarInstances(server: TestServer, residentId: string, documents: number): Promise<void> {
  const sample = await server.db
    .selectFrom('event_instances')
    .select(['event_id', 'tenant_id'])
    .where('resident_id', '=', residentId)
    .limit(1)
    .executeTakeFirstOrThrow();
  const day0 = Date.UTC(2025, 0, 1);
  for (let start = 0; start < documents; start += 500) {
    const rows = Array.from({ length: Math.min(500, documents - start) }, (_, j) => {
      const i = start + j;
      const date = new Date(day0 + Math.floor(i / 4) * 86_400_000).toISOString().slice(0, 10);
      const hour = String(8 + (i % 4) * 3).padStart(2, '0');
      return {
        tenant_id: sample.tenant_id,
        event_id: sample.event_id,
        resident_id: residentId,
        start_date: date,
        start_time: `${hour}:00`,
        end_date: date,
        end_time: `${hour}:45`,
      };
    });
    await server.db.insertInto('event_instances').values(rows).execute();
  }
}
