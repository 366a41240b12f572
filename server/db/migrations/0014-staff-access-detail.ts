import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The staff access log (0008) keeps a request's route, parameters and query, not its body, so it
 * could not say which flags staff switched or where a young person was moved. `detail` holds what
 * such a write changed, as the domain reported it after its commit (contract `staffChangeSchema`):
 * the flags that changed with their values before and after, a move's home before and after. Null
 * for every other request and for refused ones. Never a young person's words, passwords or tokens.
 */
export const staffAccessDetail: Migration = {
  async up(db: Kysely<unknown>) {
    await sql.raw('alter table staff_access_log add column detail jsonb').execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql.raw('alter table staff_access_log drop column if exists detail').execute(db);
  },
};
