import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { paths } from '@/contract/paths';
import type { Account } from '@/contract/users';
import { closeReplica, openReplicaForAccount, type ReplicaOptions } from '@/data/replica/lifecycle';
import { startReplication, type ReplicationHandle } from '@/data/replication/controller';
import type { Client } from '../server/support/client';
import { demoIds, signedIn } from '../server/support/session';
import { fakeIdb, randomKey, uniqueName } from './fixtures';
import { eventually, startSyncServer, type SyncTestServer } from './support/sync-server';

/**
 * Staff move a young person to another home while their app is open (docs/decisions.md "A young
 * person moves home"): the replica opened with the old home, and its roster must follow the
 * record's home, not go on asking the old home (404) and showing who is on shift there.
 */
let sync: SyncTestServer;
let account: Account;
let ali: Client;
let handle: ReplicationHandle | null = null;
const replica: ReplicaOptions = { ...fakeIdb, multiInstance: false, key: randomKey(), replicate: false };

beforeAll(async () => {
  sync = await startSyncServer();
  // Staff first: until a young person signs in, the sync server adds no cookies of theirs to a request.
  ali = await signedIn(sync.server, 'carer.ali');
  account = await sync.signIn('jamie');
});
afterEach(async () => {
  await handle?.stop();
  await closeReplica();
});
afterAll(async () => {
  await sync?.close();
});

it("the roster follows the young person's home when staff move them while the app is open", async () => {
  const ids = await demoIds(sync.server);
  const [willow, cedar, jamie] = [ids.home['Willow House']!, ids.home['Cedar Lodge']!, ids.resident['demo/jamie']!];
  const open = await openReplicaForAccount(account, uniqueName('site'), replica);
  handle = startReplication(open, { liveTriggers: false, retryTime: 200 });
  await handle.awaitInitial();
  const homesOnShift = async () => [...new Set((await open.db.rota.find().exec()).map((shift) => shift.home_id))];
  expect(await homesOnShift()).toEqual([willow]);

  expect((await ali.put(`/api${paths.residentHome.build(jamie)}`, { home_id: cedar })).status).toBe(200);
  // What the change stream would ask for: the young person's record changed.
  handle.reSync(['resident']);

  await eventually(async () => (await homesOnShift()).join() === cedar, 20_000, "only the new home's shifts on the device");
  const rosterAsks = sync.requests.filter((request) => request.url.pathname.endsWith(paths.staffRoster.build()));
  expect(rosterAsks.at(-1)?.url.searchParams.get('parent_project_ids[0]')).toBe(cedar);
  expect(rosterAsks.at(-1)?.status).toBe(200);
});
