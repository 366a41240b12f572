import type { MigrationResultSet } from 'kysely';
import { describe, expect, it } from 'vitest';
import { MIGRATE_ATTEMPTS, migrateRetryingListing } from '../../server/db/migrate';

/** An error as pg reports it: PostgreSQL's SQLSTATE in `code`. */
function pgError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/** A migrator that answers the given result sets in turn and counts the calls. */
function scripted(...answers: MigrationResultSet[]) {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    migrateToLatest: async () => answers[Math.min(calls++, answers.length - 1)]!,
  };
}

const done: MigrationResultSet = {
  results: [
    { migrationName: '001_a', direction: 'Up', status: 'Success' },
    { migrationName: '002_b', direction: 'Up', status: 'NotExecuted' },
  ],
};

/**
 * CI's PostgreSQL pass failed once at start-up: while a test file's migrator listed every
 * schema's tables, another file dropped its schema and pg_get_serial_sequence answered
 * `relation "test_….emojis" does not exist` (42P01).
 */
describe('migrations when another schema vanishes during the table listing', () => {
  it('a listing that meets a dropped table (42P01) or schema (3F000) is tried again, then migrates', async () => {
    const migrator = scripted(
      { error: pgError('42P01', 'relation "test_585358275b4b.emojis" does not exist') },
      { error: pgError('3F000', 'schema "test_0a1b2c3d4e5f" does not exist'), results: [] },
      done,
    );
    await expect(migrateRetryingListing(migrator)).resolves.toEqual(['001_a']);
    expect(migrator.calls).toBe(3);
  });

  it('a migration that fails is never retried, even with the same code', async () => {
    const failed = pgError('42P01', 'relation "residents" does not exist');
    const migrator = scripted({ error: failed, results: [{ migrationName: '003_c', direction: 'Up', status: 'Error' }] }, done);
    await expect(migrateRetryingListing(migrator)).rejects.toBe(failed);
    expect(migrator.calls).toBe(1);
  });

  it('any other failure of the listing (the database is down) is not retried', async () => {
    const refused = pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432');
    const migrator = scripted({ error: refused }, done);
    await expect(migrateRetryingListing(migrator)).rejects.toBe(refused);
    expect(migrator.calls).toBe(1);
  });

  it(`gives up after ${MIGRATE_ATTEMPTS} listings that all raced`, async () => {
    const raced = pgError('42P01', 'relation "test_x.files" does not exist');
    const migrator = scripted({ error: raced });
    await expect(migrateRetryingListing(migrator)).rejects.toBe(raced);
    expect(migrator.calls).toBe(MIGRATE_ATTEMPTS);
  });
});
