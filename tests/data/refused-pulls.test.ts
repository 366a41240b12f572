/**
 * The storage refuses a pull's write decided on a local state the document no longer has
 * (src/data/database/refused-pulls.ts): RxDB's `previous` is the stored document, so the decision
 * is checked against exactly what the write replaces. The pull then writes the server's copy again
 * on the document as it is (tests/data/pull-race.test.ts runs the whole race on a real server).
 */
import type { RxDocumentData } from 'rxdb';
import { afterEach, describe, expect, it } from 'vitest';
import { onRefusedPull } from '@/data/database/refused-pulls';
import { closeReplica, openReplicaForAccount, type ReplicaOptions } from '@/data/replica/lifecycle';
import type { OpenReplica } from '@/data/replica/replica-store';
import type { CalendarDoc } from '@/data/replica/types';
import { fakeIdb, randomKey, testAccount, uniqueName, uuid } from './fixtures';

const replica: ReplicaOptions = { ...fakeIdb, multiInstance: false, key: randomKey(), replicate: false };
const DOWNSTREAM = 'replication-downstream-test';

afterEach(async () => {
  await closeReplica();
});

function event(n: number, sync: Pick<CalendarDoc, 'sync_state' | 'sync_outbox_id'>): CalendarDoc {
  return {
    id: uuid(n), updated_at: '2026-01-01T00:00:00.000000Z', resident_id: uuid(2), start_date: '2026-03-10', start_time: null,
    end_date: '2026-03-10', end_time: null, sort_key: '2026-03-10T00:00',
    event: { id: uuid(n + 1), title: 'Dentist', description: null, location: null, event_type_id: uuid(12) },
    sync_message: null, ...sync,
  };
}

type Stored = RxDocumentData<Record<string, unknown>>;

/** Writes `document` as a replication's pull writes it: on `previous`, with the downstream's context. */
async function pullWrite(open: OpenReplica, previous: Stored | undefined, document: object, context = DOWNSTREAM) {
  const instance = open.db.calendar.internalStorageInstance as unknown as {
    bulkWrite(rows: { previous?: Stored; document: Stored }[], context: string): Promise<{ error: { status: number; documentId: string }[] }>;
  };
  const next = { _attachments: {}, _deleted: false, ...document, _meta: { lwt: Date.now() }, _rev: `${Date.now()}-pulltest` } as Stored;
  return instance.bulkWrite([{ previous, document: next }], context);
}

async function stored(open: OpenReplica, id: string): Promise<Stored | undefined> {
  const [doc] = await open.db.calendar.internalStorageInstance.findDocumentsById([id], false);
  return doc as Stored | undefined;
}

const pulledCopy = (n: number) => ({ ...event(n, { sync_state: 'synced', sync_outbox_id: null }), updated_at: '2026-01-02T00:00:00.000000Z' });

describe('a pull write decided on a local state the document no longer has', () => {
  it('that keeps a pending change already settled is refused and handed back to the pull', async () => {
    const open = await openReplicaForAccount(testAccount, uniqueName('site'), replica);
    await open.db.calendar.insert(event(10, { sync_state: 'synced', sync_outbox_id: null }));
    const handed: unknown[] = [];
    const stop = onRefusedPull(open.db.name, 'calendar', (copy) => handed.push(copy));
    try {
      const before = await stored(open, uuid(10));
      // What the modifier built while the change still waited on write-1.
      const stale = { ...event(10, { sync_state: 'pending', sync_outbox_id: 'write-1' }), sync_server: pulledCopy(10) };
      const result = await pullWrite(open, before, stale);
      expect(result.error.map((error) => error.status)).toEqual([409]);
      expect(handed).toEqual([expect.objectContaining({ id: uuid(10), sync_state: 'pending', sync_server: expect.objectContaining({ updated_at: pulledCopy(10).updated_at }) })]);
      expect((await stored(open, uuid(10)))?.sync_state).toBe('synced');
    } finally {
      stop();
    }
  });

  it('over a newer change, or a refusal, is refused; built on the same local state it is written', async () => {
    const open = await openReplicaForAccount(testAccount, uniqueName('site'), replica);
    await open.db.calendar.insert(event(20, { sync_state: 'pending', sync_outbox_id: 'write-2' }));
    const copy = { ...event(20, { sync_state: 'pending', sync_outbox_id: 'write-1' }), sync_server: pulledCopy(20) };
    expect((await pullWrite(open, await stored(open, uuid(20)), copy)).error.map((error) => error.status)).toEqual([409]);
    // A synced copy (the modifier read the document before the change) over the change: refused too.
    expect((await pullWrite(open, await stored(open, uuid(20)), pulledCopy(20))).error.map((error) => error.status)).toEqual([409]);

    await open.db.calendar.insert(event(30, { sync_state: 'failed', sync_outbox_id: 'write-3' }));
    const pendingAgain = { ...event(30, { sync_state: 'pending', sync_outbox_id: 'write-3' }), sync_server: pulledCopy(30) };
    expect((await pullWrite(open, await stored(open, uuid(30)), pendingAgain)).error).toHaveLength(1);

    const same = { ...event(20, { sync_state: 'pending', sync_outbox_id: 'write-2' }), sync_server: pulledCopy(20) };
    expect((await pullWrite(open, await stored(open, uuid(20)), same)).error).toEqual([]);
    expect((await stored(open, uuid(20)))?.sync_server).toMatchObject({ updated_at: pulledCopy(20).updated_at });
  });

  it('that brings back a local change taken back since is refused; a new synced copy and a local write pass', async () => {
    const open = await openReplicaForAccount(testAccount, uniqueName('site'), replica);
    const gone = { ...event(40, { sync_state: 'pending', sync_outbox_id: 'write-4' }), sync_server: pulledCopy(40) };
    expect((await pullWrite(open, undefined, gone)).error.map((error) => error.status)).toEqual([409]);
    expect(await stored(open, uuid(40))).toBeUndefined();

    expect((await pullWrite(open, undefined, pulledCopy(50))).error).toEqual([]);
    expect((await stored(open, uuid(50)))?.sync_state).toBe('synced');

    // Only a pull's writes are checked: the app's own write of a change is not a pull.
    await open.db.calendar.insert(event(60, { sync_state: 'synced', sync_outbox_id: null }));
    const change = event(60, { sync_state: 'pending', sync_outbox_id: 'write-6' });
    expect((await pullWrite(open, await stored(open, uuid(60)), change, 'rx-document-save-data')).error).toEqual([]);
    expect((await stored(open, uuid(60)))?.sync_state).toBe('pending');
  });
});
