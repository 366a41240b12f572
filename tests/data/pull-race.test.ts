/**
 * A pull decides in its modifier whether a document holds a local change, and RxDB writes what it
 * decided a moment later. A change made in between (a young person choosing a style while the
 * record is being pulled) must survive: it goes back on top, the server's copy parked, until its
 * outcome settles it. Real server in-process, real replication; the in-between moment is made
 * certain by running the change right after the modifier's read.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Account } from '@/contract/users';
import { updateKidsStyle } from '@/features/account/actions/update-kids-style';
import { flushOutbox, resetOutboxConfig, waitForOutboxToDrain } from '@/data/outbox/outbox';
import { closeReplica, getReplication, openReplicaForAccount, type ReplicaOptions } from '@/data/replica/lifecycle';
import type { OpenReplica } from '@/data/replica/replica-store';
import type { ResidentDoc } from '@/data/replica/types';
import { fakeIdb, randomKey, uniqueName } from './fixtures';
import { outboxToServer } from './support/outbox-to-server';
import { eventually, startSyncServer, type SyncTestServer } from './support/sync-server';

let sync: SyncTestServer;
let account: Account;
let open: OpenReplica;
let online = true;

const replica: ReplicaOptions = { ...fakeIdb, multiInstance: false, key: randomKey(), replicate: true, replication: { liveTriggers: false, retryTime: 200 } };

beforeAll(async () => {
  sync = await startSyncServer();
  account = await sync.signIn('jamie');
});
afterAll(async () => {
  await sync?.close();
});
beforeEach(async () => {
  online = true;
  outboxToServer(sync, () => online);
  open = await openReplicaForAccount(account, uniqueName('site'), replica);
  await getReplication()!.awaitInitial();
});
afterEach(async () => {
  resetOutboxConfig();
  vi.unstubAllGlobals();
  await closeReplica();
});

const residentId = () => account.user.resident!.id;
const residentDoc = async () => (await open.db.resident.findOne(residentId()).exec())?.toJSON() as ResidentDoc | undefined;

/** jamie on her other tablet: a change the replica has not pulled yet. */
async function changeOnOtherDevice(settings: Record<string, string>): Promise<void> {
  const other = sync.server.client();
  other.jar.set('other-device', '1'); // a client with cookies of its own: the fetch wrapper leaves it alone
  expect((await other.login('jamie', 'hearth-demo-1', 'demo')).status).toBe(200);
  expect((await other.put(`/api/v1/projects/residents/${residentId()}/app-settings`, settings)).status).toBe(200);
}

/** Goes online, sends what waits, and waits for the record to be synced with both changes. */
async function deliverAndSettle(style: string, colour: string): Promise<void> {
  online = true;
  flushOutbox();
  expect((await waitForOutboxToDrain(15_000)).drained).toBe(true);
  await eventually(
    async () => {
      const doc = await residentDoc();
      return doc?.sync_state === 'synced' && doc.app_settings.kids_style === style && doc.app_settings.journal_colour === colour;
    },
    15_000,
    'the settled record with both changes',
  );
}

/** Runs `change` right after the pull's modifier reads the resident record, before RxDB writes. */
function betweenModifierAndWrite(change: () => Promise<void>): { ran: () => boolean; restore: () => void } {
  const collection = open.db.resident;
  const findOne = collection.findOne.bind(collection);
  let pending: (() => Promise<void>) | null = change;
  let ran = false;
  collection.findOne = ((query: string) => {
    const rxQuery = findOne(query);
    if (!pending || query !== residentId()) return rxQuery;
    const run = pending;
    pending = null;
    return {
      exec: async () => {
        const doc = await rxQuery.exec();
        await run();
        ran = true;
        return doc;
      },
    };
  }) as unknown as typeof collection.findOne;
  return { ran: () => ran, restore: () => void delete (collection as unknown as Record<string, unknown>).findOne };
}

describe('a local change made while a pull is between its read and its write', () => {
  it('stays on the record (pending, the server copy parked) and settles into the server copy that has both', async () => {
    const before = await residentDoc();
    expect(before?.app_settings.kids_style).toBe('fun_style');
    await changeOnOtherDevice({ journal_colour: 'mint' });

    online = false;
    const race = betweenModifierAndWrite(async () => {
      const current = (await residentDoc())!;
      expect((await updateKidsStyle(residentId(), current.app_settings, 'gaming_style')).ok).toBe(true);
    });
    try {
      getReplication()!.reSync(['resident']);
      await eventually(() => race.ran(), 10_000, 'the pull of the resident record');
      await getReplication()!.awaitInSync();
    } finally {
      race.restore();
    }

    // Without the fix the pull's copy (fun_style, synced) replaced the young person's choice here.
    await eventually(async () => (await residentDoc())?.sync_server != null, 10_000, 'the parked server copy');
    const kept = (await residentDoc())!;
    expect(kept).toMatchObject({ sync_state: 'pending', app_settings: expect.objectContaining({ kids_style: 'gaming_style' }) });
    expect(kept.sync_server).toMatchObject({ app_settings: expect.objectContaining({ kids_style: 'fun_style', journal_colour: 'mint' }) });

    await deliverAndSettle('gaming_style', 'mint');
  });
});

describe('a local change settled while a pull is between its read and its write', () => {
  it('is not brought back pending by the pull: the record stays synced with the server copy that has both changes', async () => {
    await changeOnOtherDevice({ journal_colour: 'sunshine' });
    online = false;
    const current = (await residentDoc())!;
    const chosen = current.app_settings.kids_style === 'gaming_style' ? 'fun_style' : 'gaming_style';
    expect((await updateKidsStyle(residentId(), current.app_settings, chosen)).ok).toBe(true);
    expect(await residentDoc()).toMatchObject({ sync_state: 'pending' });

    // The pull reads the record while its change is pending; the change is delivered and settled
    // before RxDB writes what the pull decided.
    const race = betweenModifierAndWrite(async () => {
      online = true;
      flushOutbox();
      expect((await waitForOutboxToDrain(15_000)).drained).toBe(true);
      await eventually(async () => (await residentDoc())?.sync_state === 'synced', 15_000, 'the settled change');
    });
    try {
      getReplication()!.reSync(['resident']);
      await eventually(() => race.ran(), 15_000, 'the pull of the resident record');
      await getReplication()!.awaitInSync();
    } finally {
      race.restore();
    }

    // Before the fix the pull wrote "pending" back on a change nothing would settle again.
    await eventually(
      async () => {
        const doc = await residentDoc();
        return doc?.sync_state === 'synced' && doc.app_settings.kids_style === chosen && doc.app_settings.journal_colour === 'sunshine';
      },
      15_000,
      'the settled record with both changes',
    );
    expect((await residentDoc())?.sync_outbox_id).toBeNull();
  });
});

describe('a change delivered after a pull parked the server copy from before it', () => {
  it('settles into the server’s answer to the change: the older copy never shows, not even for a moment', async () => {
    const current = (await residentDoc())!;
    const previous = current.app_settings.kids_style;
    const chosen = previous === 'gaming_style' ? 'fun_style' : 'gaming_style';
    const colour = current.app_settings.journal_colour === 'mint' ? 'sunshine' : 'mint';
    online = false;
    expect((await updateKidsStyle(residentId(), current.app_settings, chosen)).ok).toBe(true);

    // Jamie's other tablet changes her journal colour; this device pulls that copy while its own
    // change waits: the copy is parked, and it still has the style from before the change.
    await changeOnOtherDevice({ journal_colour: colour });
    getReplication()!.reSync(['resident']);
    const parked = async () => (await residentDoc())?.sync_server as Partial<ResidentDoc> | null | undefined;
    await eventually(async () => (await parked())?.app_settings?.journal_colour === colour, 10_000, 'the parked server copy');
    expect((await residentDoc())?.sync_server).toMatchObject({ app_settings: expect.objectContaining({ kids_style: previous }) });

    const seen: (string | undefined)[] = [];
    const watching = open.db.resident.findOne(residentId()).$.subscribe((doc) => {
      if (doc) seen.push((doc.toJSON() as ResidentDoc).app_settings.kids_style);
    });
    try {
      await deliverAndSettle(chosen, colour);
    } finally {
      watching.unsubscribe();
    }
    // Swapping the parked copy in showed the style from before the change until the next pull
    // (a page reloaded in that moment started in the old colours).
    expect(seen.length).toBeGreaterThan(0);
    expect(seen).not.toContain(previous);
  });
});
