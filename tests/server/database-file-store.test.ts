import { randomBytes } from 'node:crypto';
import { sql, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type DatabaseHandle } from '../../server/db/database';
import { migrateToLatest } from '../../server/db/migrate';
import { DatabaseFileStore } from '../../server/lib/database-file-store';

/**
 * Issue 13: uploaded files kept in PostgreSQL (lib/database-file-store.ts), so that every process
 * on every machine reads them. The same SQL runs on PGlite, so this runs on both. Tiny chunks (7
 * bytes) put every boundary case within a few bytes.
 */
let database: DatabaseHandle;
let tenant: string;
let other: string;
let store: DatabaseFileStore;

beforeAll(async () => {
  database = await openTestDatabase();
  await migrateToLatest(database.db, database.schema);
  const rows = await database.db
    .insertInto('tenants')
    .values([
      { slug: `store-${randomBytes(4).toString('hex')}`, name: 'Store', mfa_policy: 'optional' },
      { slug: `other-${randomBytes(4).toString('hex')}`, name: 'Other', mfa_policy: 'optional' },
    ])
    .returning('id')
    .execute();
  [tenant, other] = rows.map((r) => r.id) as [string, string];
  store = new DatabaseFileStore(database.db, 7);
});
afterAll(async () => {
  await database?.close();
});

const streamed = async (key: string, start: number, end: number) => {
  const chunks: Buffer[] = [];
  for await (const chunk of store.stream(tenant, key, start, end)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

describe('the database file store', () => {
  it('gives back every byte of files of any size, chunk boundaries included', async () => {
    for (const size of [0, 1, 6, 7, 8, 14, 100]) {
      const bytes = randomBytes(size);
      const key = await store.write(tenant, bytes);
      expect(key).toMatch(/^[0-9a-f]{32}$/);
      expect((await store.read(tenant, key)).equals(bytes), `size ${size}`).toBe(true);
      expect(await store.size(tenant, key)).toBe(size);
    }
  });

  it('streams any range, reading only its chunks', async () => {
    const bytes = randomBytes(23);
    const key = await store.write(tenant, bytes);
    for (let start = 0; start < bytes.length; start++) {
      for (let end = start; end < bytes.length; end++) {
        expect((await streamed(key, start, end)).equals(bytes.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
      }
    }
    // Past the end is clipped, as a file read is.
    expect((await streamed(key, 20, 1000)).equals(bytes.subarray(20))).toBe(true);
  });

  it("keeps tenants apart, and a file that is not there is null, a rejection, or a stream's error", async () => {
    const key = await store.write(tenant, Buffer.from('mine'));
    expect(await store.size(other, key)).toBeNull();
    await expect(store.read(other, key)).rejects.toThrow();
    await expect(streamed(randomBytes(16).toString('hex'), 0, 3)).rejects.toThrow();
    expect(() => store.stream(tenant, '../etc/passwd', 0, 1)).toThrow(/bad key/);
  });

  it('removes a file whole, and a second removal is harmless', async () => {
    const key = await store.write(tenant, randomBytes(30));
    await store.remove(tenant, key);
    await store.remove(tenant, key);
    expect(await store.size(tenant, key)).toBeNull();
    const left = await database.db.selectFrom('stored_file_chunks').select('seq').where('storage_key', '=', key).execute();
    expect(left).toEqual([]);
  });

  it('a write that fails half-way leaves nothing: not the head, not the chunks written before', async () => {
    let inserts = 0;
    const failThirdChunk: KyselyPlugin = {
      transformQuery(args: PluginTransformQueryArgs) {
        const node = args.node as { kind: string; into?: { table: { identifier: { name: string } } } };
        if (node.kind === 'InsertQueryNode' && node.into?.table.identifier.name === 'stored_file_chunks' && ++inserts === 3) throw new Error('disk full');
        return args.node;
      },
      async transformResult(args: PluginTransformResultArgs) {
        return args.result;
      },
    };
    const failing = new DatabaseFileStore(database.db.withPlugin(failThirdChunk), 7);
    const before = await database.db.selectFrom('stored_files').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    await expect(failing.write(tenant, randomBytes(40))).rejects.toThrow('disk full');
    expect(inserts).toBe(3);
    const after = await database.db.selectFrom('stored_files').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
    const orphans = await database.db
      .selectFrom('stored_file_chunks as c')
      .leftJoin('stored_files as f', (join) => join.onRef('f.tenant_id', '=', 'c.tenant_id').onRef('f.storage_key', '=', 'c.storage_key'))
      .select('c.storage_key')
      .where('f.storage_key', 'is', null)
      .execute();
    expect(orphans).toEqual([]);
  });

  it('sweeps files no row points at once they are a day old; never a referenced or a recent one', async () => {
    const old = await store.write(tenant, Buffer.from('orphan'));
    const recent = await store.write(tenant, Buffer.from('just uploaded'));
    const used = await store.write(tenant, Buffer.from('attached'));
    await database.db.updateTable('stored_files').set({ created_at: sql`now() - interval '2 days'` }).where('storage_key', 'in', [old, used]).execute();
    // `used` is an attachment: a row of entry_files points at it.
    const entryId = await anyUuid();
    await database.db
      .insertInto('entry_files')
      .values({ tenant_id: tenant, entry_type: 'journal', entry_id: entryId, role: 'attachment', name: 'a.txt', mime: 'text/plain', size: 8, storage_key: used })
      .execute();
    expect(await store.removeUnreferenced()).toBeGreaterThanOrEqual(1);
    expect(await store.size(tenant, old)).toBeNull();
    expect(await store.size(tenant, recent)).toBe(13);
    expect(await store.size(tenant, used)).toBe(8);
  });
});

/** entry_files.entry_id is not a foreign key: any uuid will do for the sweep. */
async function anyUuid(): Promise<string> {
  return (await sql<{ id: string }>`select gen_random_uuid() as id`.execute(database.db)).rows[0]!.id;
}
