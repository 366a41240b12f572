/**
 * Outcome handling: what the page does with what a replay left in the queue (sent, failed), in
 * whichever context the replay ran (this page, another tab, the service worker). The outbox knows
 * nothing of the replica: the composition root (src/app/start-data.ts) hands it a sink built with
 * `createOutcomeSink`, and until then outcomes simply wait in the queue.
 */
import type { SyncTopic } from '@/contract/sync';
import type { DataKey } from '../crypto/key-vault';
import { markApplied, pendingOutcomes } from './queue';
import type { OutboxStoreOptions } from './store';
import type { LocalRef, OutboxResult } from './types';

export interface SyncStateValue {
  state: 'synced' | 'pending' | 'failed';
  message: string | null;
  outbox_id: string | null;
}

/** Where outcomes land: the replica (wired by the composition root) or a test double. */
export interface OutcomeSink {
  /**
   * `result`: for a delivered write, what the server answered: the replica turns the optimistic
   * document into the server's copy (settleDelivered in the entries module; a create answered under
   * another id, queued by an older build, is swapped for it). Applying it twice changes nothing.
   */
  setSyncState(local: LocalRef, sync: SyncStateValue, result?: OutboxResult | null): Promise<void>;
  requestResync(topics: readonly SyncTopic[]): void;
}

/** The replica's side, as the composition root supplies it. */
export interface OutcomeParts {
  /** A delivered write (2xx) with the server's answer: the optimistic document becomes the server's copy. */
  settleDelivered(local: LocalRef, sync: SyncStateValue, result: OutboxResult): Promise<void>;
  /**
   * Anything else (a 422 or other refusal → failed; a delivered write without an answer → synced).
   * A refusal's field errors come as `result.errors` when the server sent any.
   */
  setSyncState(local: LocalRef, sync: SyncStateValue, result?: OutboxResult | null): Promise<void>;
  /** After deliveries: pull these topics again (all when empty). */
  requestResync(topics?: readonly SyncTopic[]): void;
}

export function createOutcomeSink(parts: OutcomeParts): OutcomeSink {
  return {
    async setSyncState(local, sync, result) {
      if (sync.state === 'synced' && result) {
        await parts.settleDelivered(local, sync, result);
        return;
      }
      await parts.setSyncState(local, sync, result);
    },
    requestResync(topics) {
      parts.requestResync(topics.length ? topics : undefined);
    },
  };
}

/** Before the composition root wires the replica: outcomes stay in the queue, unapplied. */
export const unwiredSink: OutcomeSink = {
  setSyncState: () => Promise.reject(new Error('The outbox has no outcome sink yet (startData was not called)')),
  requestResync: () => undefined,
};

export interface ApplyOptions extends OutboxStoreOptions {
  getKey(): Promise<DataKey>;
  readonly sink: OutcomeSink;
}

/**
 * Applies every unapplied outcome once: a failed write marks its document failed with the
 * message; a sent one marks it synced (unless a later change to the same document is still on its
 * way) and asks for a re-sync of its topics. An outcome the sink cannot take yet (the replica is
 * not open) stays for the next run.
 */
export async function applyPendingOutcomes(options: ApplyOptions): Promise<void> {
  let key: DataKey;
  let found: Awaited<ReturnType<typeof pendingOutcomes>>;
  try {
    key = await options.getKey();
    found = await pendingOutcomes(options, key);
  } catch {
    return; // no IndexedDB or no key here: nothing to apply
  }
  const { outcomes, waitingDocs } = found;
  const topics = new Set<SyncTopic>();
  for (const outcome of outcomes) {
    const local = outcome.meta?.local ? { ...outcome.meta.local, outboxId: outcome.id } : null;
    try {
      if (local) {
        if (outcome.state === 'failed') {
          await options.sink.setSyncState(local, { state: 'failed', message: outcome.message, outbox_id: outcome.id }, outcome.result);
        } else if (!waitingDocs.has(`${local.collection}/${local.id}`)) {
          // A later change to the same document is still on its way: that one says when it is synced.
          await options.sink.setSyncState(local, { state: 'synced', message: null, outbox_id: null }, outcome.result);
        }
      }
      if (outcome.state === 'sent') for (const topic of outcome.meta?.topics ?? []) topics.add(topic);
      await markApplied(options, outcome);
    } catch {
      // The replica is not open yet: the next change or start applies it.
    }
  }
  if (topics.size) options.sink.requestResync([...topics]);
}
