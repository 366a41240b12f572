import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentReadable } from '../../server/domain/access';
import type { SignedIn } from '../../server/plugins/session';
import { startTestServer, type TestServer } from './support/server';

/**
 * The documents' access rule is written twice: `documentReadable` (server/domain/access.ts), which
 * every read asks, and `document_readers` (migration 0007), which the triggers use to record who
 * gained or lost a document. They must agree for everyone on every document, also after people move.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

async function disagreements(): Promise<string[]> {
  const users = await server.db.selectFrom('users').select(['id', 'tenant_id', 'username']).execute();
  const docs = await server.db.selectFrom('documents').select(['id', 'title', 'resident_id', 'home_id']).execute();
  const found: string[] = [];
  for (const user of users) {
    const auth: SignedIn = { sessionId: 'test', tenantId: user.tenant_id, userId: user.id, state: 'full' };
    const byRule = new Set((await server.db.selectFrom('documents as doc').select('doc.id').where(documentReadable(auth, 'doc')).execute()).map((r) => r.id));
    for (const doc of docs) {
      const { rows } = await sql<{ reads: boolean }>`select ${user.id}::uuid in (select document_readers(${doc.resident_id}::uuid, ${doc.home_id}::uuid)) as reads`.execute(server.db);
      if (rows[0]!.reads !== byRule.has(doc.id)) found.push(`${user.username} / ${doc.title}: rule ${byRule.has(doc.id)}, triggers ${rows[0]!.reads}`);
    }
  }
  return found;
}

describe('documentReadable and the triggers’ document_readers agree', () => {
  it('on the demo, and after a young person moves and a member of staff leaves', async () => {
    expect(await disagreements()).toEqual([]);
    const homes = new Map((await server.db.selectFrom('homes').select(['id', 'name']).execute()).map((h) => [h.name, h.id]));
    const riley = await server.db.selectFrom('residents').innerJoin('users', 'users.id', 'residents.user_id').select('residents.id').where('users.username', '=', 'riley').executeTakeFirstOrThrow();
    await server.db.updateTable('residents').set({ home_id: homes.get('Cedar Lodge')! }).where('id', '=', riley.id).execute();
    const ali = await server.db.selectFrom('users').select('id').where('username', '=', 'carer.ali').executeTakeFirstOrThrow();
    await server.db.updateTable('home_staff').set({ deleted_at: sql`now()` }).where('user_id', '=', ali.id).execute();
    expect(await disagreements()).toEqual([]);
    // The triggers recorded the changes for exactly the people concerned.
    const changed = await server.db.selectFrom('document_access_changes').innerJoin('users', 'users.id', 'document_access_changes.user_id').select('users.username').distinct().execute();
    expect(changed.map((c) => c.username).sort()).toEqual(expect.arrayContaining(['carer.ali', 'riley']));
    expect(changed.map((c) => c.username)).not.toContain('jamie');
    expect(changed.map((c) => c.username)).not.toContain('sam');
  });
});
