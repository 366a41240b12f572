/**
 * Issue 12's chaos suite, at the data layer: seeded random sequences of writes, edits, comments and
 * reward swaps, going offline and online, reloads, closing and reopening, the server answering
 * 500, 503, 419 and 401 or timing out mid-flight (before it saw the request, or after it applied
 * it), the server restarting on its database, and a second device of the same person editing and
 * commenting on the same entries through the real API. Real server in-process (PGlite, demo seed),
 * the real outbox and the real pull replication, one replica and one outbox for the whole file
 * (reloads close and reopen them with the same name and key).
 *
 * After each sequence stops: every write the outbox has not heard a 2xx for is still on the device
 * (pending or failed, its words intact, its request still in the outbox). After it settles
 * (online, healed, the queue drained, re-synced): every acknowledged write is on the server exactly
 * once with its words, nothing is there twice, a swap spends its points once, and the device shows
 * what the server has.
 *
 * Edits of one entry from two devices (edit conflicts, issue 12): each update says which copy it
 * was made from and which device made it, and the server refuses (412) one made from a copy the
 * other device has changed since. So after settling the server has the last version it applied (by
 * its time: nothing older wins), and when this device's last change met the other device's, both
 * versions exist: the server has the other device's, the device has its own (failed, marked as a
 * conflict, words intact) with the other one beside it. The young person then chooses (the choice
 * drawn from the sequence's seed: keep mine, keep the other one, keep both) and the suite settles
 * again and checks the outcome. The device ends showing what the server has; both devices' replies
 * are kept.
 *
 * How the chaos is made (tests/data/support/chaos.ts): the outbox's transport is the page's real one
 * behind a switch, so 500, 503, 419 and 401 are injected there (the session itself stays valid; a 419
 * or 401 holds the queue until "sign-in again" resumes it); offline is a network error for the
 * outbox and for pulls; the server really restarts (a new Fastify app on the same database and
 * port). A reload or a closed tab cannot kill code in one process, so it is emulated: the network
 * pauses, the outbox's store is read as the dying page left it, the old replay loop runs out, the
 * store is put back and the replica closed; answers of requests in flight never reach the outbox
 * (the requests themselves go on). A closed app also loses its XSRF cookie and time passes (the
 * outbox's clock moves on).
 *
 * CHAOS_SEED=<n> CHAOS_SEQUENCES=<n> replay or scale it; a failure prints the line that replays it,
 * with the sequence's actions, what happened on the wire and every state each entry went through.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { replicaOutcomeSink } from '@/app/start-outbox-side';
import type { Account } from '@/contract/users';
import type { Reward } from '@/contract/rewards';
import { postComment } from '@/entries/data/comments';
import { isEditConflict, otherVersionOf } from '@/entries/data/conflict-state';
import { keepBoth, keepMine, keepOther } from '@/entries/data/edit-conflict';
import { saveEntry } from '@/entries/data/save-entry';
import { STILL_SENDING } from '@/entries/data/write-support';
import { exchangeReward } from '@/features/rewards/actions/exchange-reward';
import {
  applyOutcomes,
  configureOutbox,
  flushOutbox,
  flushOutboxNowOnline,
  replayHere,
  replayHereNow,
  resetOutboxConfig,
  resumeOutbox,
  type OutboxConfig,
} from '@/data/outbox/outbox';
import { allRecords, updateRecord } from '@/data/outbox/store';
import { openValue } from '@/data/outbox/seal';
import type { OutboxMeta, OutboxRecord } from '@/data/outbox/types';
import { LEASE_MS } from '@/data/outbox/transition';
import { closeReplica, getReplication, openReplicaForAccount, type ReplicaOptions } from '@/data/replica/lifecycle';
import type { OpenReplica } from '@/data/replica/replica-store';
import { pointsNow } from '@/data/replica/points-now';
import type { CommentDoc, JournalDoc, RewardExchangeDoc } from '@/data/replica/types';
import { commentsReplication } from '@/data/replication/endpoints';
import type { Client } from '../server/support/client';
import { signedIn } from '../server/support/session';
import { FakeClassifier, postForm } from '../server/support/uploads';
import { fakeIdb, randomKey, uniqueName } from './fixtures';
import { freshStore, testKey } from './outbox-support';
import {
  actionsFor,
  chaosSettings,
  ChaosNetwork,
  describeAction,
  restartable,
  sequenceSeed,
  type Action,
  type RestartableServer,
} from './support/chaos';
import { eventually, startSyncServer, type SyncTestServer } from './support/sync-server';

const { seed: BASE_SEED, sequences: SEQUENCES } = chaosSettings(200);
const SEQUENCE_TIMEOUT_MS = 120_000;
const JOURNAL = '/api/v1/projects/residents/journal/entries';
/** jamie's other tablet, as its app would name itself to the server's edit-conflict rule. */
const OTHER_DEVICE = 'chaos-other-tablet';

let sync: SyncTestServer;
let server: RestartableServer;
let net: ChaosNetwork;
let restoreFetch: () => void = () => undefined;
let account: Account;
let other: Client;
let ali: Client;
let reward: Reward;
let open: OpenReplica;
let startBalance = 0;
/** Staff paused the chaos reward in this sequence (switched on again after its checks). */
let rewardPaused = false;
/** Added to the outbox's clock: time passes while the app is closed, leases and backoffs run out. */
let clockOffset = 0;
let online = true;
const site = uniqueName('chaos-site');
const outboxStore = freshStore();
const outboxKey = testKey();
const replica: ReplicaOptions = { ...fakeIdb, multiInstance: false, key: randomKey(), replicate: true, replication: { liveTriggers: false, retryTime: 200 } };
const outboxNow = () => Date.now() + clockOffset;

/** Exchanges acknowledged in any sequence: any other row of the chaos reward is a double. */
const knownExchanges = new Set<string>();

const totals = {
  sequences: 0,
  actions: new Map<string, number>(),
  deviceWrites: 0,
  acknowledged: 0,
  refusedOnDevice: new Map<string, number>(),
  failedByServer: new Map<string, number>(),
  otherDeviceEdits: 0,
  otherDeviceComments: 0,
  /** This device's change refused (412) because the other device changed the entry first: both versions kept. */
  conflicts: 0,
  conflictsKeptBoth: 0,
  /** What the young person chose for each conflict. */
  resolved: new Map<string, number>(),
  /** The other device's change refused (412) because this device changed the entry first. */
  otherDeviceRefused: 0,
  lost: 0,
  doubled: 0,
  reloads: 0,
  reopened: 0,
  failedSequences: [] as string[],
  phaseMs: new Map<string, number>(),
  actionMs: new Map<string, number>(),
  startedAt: 0,
};
const bump = (map: Map<string, number>, key: string, by = 1) => map.set(key, (map.get(key) ?? 0) + by);

function outboxParts(): Partial<OutboxConfig> {
  return {
    ...outboxStore,
    getKey: async () => outboxKey,
    transport: net.transport(() => sync.csrfToken()),
    apiBase: () => `${sync.server.base}/api`,
    pageOnly: true,
    sink: replicaOutcomeSink,
    now: outboxNow,
  };
}

beforeAll(async () => {
  totals.startedAt = Date.now();
  sync = await startSyncServer({ imageClassifier: new FakeClassifier() });
  server = restartable(sync.server);
  net = new ChaosNetwork(server);
  restoreFetch = net.wrapFetch(sync.server.base);
  // Staff first: a client without cookies yet would be given the app's session by the fetch wrapper.
  ali = await signedIn(sync.server, 'carer.ali');
  account = await sync.signIn('jamie');
  // jamie's other tablet: cookies of its own, so neither fetch wrapper touches its requests.
  other = sync.server.client();
  other.jar.set('chaos-other-device', '1');
  expect((await other.login('jamie', 'hearth-demo-1', 'demo')).status).toBe(200);
  // A reward of one point, so two hundred sequences never run out of points (each swap is denied after its checks).
  const made = await postForm<{ data: Reward }>(sync.server.base, ali, `/api/v1/homes/${account.user.resident!.home_id}/rewards`, [
    ['name', 'Chaos sticker'],
    ['points', '1'],
    ['description', 'Made by the chaos suite.'],
  ]);
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  reward = made.body.data;

  vi.stubGlobal('navigator', {
    get onLine() {
      return online;
    },
  });
  configureOutbox(outboxParts());
  open = await openReplicaForAccount(account, site, replica);
  await getReplication()!.awaitInitial();
  await eventually(async () => Boolean(await open.db.lookups.findOne(reward.id).exec()), 15_000, 'the chaos reward in the catalogue');
  startBalance = await serverBalance();
  expect(startBalance).toBeGreaterThan(20);
}, 120_000);

afterAll(async () => {
  const seconds = ((Date.now() - totals.startedAt) / 1000).toFixed(1);
  const list = (map: Map<string, number>) => [...map].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k} ${v}`).join(', ') || 'none';
  console.log(
    [
      `chaos: seed ${BASE_SEED}, ${totals.sequences} sequences in ${seconds}s (${totals.failedSequences.length} failed${totals.failedSequences.length ? `: ${totals.failedSequences.join('; ')}` : ''})`,
      `  actions ${[...totals.actions.values()].reduce((a, b) => a + b, 0)}: ${list(totals.actions)}`,
      `  device writes ${totals.deviceWrites}, acknowledged ${totals.acknowledged}; refused on the device: ${list(totals.refusedOnDevice)}; refused by the server: ${list(totals.failedByServer)}`,
      `  outbox requests ${net?.requests ?? 0}, app GETs ${net?.pulls ?? 0}; injected: ${net ? list(net.injected) : 'none'}`,
      `  server restarts ${server?.restarts ?? 0}, reloads ${totals.reloads}, closed and reopened ${totals.reopened}`,
      `  other device: edits ${totals.otherDeviceEdits} (refused as conflicts ${totals.otherDeviceRefused}), comments ${totals.otherDeviceComments}; edit conflicts on this device ${totals.conflicts}, both versions kept ${totals.conflictsKeptBoth}; resolved: ${list(totals.resolved)}`,
      `  time by phase (ms): ${list(totals.phaseMs)}; by action: ${list(totals.actionMs)}`,
      `  lost ${totals.lost}, doubled ${totals.doubled}, 5xx from our server ${net?.server5xx.length ?? 0}${net?.server5xx.length ? ` (${net.server5xx.slice(0, 10).join('; ')})` : ''}; 503 while it closed for a restart ${net?.closing5xx.length ?? 0}`,
    ].join('\n'),
  );
  resetOutboxConfig();
  vi.unstubAllGlobals();
  await closeReplica();
  await server?.dispose();
  restoreFetch();
  await sync?.close();
}, 120_000);

// --- reading the server and the device ---------------------------------------------------------

async function serverBalance(): Promise<number> {
  const row = await sync.server.db.selectFrom('residents').select('reward_points').where('id', '=', account.user.resident!.id).executeTakeFirstOrThrow();
  return Number(row.reward_points);
}
const journalDoc = async (id: string) => (await open.db.journal.findOne(id).exec())?.toJSON() as JournalDoc | undefined;
const commentDoc = async (id: string) => (await open.db.comments.findOne(id).exec())?.toJSON() as CommentDoc | undefined;
const exchangeDoc = async (id: string) => (await open.db.points.findOne(id).exec())?.toJSON() as unknown as RewardExchangeDoc | undefined;

// --- one sequence ------------------------------------------------------------------------------

type Collection = 'journal' | 'comments' | 'points';

interface DeviceWrite {
  readonly n: number;
  readonly kind: 'create' | 'edit' | 'comment' | 'exchange';
  readonly collection: Collection;
  readonly docId: string;
  readonly entryId: string | null;
  readonly text: string | null;
  readonly at: number;
  key: string | null;
}

interface OtherWrite {
  readonly kind: 'edit' | 'comment';
  readonly entryId: string;
  readonly id: string;
  readonly text: string;
  readonly startedAt: number;
  status: number;
  /** An applied edit: the entry's updated_at it made (the server's order of versions). */
  updatedAt: string | null;
}

let current: Sequence | null = null;
/** The time of day with milliseconds, as the wire trace and the server's timestamps show it. */
const clock = () => new Date().toISOString().slice(11, 23);
type WriteResultLike = Awaited<ReturnType<typeof saveEntry>>;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

class Sequence {
  readonly writes: DeviceWrite[] = [];
  readonly others: OtherWrite[] = [];
  /** Entries this device created in this sequence, in order. */
  readonly entries: string[] = [];
  readonly log: string[] = [];
  readonly problems: string[] = [];
  /** Entries whose last change from this device met the other device's (412): both versions kept. */
  readonly conflicted: string[] = [];
  private versions = new Map<string, number>();
  private n = 0;
  private watches: { unsubscribe(): void }[] = [];

  /** `choices`: picks what the young person keeps in each conflict (from the sequence's seed). */
  constructor(
    readonly tag: string,
    private readonly choices = 0,
  ) {}

  note(line: string): void {
    this.log.push(line);
  }

  problem(kind: 'lost' | 'doubled' | 'other', text: string): void {
    if (kind === 'lost') totals.lost += 1;
    if (kind === 'doubled') totals.doubled += 1;
    this.problems.push(`${kind === 'other' ? '' : `[${kind}] `}${text}`);
  }

  private entryAt(pick: number): { id: string; index: number } | null {
    if (this.entries.length === 0) return null;
    const index = pick % this.entries.length;
    return { id: this.entries[index]!, index };
  }

  private nextText(entryIndex: number, what: string): string {
    const key = `${entryIndex}:${what}`;
    const v = (this.versions.get(key) ?? 0) + 1;
    this.versions.set(key, v);
    return `${this.tag} e${entryIndex} ${what}${v}`;
  }

  /**
   * The Idempotency-Key of the write just queued for a document: the newest outbox entry for it not
   * yet counted, else the document's outbox id, else the transport's record (a write already sent
   * and cleared). The outbox comes first: an earlier write's outcome (a 412 answered meanwhile) may
   * already have put its own outbox id back on the document.
   */
  private async keyOf(collection: Collection, id: string): Promise<string | null> {
    const known = new Set(this.writes.map((w) => w.key));
    const queued = (await allRecords(outboxStore))
      .filter((r) => !known.has(r.id) && docOf(r) === `${collection}/${id}`)
      .sort((a, b) => b.seq - a.seq)[0];
    if (queued) return queued.id;
    const doc = (await open.db[collection].findOne(id).exec())?.toJSON() as { sync_outbox_id?: string | null } | undefined;
    if (doc?.sync_outbox_id && !known.has(doc.sync_outbox_id)) return doc.sync_outbox_id;
    return [...(net.keysByDoc.get(id) ?? [])].reverse().find((k) => !known.has(k)) ?? null;
  }

  private async record(kind: DeviceWrite['kind'], collection: Collection, docId: string, entryId: string | null, text: string | null, at: number): Promise<void> {
    const write: DeviceWrite = { n: this.n++, kind, collection, docId, entryId, text, at, key: null };
    write.key = await this.keyOf(collection, docId);
    if (!write.key) this.problem('other', `no outbox key found for ${kind} ${docId}`);
    this.writes.push(write);
    totals.deviceWrites += 1;
  }

  /** Every state entry `id` goes through, into the log a failure prints (until the replica closes). */
  watch(id: string): void {
    const sub = open.db.journal.findOne(id).$.subscribe((doc) => {
      const d = doc?.toJSON() as JournalDoc | undefined;
      const parked = d?.sync_server as { description?: string; updated_at?: string } | null | undefined;
      this.note(
        `    [${clock()}] ${id.slice(0, 8)} ${d?.sync_state}${d?.local_only ? ' local' : ''} "${d?.description}" ${d?.updated_at}` +
          `${d?.sync_outbox_id ? ` outbox ${d.sync_outbox_id.slice(0, 8)}` : ''}${parked ? ` parked "${parked.description}" ${parked.updated_at}` : ''}`,
      );
    });
    this.watches.push(sub);
  }

  unwatch(): void {
    for (const sub of this.watches.splice(0)) sub.unsubscribe();
  }

  private refused(what: string, message: string): void {
    bump(totals.refusedOnDevice, message);
    this.note(`  ${what} refused on the device: ${message}`);
  }

  async perform(action: Action): Promise<void> {
    const started = Date.now();
    try {
      await this.performNow(action);
    } finally {
      bump(totals.actionMs, action.kind, Date.now() - started);
    }
  }

  private async performNow(action: Action): Promise<void> {
    bump(totals.actions, action.kind);
    this.note(`[${clock()}] ${describeAction(action)}`);
    switch (action.kind) {
      case 'write': {
        const index = this.entries.length;
        const text = this.nextText(index, 'v');
        const at = Date.now();
        const result = await saveEntry('journal', { description: text });
        if (!result.ok) return this.refused('write', result.message);
        this.entries.push(result.id);
        this.watch(result.id);
        await this.record('create', 'journal', result.id, result.id, text, at);
        return;
      }
      case 'edit': {
        const entry = this.entryAt(action.pick);
        if (!entry) return;
        const text = this.nextText(entry.index, 'v');
        const at = Date.now();
        const before = await journalDoc(entry.id);
        const result = await saveEntry('journal', { description: text }, { id: entry.id });
        if (!result.ok) return this.refused('edit', result.message);
        await this.record(before?.local_only ? 'create' : 'edit', 'journal', entry.id, entry.id, text, at);
        return;
      }
      case 'comment': {
        const entry = this.entryAt(action.pick);
        if (!entry) return;
        const text = this.nextText(entry.index, 'c');
        const at = Date.now();
        const result = await postComment('journal', entry.id, { comment: text });
        if (!result.ok) return this.refused('comment', result.message);
        await this.record('comment', 'comments', result.id, entry.id, text, at);
        return;
      }
      case 'exchange': {
        const at = Date.now();
        const result = await exchangeReward(reward.id);
        if (!result.ok) return this.refused('exchange', result.message);
        await this.record('exchange', 'points', result.id, null, null, at);
        return;
      }
      case 'offline':
        online = false;
        net.online = false;
        return;
      case 'online':
        online = true;
        net.online = true;
        // What the app does on `online` (start-outbox.ts, the replication's trigger).
        flushOutboxNowOnline();
        getReplication()?.reSync();
        return;
      case 'fault':
        net.arm(action.fault, action.phase, action.times);
        return;
      case 'pull-fault':
        net.armPull(action.status);
        return;
      case 'restart':
        await server.restart();
        return;
      case 'server-down':
        await server.stop();
        return;
      case 'server-up':
        await server.start();
        return;
      case 'reload':
        totals.reloads += 1;
        await pageDies(action.whileSending);
        await pageStarts();
        return;
      case 'close-reopen':
        totals.reopened += 1;
        await pageDies(action.whileSending);
        // Closed for a while: leases and backoffs run out, and the browser forgot its session cookies.
        clockOffset += action.minutes * 60_000;
        net.forgetCsrf();
        online = !action.offline;
        net.online = !action.offline;
        await pageStarts();
        return;
      case 'other-edit':
      case 'other-comment': {
        const entry = this.entryAt(action.pick);
        if (!entry) return;
        const edit = action.kind === 'other-edit';
        const text = this.nextText(entry.index, edit ? 'o' : 'oc');
        const id = edit ? entry.id : crypto.randomUUID();
        const write: OtherWrite = { kind: edit ? 'edit' : 'comment', entryId: entry.id, id, text, startedAt: Date.now(), status: 0, updatedAt: null };
        try {
          if (edit) {
            // The other tablet reads the entry and changes that copy (its base), as the app does.
            const seen = await other.get<{ data?: { updated_at?: string } }>(`${JOURNAL}/${entry.id}`);
            const base = seen.status === 200 ? seen.body.data?.updated_at : undefined;
            const res = await other.post<{ data?: { updated_at?: string } }>(`${JOURNAL}/${entry.id}?_method=PUT`, { description: text, ...(base ? { base_updated_at: base } : {}), device_id: OTHER_DEVICE });
            write.status = res.status;
            write.updatedAt = res.status === 200 ? (res.body.data?.updated_at ?? null) : null;
            if (res.status === 412) totals.otherDeviceRefused += 1;
          } else {
            write.status = (await other.post(`${JOURNAL}/comments`, { id, entry_id: entry.id, comment: text })).status;
          }
        } catch {
          write.status = 0; // the server is down
        }
        this.others.push(write);
        this.note(`  other device ${write.kind}: ${write.status}`);
        if (write.status >= 200 && write.status < 300) {
          if (edit) totals.otherDeviceEdits += 1;
          else totals.otherDeviceComments += 1;
        }
        return;
      }
      case 'both-edit':
        // Two of jamie's devices change the same entry at nearly the same moment.
        await this.performNow({ kind: 'edit', pick: action.pick });
        await this.performNow({ kind: 'other-edit', pick: action.pick });
        return;
      case 'staff-pause': {
        if (rewardPaused) return;
        const res = await ali.post(`/api/v1/rewards/${reward.id}?_method=PUT`, { active: false }).catch(() => null);
        this.note(`  staff paused the reward: ${res?.status ?? 'the server is down'}`);
        if (res?.status === 200) rewardPaused = true;
        return;
      }
      case 'pull':
        getReplication()?.reSync();
        return;
      case 'sign-in-again':
        void resumeOutbox().catch(() => undefined);
        return;
      case 'wait':
        await sleep(action.ms);
        return;
      case 'drain':
        // One replay of what is due now (backoffs and a held queue still wait), its outcomes applied.
        await replayHere().catch(() => undefined);
        await applyOutcomes();
        return;
    }
  }

  // --- after the sequence -------------------------------------------------------------------

  private latestOf(write: DeviceWrite): boolean {
    return !this.writes.some((w) => w.n > write.n && w.collection === write.collection && w.docId === write.docId);
  }

  private describe(write: DeviceWrite): string {
    return `${write.kind} #${write.n} of ${write.collection}/${write.docId}${write.text ? ` "${write.text}"` : ''}`;
  }

  private async textOnDevice(write: DeviceWrite): Promise<{ exists: boolean; state: string | null; text: string | null }> {
    if (write.collection === 'journal') {
      const doc = await journalDoc(write.docId);
      return { exists: Boolean(doc), state: doc?.sync_state ?? null, text: doc?.description ?? null };
    }
    if (write.collection === 'comments') {
      const doc = await commentDoc(write.docId);
      return { exists: Boolean(doc), state: doc?.sync_state ?? null, text: doc?.comment ?? null };
    }
    const doc = await exchangeDoc(write.docId);
    return { exists: Boolean(doc), state: doc?.sync_state ?? null, text: null };
  }

  /** Stopped mid-chaos: whatever the outbox has not heard a 2xx for is still on the device. */
  async checkUnacknowledged(): Promise<void> {
    const records = new Map((await allRecords(outboxStore)).map((r) => [r.id, r]));
    for (const write of this.writes) {
      if (!write.key || net.acked.has(write.key)) continue;
      const latest = this.latestOf(write);
      const record = records.get(write.key);
      if (!record) {
        // A create the device withdrew to queue the entry again with newer words is not lost.
        if (!latest) continue;
        this.problem('lost', `unacknowledged ${this.describe(write)} is no longer in the outbox`);
      } else if (record.state === 'sent') {
        this.problem('other', `${this.describe(write)} is sent in the outbox but the transport never gave it a 2xx`);
      }
      if (!latest) continue;
      const device = await this.textOnDevice(write);
      if (!device.exists) this.problem('lost', `unacknowledged ${this.describe(write)} is not on the device`);
      else if (device.state !== 'pending' && device.state !== 'failed') this.problem('other', `unacknowledged ${this.describe(write)} is ${device.state} on the device`);
      if (device.exists && write.text !== null && device.text !== write.text) {
        this.problem('lost', `unacknowledged ${this.describe(write)}: the device shows "${device.text}"`);
      }
    }
  }

  async checkSettled(): Promise<void> {
    const records = new Map((await allRecords(outboxStore)).map((r) => [r.id, r]));
    const stuck = waitingToSend([...records.values()]);
    if (stuck.length) this.problem('other', `the outbox did not drain: ${stuck.map((r) => `${r.id} ${r.state} (last ${r.lastStatus})`).join(', ')}`);

    for (const write of this.writes) {
      if (write.key && net.acked.has(write.key)) totals.acknowledged += 1;
    }
    await this.checkEntries(records);
    await this.checkComments(records);
    await this.checkExchanges(records);
  }

  /** Not acknowledged after settling: only a refusal the device shows, its words intact. */
  private async unacknowledgedAfterSettle(write: DeviceWrite, records: Map<string, OutboxRecord>): Promise<void> {
    const device = await this.textOnDevice(write);
    const record = write.key ? records.get(write.key) : undefined;
    if (record?.state === 'failed' && device.state === 'failed' && (write.text === null || device.text === write.text)) {
      bump(totals.failedByServer, `${write.kind} ${record.lastStatus}`);
      this.note(`  ${this.describe(write)} refused by the server (${record.lastStatus})`);
      return;
    }
    // Queued behind a refused change of the same document: the device shows its words, refused, until the young person chooses.
    if (record && behindRefusal(record, records.values()) && device.state === 'failed' && (write.text === null || device.text === write.text)) {
      this.note(`  ${this.describe(write)} waits behind a refused change of its document`);
      return;
    }
    this.problem('lost', `${this.describe(write)} was never acknowledged and is ${record ? `${record.state} in the outbox` : 'not in the outbox'}, ${device.exists ? `${device.state} "${device.text}"` : 'not'} on the device`);
  }

  /**
   * The last version of an entry the server applied, by its own clock: every 2xx answer to one of
   * this device's writes (heard by the outbox or not) and every change of the other device.
   */
  private latestVersion(entryId: string): { at: string; text: string; by: string } | null {
    const keys = new Set(net.keysByDoc.get(entryId) ?? []);
    const versions = [
      ...net.answers
        .filter((a) => a.status >= 200 && a.status < 300 && keys.has(a.key) && a.data?.id === entryId && !a.path.includes('/comments'))
        .map((a) => ({ at: String(a.data!.updated_at), text: String(a.data!.description), by: `this device (${a.key.slice(0, 8)})` })),
      ...this.others.filter((o) => o.kind === 'edit' && o.entryId === entryId && o.updatedAt).map((o) => ({ at: o.updatedAt!, text: o.text, by: 'the other device' })),
    ];
    return versions.reduce<{ at: string; text: string; by: string } | null>((latest, v) => (!latest || v.at > latest.at ? v : latest), null);
  }

  private async checkEntries(records: Map<string, OutboxRecord>): Promise<void> {
    const db = sync.server.db;
    for (const entryId of this.entries) {
      const writes = this.writes.filter((w) => w.collection === 'journal' && w.docId === entryId);
      const last = writes.at(-1)!;
      const row = await db.selectFrom('journal_entries').select(['description', 'deleted_at']).where('id', '=', entryId).executeTakeFirst();
      // Nothing older than the last version the server applied wins.
      const latest = this.latestVersion(entryId);
      if (row && !row.deleted_at && latest && row.description !== latest.text) {
        this.problem('lost', `entry ${entryId} on the server reads "${row.description}", but the last version it applied is "${latest.text}" from ${latest.by} at ${latest.at}`);
      }
      if (!last.key || !net.acked.has(last.key)) {
        await this.unacknowledgedAfterSettle(last, records);
        // Refused as a conflict: this change, or one before it that this one waits behind.
        const conflict = writes.some((w) => w.key && records.get(w.key)?.state === 'failed' && records.get(w.key)?.lastStatus === 412);
        if (conflict) await this.checkConflict(entryId, last, row?.description ?? null);
        continue;
      }
      if (!row || row.deleted_at) {
        this.problem('lost', `${this.describe(last)} was acknowledged but the server has no entry ${entryId}`);
        continue;
      }
      // The device shows the server's copy.
      const converged = await settleOn(
        async () => {
          const doc = await journalDoc(entryId);
          return doc?.sync_state === 'synced' && doc.description === row.description && !doc.sync_server;
        },
        ['journal'],
      );
      if (!converged) {
        const doc = await journalDoc(entryId);
        const pulls = sync.requests.filter((r) => r.url.pathname.endsWith('/journal/entries')).slice(-3);
        this.note(`last journal pulls: ${pulls.map((r) => `${r.status} (${r.rows} rows) after ${r.url.searchParams.get('checkpoint[updated_at]')}`).join(', ')}`);
        const server = await sync.server.db.selectFrom('journal_entries').select(['updated_at']).where('id', '=', entryId).executeTakeFirst();
        this.problem(
          'other',
          `the device shows entry ${entryId} as ${doc?.sync_state} "${doc?.description}" (updated ${doc?.updated_at}${doc?.sync_server ? `, parked ${JSON.stringify(doc.sync_server)}` : ''}), the server "${row.description}" (updated ${String(server?.updated_at instanceof Date ? server.updated_at.toISOString() : server?.updated_at)})`,
        );
      }
    }
    // Nothing twice: every row carrying this sequence's tag is one of the entries created here.
    const rows = await db.selectFrom('journal_entries').select(['id', 'description']).where('description', 'like', `${this.tag} %`).execute();
    for (const row of rows) {
      if (!this.entries.includes(row.id)) this.problem('doubled', `the server has an extra entry ${row.id} "${row.description}"`);
    }
  }

  /**
   * This device's last change met the other device's: both versions exist. The server has the
   * other one (checked above: the last it applied), the device has its own, words intact, marked as
   * a conflict, with the server's version beside it.
   */
  private async checkConflict(entryId: string, last: DeviceWrite, serverWords: string | null): Promise<void> {
    totals.conflicts += 1;
    const doc = await journalDoc(entryId);
    if (!doc || !isEditConflict(doc)) {
      this.problem('other', `${this.describe(last)} was refused as a conflict, but the device shows ${doc ? `${doc.sync_state} "${doc.description}" (${doc.sync_message})` : 'nothing'}`);
      return;
    }
    if (serverWords === null) {
      this.problem('lost', `${this.describe(last)} was refused as a conflict, but the server has no entry ${entryId}`);
      return;
    }
    // The other version beside it is the server's (a pull may bring a newer one than the refusal's).
    const beside = await settleOn(async () => {
      const now = await journalDoc(entryId);
      return Boolean(now) && otherVersionOf(now!)?.description === serverWords && now!.description === last.text;
    }, ['journal']);
    if (!beside) {
      const now = await journalDoc(entryId);
      this.problem('lost', `conflict on ${entryId}: the device has "${now?.description}" beside "${now ? otherVersionOf(now)?.description : ''}", the server "${serverWords}"`);
      return;
    }
    totals.conflictsKeptBoth += 1;
    this.conflicted.push(entryId);
  }

  /**
   * The young person chooses in each conflict (keep mine, keep the other one, keep both; drawn from
   * the sequence's seed); the device settles again; the outcome is what they chose, once.
   */
  async resolveConflicts(): Promise<void> {
    if (this.conflicted.length === 0) return;
    const choices = ['mine', 'other', 'both'] as const;
    const wanted: { entryId: string; choice: (typeof choices)[number]; mine: string; theirs: string; copy: string | null }[] = [];
    for (const [i, entryId] of this.conflicted.entries()) {
      const choice = choices[(this.choices + i) % 3]!;
      const doc = (await journalDoc(entryId))!;
      const mine = doc.description ?? '';
      const theirs = otherVersionOf(doc)?.description ?? '';
      const result = choice === 'mine' ? await keepMine('journal', entryId) : choice === 'other' ? await keepOther('journal', entryId) : await keepBoth('journal', entryId);
      this.note(`[${clock()}] conflict on ${entryId.slice(0, 8)}: keep ${choice} → ${JSON.stringify(result)}`);
      if (!result.ok) {
        this.problem('other', `keep ${choice} on ${entryId} answered "${result.message}"`);
        continue;
      }
      bump(totals.resolved, choice);
      wanted.push({ entryId, choice, mine, theirs, copy: choice === 'both' ? (result.id ?? null) : null });
    }
    await settle(this);
    const db = sync.server.db;
    const words = async (id: string) => (await db.selectFrom('journal_entries').select('description').where('id', '=', id).executeTakeFirst())?.description;
    for (const { entryId, choice, mine, theirs, copy } of wanted) {
      const expected = choice === 'mine' ? mine : theirs;
      if ((await words(entryId)) !== expected) this.problem('lost', `after keep ${choice}, entry ${entryId} on the server reads "${await words(entryId)}", not "${expected}"`);
      if (!(await settleOn(async () => (await journalDoc(entryId))?.sync_state === 'synced' && (await journalDoc(entryId))?.description === expected, ['journal']))) {
        this.problem('other', `after keep ${choice}, the device shows ${entryId} as ${(await journalDoc(entryId))?.sync_state} "${(await journalDoc(entryId))?.description}"`);
      }
      if (choice === 'both') {
        if (!copy || (await words(copy)) !== mine) this.problem('lost', `after keep both, the new entry ${copy} reads "${copy ? await words(copy) : ''}", not "${mine}"`);
        const copies = await db.selectFrom('journal_entries').select('id').where('description', '=', mine).where('deleted_at', 'is', null).execute();
        if (copies.length !== 1) this.problem(copies.length > 1 ? 'doubled' : 'lost', `after keep both, "${mine}" is on the server ${copies.length} times`);
      }
    }
    const chosen = new Set(wanted.map((w) => `journal/${w.entryId}`));
    const left = (await allRecords(outboxStore)).filter((r) => r.state !== 'sent' && chosen.has(docOf(r) ?? ''));
    if (left.length) this.problem('other', `after choosing, the outbox still holds ${left.map((r) => `${r.state} ${r.lastStatus}`).join(', ')} for those entries`);
  }

  private async checkComments(records: Map<string, OutboxRecord>): Promise<void> {
    const db = sync.server.db;
    const comments = this.writes.filter((w) => w.collection === 'comments');
    for (const write of comments) {
      if (!write.key || !net.acked.has(write.key)) {
        await this.unacknowledgedAfterSettle(write, records);
        continue;
      }
      const row = await db.selectFrom('entry_comments').select(['comment', 'entry_id', 'deleted_at']).where('id', '=', write.docId).executeTakeFirst();
      if (!row || row.deleted_at || row.comment !== write.text || row.entry_id !== write.entryId) {
        this.problem('lost', `${this.describe(write)} was acknowledged; the server has ${row ? `"${row.comment}" on ${row.entry_id}` : 'no such comment'}`);
      }
    }
    const others = this.others.filter((o) => o.kind === 'comment' && o.status === 201);
    for (const o of others) {
      const row = await db.selectFrom('entry_comments').select('comment').where('id', '=', o.id).executeTakeFirst();
      if (row?.comment !== o.text) this.problem('lost', `the other device's reply "${o.text}" is not on the server`);
    }
    const known = new Set([...comments.map((w) => w.docId), ...this.others.filter((o) => o.kind === 'comment').map((o) => o.id)]);
    const rows = await db.selectFrom('entry_comments').select(['id', 'comment']).where('comment', 'like', `${this.tag} %`).execute();
    for (const row of rows) {
      if (!known.has(row.id)) this.problem('doubled', `the server has an extra reply ${row.id} "${row.comment}"`);
    }
    // Both devices' replies on the device, once each, as the server has them.
    const threads = rows.length ? await this.threadsOf(rows.map((r) => r.id)) : [];
    for (const entryId of threads) {
      const release = getReplication()!.acquire(commentsReplication('journal', entryId));
      try {
        const serverRows = await db.selectFrom('entry_comments').select(['id', 'comment']).where('entry_id', '=', entryId).where('deleted_at', 'is', null).execute();
        const want = new Map(serverRows.map((r) => [r.id, r.comment]));
        const same = async () => {
          const docs = (await open.db.comments.find({ selector: { entry_id: entryId } }).exec()).map((d) => d.toJSON() as CommentDoc);
          return docs.length === want.size && docs.every((d) => d.sync_state === 'synced' && want.get(d.id) === d.comment);
        };
        if (!(await settleOn(same, ['journal']))) {
          const docs = (await open.db.comments.find({ selector: { entry_id: entryId } }).exec()).map((d) => d.toJSON() as CommentDoc);
          this.problem(
            'other',
            `the thread of ${entryId} on the device (${docs.map((d) => `${d.id.slice(0, 8)} ${d.sync_state} "${d.comment}"`).join(', ')}) is not the server's (${serverRows.map((r) => `${r.id.slice(0, 8)} "${r.comment}"`).join(', ')})`,
          );
        }
      } finally {
        release();
      }
    }
  }

  private async threadsOf(commentIds: string[]): Promise<string[]> {
    const rows = await sync.server.db.selectFrom('entry_comments').select('entry_id').distinct().where('id', 'in', commentIds).execute();
    return rows.map((r) => r.entry_id);
  }

  private async checkExchanges(records: Map<string, OutboxRecord>): Promise<void> {
    const db = sync.server.db;
    const exchanges = this.writes.filter((w) => w.collection === 'points');
    const acked: string[] = [];
    for (const write of exchanges) {
      if (!write.key || !net.acked.has(write.key)) {
        await this.unacknowledgedAfterSettle(write, records);
        continue;
      }
      acked.push(write.docId);
      knownExchanges.add(write.docId);
      const row = await db.selectFrom('reward_exchanges').select(['status', 'points']).where('id', '=', write.docId).executeTakeFirst();
      if (!row) this.problem('lost', `${this.describe(write)} was acknowledged but the server has no such exchange`);
      const ledger = await db.selectFrom('points_ledger').select(['delta', 'reason']).where('source_id', '=', write.docId).execute();
      const spends = ledger.filter((l) => l.reason === 'reward_exchange');
      if (spends.length !== 1 || Number(spends[0]!.delta) !== -reward.points) {
        this.problem(spends.length > 1 ? 'doubled' : 'lost', `${this.describe(write)}: the ledger has ${JSON.stringify(ledger)}`);
      }
      if (!(await settleOn(async () => (await exchangeDoc(write.docId))?.sync_state === 'synced', ['reward_history', 'points']))) {
        this.problem('other', `${this.describe(write)} is ${(await exchangeDoc(write.docId))?.sync_state} on the device`);
      }
    }
    const extra = await db.selectFrom('reward_exchanges').select('id').where('reward_id', '=', reward.id).execute();
    for (const row of extra) if (!knownExchanges.has(row.id)) this.problem('doubled', `the server has an exchange ${row.id} nobody acknowledged`);

    // Staff switch the reward on again, and the next sequence can swap for it.
    if (rewardPaused) {
      const res = await ali.post(`/api/v1/rewards/${reward.id}?_method=PUT`, { active: true });
      if (res.status !== 200) this.problem('other', `switching the reward on again answered ${res.status}`);
      rewardPaused = false;
      if (!(await settleOn(async () => Boolean(await open.db.lookups.findOne(reward.id).exec()), ['rewards']))) {
        this.problem('other', 'the reward did not come back to the catalogue on the device');
      }
    }

    // Points: spent once per swap, and the device counts what the server counts.
    if (exchanges.length === 0) return;
    const balance = await serverBalance();
    if (balance !== startBalance - acked.length * reward.points) {
      this.problem('other', `the balance is ${balance}, expected ${startBalance} - ${acked.length} swaps of ${reward.points}`);
    }
    if (!(await settleOn(async () => (await pointsNow(open))?.balance === balance, ['points', 'reward_history', 'resident']))) {
      this.problem('other', `the device counts ${(await pointsNow(open))?.balance} points, the server ${balance}`);
    }
    // Staff deny every swap: the points come back for the next sequence.
    for (const id of acked) {
      const res = await ali.post(`/api/v1/reward-exchanges/${id}/deny`, {});
      if (res.status !== 200) this.problem('other', `denying ${id} answered ${res.status}`);
    }
    if (acked.length) {
      const back = await serverBalance();
      if (back !== startBalance) this.problem('other', `after the denials the balance is ${back}, expected ${startBalance}`);
      // The refunds reach the device before the next sequence counts on them.
      await settleOn(async () => (await pointsNow(open))?.balance === back, ['points', 'reward_history', 'resident']);
    }
  }
}

/** Polls `check`, asking for a re-sync of `topics` about every second, for up to 20 s. */
async function settleOn(check: () => Promise<boolean>, topics: Parameters<NonNullable<ReturnType<typeof getReplication>>['reSync']>[0]): Promise<boolean> {
  const until = Date.now() + 20_000;
  let asked = 0;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > until) return false;
    if (Date.now() - asked > 1_000) {
      asked = Date.now();
      getReplication()?.reSync(topics);
    }
    await sleep(25);
  }
}

// --- the page dying and starting -----------------------------------------------------------------

/**
 * The page goes away (reload, closed tab): requests in flight may still reach the server, but
 * their answers never reach the outbox, and the outbox's store stays as it was at that moment
 * (an entry being sent keeps its lease and its attempt count). Emulated in one process by pausing
 * the network, taking the store as it is, letting the old replay loop run out, and putting the
 * store back.
 */
async function pageDies(whileSending: boolean): Promise<void> {
  if (whileSending) await eventually(() => net.sending > 0, 500, 'a request in flight').catch(() => undefined);
  net.pause(true);
  const snapshot = new Map((await allRecords(outboxStore)).map((r) => [r.id, r]));
  net.releaseKilled();
  await replayHere().catch(() => undefined);
  resetOutboxConfig();
  for (const current of await allRecords(outboxStore)) {
    const then = snapshot.get(current.id);
    if (then && JSON.stringify(then) !== JSON.stringify(current)) await updateRecord(outboxStore, current.id, () => then);
  }
  current?.unwatch();
  await closeReplica();
}

async function pageStarts(): Promise<void> {
  configureOutbox(outboxParts());
  net.resume();
  open = await openReplicaForAccount(account, site, replica);
  for (const id of current?.entries ?? []) current?.watch(id);
  // The page's start-up replay (start-outbox.ts).
  flushOutbox();
}

/** Stops the chaos (no new request goes out; those in flight finish) so the device can be read. */
async function stopTheWorld(): Promise<void> {
  net.pause();
  await net.idle();
  await replayHere().catch(() => undefined);
  await net.idle();
  await applyOutcomes();
}

/** Online, healed, the server up, signed in again: the queue drains and the outcomes are applied. */
async function settle(sequence: Sequence): Promise<void> {
  net.heal();
  online = true;
  await server.start();
  net.resume();
  for (let round = 0; round < 12; round += 1) {
    const records = await allRecords(outboxStore);
    if (waitingToSend(records).length === 0) break;
    // Leases of a page that went away run out; backoffs are cut short by `online`.
    if (records.some((r) => r.leaseUntil > outboxNow())) clockOffset += LEASE_MS + 1_000;
    await resumeOutbox();
    await replayHereNow();
    await net.idle();
    if (round === 11) sequence.problem('other', 'the outbox still had work after 12 rounds');
  }
  await net.idle();
  await applyOutcomes();
  getReplication()?.reSync();
}

/** The document an outbox record writes to (`collection/id`), read with the outbox's key. */
function docOf(record: OutboxRecord): string | null {
  try {
    const local = openValue<OutboxMeta>(outboxKey, record.id, 'meta', record.meta).local;
    return local ? `${local.collection}/${local.id}` : null;
  } catch {
    return null;
  }
}

/**
 * Records that can still go by themselves: pending or held, and not queued behind a refused write
 * of the same document (those wait for the young person's choice, as the refused one does).
 */
function waitingToSend(records: readonly OutboxRecord[]): OutboxRecord[] {
  const refusedDocs = new Set(records.filter((r) => r.state === 'failed').map(docOf).filter(Boolean));
  return records.filter((r) => (r.state === 'pending' || r.state === 'held') && !refusedDocs.has(docOf(r)));
}

/** Whether `record` waits behind a refused write of its document. */
function behindRefusal(record: OutboxRecord, records: Iterable<OutboxRecord>): boolean {
  const doc = docOf(record);
  return record.state === 'pending' && doc !== null && [...records].some((r) => r.state === 'failed' && docOf(r) === doc);
}

// --- the suite ------------------------------------------------------------------------------------

async function runSequence(label: string, tag: string, actions: readonly Action[], replay: string, choices = 0): Promise<void> {
  totals.sequences += 1;
  const sequence = new Sequence(tag, choices);
  const traceFrom = net.trace.length;
  const errorsFrom = net.server5xx.length;
  current = sequence;
  const phase = async (name: string, work: () => Promise<void>) => {
    const started = Date.now();
    try {
      await work();
    } finally {
      bump(totals.phaseMs, name, Date.now() - started);
    }
  };
  try {
    await phase('actions', async () => {
      for (const action of actions) await sequence.perform(action);
    });
    await phase('stop', stopTheWorld);
    await phase('check unacknowledged', () => sequence.checkUnacknowledged());
    await phase('settle', () => settle(sequence));
    await phase('check settled', () => sequence.checkSettled());
    await phase('resolve conflicts', () => sequence.resolveConflicts());
  } catch (error) {
    sequence.problem('other', `threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  }
  for (const error of net.server5xx.slice(errorsFrom)) sequence.problem('other', `our server answered ${error}`);
  sequence.unwatch();
  if (sequence.problems.length) {
    totals.failedSequences.push(label);
    expect.fail(
      [
        `${label} failed. Replay: ${replay}`,
        `problems:\n  ${sequence.problems.join('\n  ')}`,
        `actions: ${actions.map(describeAction).join(', ')}`,
        `log:\n  ${sequence.log.join('\n  ')}`,
        `writes:\n  ${sequence.writes.map((w) => `#${w.n} ${w.kind} ${w.docId.slice(0, 8)} key ${w.key?.slice(0, 8)} ${net.acked.has(w.key ?? '') ? 'acked' : 'not acked'} "${w.text ?? ''}"`).join('\n  ')}`,
        `wire:\n  ${net.trace.slice(traceFrom).join('\n  ')}`,
      ].join('\n'),
    );
  }
}

/** Sequences that found a bug (or that the generator draws too rarely), kept word for word. */
const NAMED_SEQUENCES: readonly { readonly name: string; readonly actions: readonly Action[] }[] = [
  {
    // An edit conflict: both versions on the device while the change waits (its own words, the
    // other device's parked); once online the server refuses it (412), both versions stay, and the
    // young person chooses.
    name: 'an edit made offline while the other device edits the same entry',
    actions: [
      { kind: 'write' },
      { kind: 'drain' },
      { kind: 'offline' },
      { kind: 'edit', pick: 0 },
      { kind: 'other-edit', pick: 0 },
      { kind: 'pull' },
      { kind: 'wait', ms: 60 },
      { kind: 'online' },
    ],
  },
  {
    // Found under load (the generator's first draw of seed 20260612, before it learnt `drain` and `staff-pause`): see the regressions below.
    name: 'a create answered after a reload settles while a pull brings the other device’s newer edit',
    actions: [
      { kind: 'write' },
      { kind: 'edit', pick: 0 },
      { kind: 'reload', whileSending: false },
      { kind: 'edit', pick: 4 },
      { kind: 'wait', ms: 15 },
      { kind: 'online' },
      { kind: 'fault', fault: '401', phase: 'after', times: 2 },
      { kind: 'other-edit', pick: 4 },
      { kind: 'fault', fault: 'restart', phase: 'after', times: 1 },
      { kind: 'write' },
    ],
  },
  {
    // Found under load (an earlier draw of seed 725221273; three other sequences failed the same way): see the regressions below.
    name: 'edits right after a new entry was delivered, one of them offline',
    actions: [
      { kind: 'write' },
      { kind: 'edit', pick: 5 },
      { kind: 'wait', ms: 15 },
      { kind: 'edit', pick: 6 },
      { kind: 'offline' },
      { kind: 'edit', pick: 1 },
    ],
  },
  {
    // Found under load (an earlier draw of seed 1513996431): see the regressions below.
    name: 'an edit while a swap and a new entry are being delivered, then the server goes down',
    actions: [
      { kind: 'write' },
      { kind: 'exchange' },
      { kind: 'edit', pick: 3 },
      { kind: 'online' },
      { kind: 'server-down' },
      { kind: 'comment', pick: 4 },
      { kind: 'write' },
    ],
  },
  {
    // Found under load (an earlier draw of seed -251604702): see the regressions below.
    name: 'the other device edits a new entry whose create is still settling, with a restart mid-flight',
    actions: [
      { kind: 'write' },
      { kind: 'restart' },
      { kind: 'write' },
      { kind: 'exchange' },
      { kind: 'edit', pick: 4 },
      { kind: 'fault', fault: 'restart', phase: 'after', times: 1 },
      { kind: 'write' },
      { kind: 'pull' },
      { kind: 'other-edit', pick: 4 },
      { kind: 'pull' },
    ],
  },
  {
    name: 'closed while a new entry was being sent, reopened offline later, the entry edited, then online',
    actions: [
      { kind: 'write' },
      { kind: 'close-reopen', whileSending: true, offline: true, minutes: 5 },
      { kind: 'edit', pick: 0 },
      { kind: 'online' },
    ],
  },
];

/**
 * Runs `race` once, right after the `nth` read of journal entry `id` (counted from now) and before
 * whoever read it writes what it decided: the moment a pull can slip into under load.
 */
function betweenReadAndWrite(id: string, nth: number, race: (findOne: (id: string) => ReturnType<typeof open.db.journal.findOne>) => Promise<void>) {
  const collection = open.db.journal;
  const findOne = collection.findOne.bind(collection);
  let seen = 0;
  let ran = false;
  let racing = false;
  collection.findOne = ((query: string) => {
    const rxQuery = findOne(query);
    if (racing || ran || query !== id) return rxQuery;
    seen += 1;
    if (seen !== nth) return rxQuery;
    return {
      exec: async () => {
        const doc = await rxQuery.exec();
        racing = true;
        try {
          await race(findOne);
        } finally {
          racing = false;
          ran = true;
        }
        return doc;
      },
    };
  }) as unknown as typeof collection.findOne;
  return { ran: () => ran, restore: () => void delete (collection as unknown as Record<string, unknown>).findOne };
}

describe('regressions found by the chaos suite', () => {
  NAMED_SEQUENCES.forEach(({ name, actions }, index) => {
    it(`sequence: ${name}`, async () => {
      await runSequence(name, `chaos-named-${index}-${Date.now().toString(36)}`, actions, `npx vitest run tests/data/chaos.test.ts -t "${name}"`, index);
    }, SEQUENCE_TIMEOUT_MS);
  });

  /**
   * The device creates an entry offline; online, the server takes it, and before the outbox hears
   * of it the other device changes the entry. While the outbox settles the create, a pull brings
   * the other device's words. Found by the suite's first run under load: the device showed its own
   * older words as synced for good (the pull's checkpoint was past the newer row), while the server
   * had the other device's. The pull parks the newer copy `nth` 1: between settle.ts's read of the
   * entry and the settle (its files moved meanwhile); 2: between the read and the one write that
   * marks the entry synced with the answer (local-writes.ts setSyncState).
   */
  for (const [nth, moment] of [
    [1, 'after the outcome read the entry, before it is settled'],
    [2, 'while the entry is marked synced'],
  ] as const) {
    it(`a pull that brings the other device's newer words ${moment} is kept, not replaced by the older answer`, async () => {
      const tag = `chaos-regression-${nth}-${Date.now().toString(36)}`;
      online = false;
      net.online = false;
      const created = await saveEntry('journal', { description: `${tag} mine` });
      expect(created.ok).toBe(true);
      const id = created.ok ? created.id : '';
      const theirs = `${tag} theirs`;
      let race: ReturnType<typeof betweenReadAndWrite> | null = null;
      net.afterAnswer = async (request, response) => {
        if (response.status !== 201 || request.headers['Idempotency-Key'] !== id) return;
        net.afterAnswer = null;
        expect((await other.post(`${JOURNAL}/${id}?_method=PUT`, { description: theirs })).status).toBe(200);
        race = betweenReadAndWrite(id, nth, async (findOne) => {
          const landed = async () => {
            const doc = (await findOne(id).exec())?.toJSON() as JournalDoc | undefined;
            return (doc?.sync_server as { description?: string } | null | undefined)?.description === theirs;
          };
          getReplication()!.reSync(['journal']);
          await eventually(landed, 15_000, 'the pull of the other device’s words');
        });
      };
      try {
        online = true;
        net.online = true;
        flushOutbox();
        await eventually(() => race?.ran() ?? false, 20_000, 'the settle with the pull in between');
        await eventually(async () => (await journalDoc(id))?.sync_state === 'synced', 15_000, 'the settled entry');
        // A later pull cannot repair it (its checkpoint is past the newer row): what the device shows now is final.
        getReplication()!.reSync(['journal']);
        await getReplication()!.awaitInSync();
        await sleep(300);
        const doc = await journalDoc(id);
        expect({ description: doc?.description, state: doc?.sync_state, parked: doc?.sync_server ?? null }).toEqual({ description: theirs, state: 'synced', parked: null });
      } finally {
        net.afterAnswer = null;
        (race as ReturnType<typeof betweenReadAndWrite> | null)?.restore();
      }
    });
  }

  /**
   * Found by one sequence in a run of 200 under load: the pull brought
   * the other device's words for an entry whose create had just been delivered, and the outbox
   * settled the create between RxDB's read of the entry and its write of the pulled copy. RxDB
   * wrote with the revision it had read, the storage refused it as a conflict, a pull-only
   * replication ignores that, and the checkpoint moved past the row: the device kept its own older
   * words for good, and its next edit would have overwritten the other device's on the server.
   */
  it('a pulled copy refused because the outbox settled the entry in between still arrives', async () => {
    const tag = `chaos-regression-dropped-${Date.now().toString(36)}`;
    online = false;
    net.online = false;
    const created = await saveEntry('journal', { description: `${tag} mine` });
    expect(created.ok).toBe(true);
    const id = created.ok ? created.id : '';
    const theirs = `${tag} theirs`;
    // The outcome of the create waits until the pull is about to write.
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    configureOutbox({
      sink: {
        async setSyncState(local, sync, result) {
          if (local.id === id) await gate;
          return replicaOutcomeSink.setSyncState(local, sync, result);
        },
        requestResync: (topics) => replicaOutcomeSink.requestResync(topics),
      },
    });
    const instance = open.db.journal.storageInstance as unknown as { bulkWrite: (rows: { document: { id: string } }[], context: string) => Promise<unknown> };
    const original = instance.bulkWrite;
    const bulkWrite = original.bind(instance);
    let raced = false;
    instance.bulkWrite = async (rows, context) => {
      if (!raced && context.startsWith('replication-downstream-') && rows.some((r) => r.document.id === id)) {
        raced = true;
        release();
        await eventually(async () => (await journalDoc(id))?.sync_state === 'synced', 15_000, 'the settled create');
      }
      return bulkWrite(rows, context);
    };
    try {
      online = true;
      net.online = true;
      flushOutbox();
      await eventually(() => net.acked.has(id), 15_000, 'the delivered create');
      expect((await other.post(`${JOURNAL}/${id}?_method=PUT`, { description: theirs })).status).toBe(200);
      getReplication()!.reSync(['journal']);
      await eventually(() => raced, 15_000, 'the pull of the other device’s words');
      expect(await settleOn(async () => (await journalDoc(id))?.description === theirs, ['journal'])).toBe(true);
      expect(await journalDoc(id)).toMatchObject({ sync_state: 'synced', sync_server: null });
    } finally {
      release();
      instance.bulkWrite = original;
      configureOutbox({ sink: replicaOutcomeSink });
    }
  });

  /**
   * Found by four sequences in a run of 200 under load: marking a delivered create
   * synced and writing the server's row into it are two writes, and in between the entry is synced
   * but still `local_only`. An edit made then was taken for an edit of an entry the server does not
   * have yet: sent as the create again, which the server answers with the first row (a create sent
   * again changes nothing), so the edit's words were lost on both sides. A second edit behind it
   * (offline) withdrew the first and did the same.
   */
  it('edits made while a delivered create is being settled are never sent as a second create, and the words kept are the last ones taken', async () => {
    const tag = `chaos-regression-edit-${Date.now().toString(36)}`;
    // Reads of the entry are counted below: a pull left running by an earlier test must not add one.
    await getReplication()!.awaitInSync();
    online = false;
    net.online = false;
    const created = await saveEntry('journal', { description: `${tag} first` });
    expect(created.ok).toBe(true);
    const id = created.ok ? created.id : '';
    let race: ReturnType<typeof betweenReadAndWrite> | null = null;
    const edits: WriteResultLike[] = [];
    let between: Partial<JournalDoc> | null = null;
    net.afterAnswer = async (request, response) => {
      if (response.status !== 201 || request.headers['Idempotency-Key'] !== id) return;
      net.afterAnswer = null;
      // settle.ts reads the entry, then setSyncState reads it again and writes the server's row
      // (once: before, a first write marked it synced while still local_only, the moment the chaos found).
      race = betweenReadAndWrite(id, 2, async (findOne) => {
        const doc = (await findOne(id).exec())?.toJSON() as JournalDoc | undefined;
        between = { sync_state: doc?.sync_state, local_only: doc?.local_only };
        online = false;
        net.online = false;
        edits.push(await saveEntry('journal', { description: `${tag} second` }, { id }));
      });
    };
    try {
      online = true;
      net.online = true;
      flushOutbox();
      await eventually(() => race?.ran() ?? false, 20_000, 'the settle with an edit in between');
      // The create is on the server but its answer not yet written: the edit is refused, not queued as a second create.
      expect(between).toEqual({ sync_state: 'pending', local_only: true });
      expect(edits).toEqual([expect.objectContaining({ ok: false, message: STILL_SENDING })]);
      await eventually(async () => (await journalDoc(id))?.local_only === false, 20_000, 'the create settled');
      expect(await saveEntry('journal', { description: `${tag} third` }, { id })).toMatchObject({ ok: true });
      online = true;
      net.online = true;
      flushOutboxNowOnline();
      await eventually(async () => (await journalDoc(id))?.sync_state === 'synced' && (await allRecords(outboxStore)).every((r) => r.state !== 'pending' && r.state !== 'held'), 20_000, 'the edit delivered');
      const rows = await sync.server.db.selectFrom('journal_entries').select(['id', 'description']).where('description', 'like', `${tag}%`).execute();
      expect(rows).toEqual([{ id, description: `${tag} third` }]);
      expect(await settleOn(async () => (await journalDoc(id))?.description === `${tag} third`, ['journal'])).toBe(true);
    } finally {
      net.afterAnswer = null;
      (race as ReturnType<typeof betweenReadAndWrite> | null)?.restore();
    }
  });
});

describe.skipIf(SEQUENCES === 0)(`chaos at the data layer (seed ${BASE_SEED}, ${SEQUENCES} sequences)`, () => {
  for (let index = 0; index < SEQUENCES; index += 1) {
    const seed = sequenceSeed(BASE_SEED, index);
    const label = `sequence ${index} (CHAOS_SEED=${seed})`;
    it(label, async () => {
      await runSequence(label, `chaos-${(seed >>> 0).toString(36)}-${index}`, actionsFor(seed), `CHAOS_SEED=${seed} CHAOS_SEQUENCES=1 npx vitest run tests/data/chaos.test.ts`, seed >>> 0);
    }, SEQUENCE_TIMEOUT_MS);
  }
});
