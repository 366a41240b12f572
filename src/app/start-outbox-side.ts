/**
 * The outbox's side of the composition root (src/app/start-data.ts loads this module once someone
 * is signed in: at a start with a stored session, or at sign-in; the login screen never loads it).
 * The outbox belongs to the signed-in person, and its code (queue, sealing, replay, the key vault)
 * stays out of the entry chunk (issue 13).
 */
import { configureOutbox, getOutboxConfig } from '@/data/outbox/outbox';
import { createOutcomeSink, type OutcomeSink } from '@/data/outbox/outcomes';
import { startOutbox } from '@/data/outbox/start-outbox';
import { setSyncState } from '@/data/replica/local-writes';
import { requestResync } from '@/data/replication/resync';
import { startNeverQueuedSweep } from '@/data/unsent-on-device';

/**
 * What the outbox does to the replica after a replay. The one place that knows the settle code of
 * each kind of write: objectives' comments and reviews (`tasks`) settle with the objectives
 * feature's code, reward swaps (`points`, kind exchange) with the rewards feature's, a form
 * document's answers (`documents`, delivered or refused) with the documents feature's, the young
 * person's record (`resident`) with the server's answer (src/data/replica/settle-resident.ts),
 * everything else with the entries module's.
 */
export const replicaOutcomeSink: OutcomeSink = createOutcomeSink({
  // Loaded on demand: the settle code carries the contract's zod schemas.
  settleDelivered: async (local, sync, result) => {
    if (local.collection === 'tasks') return (await import('@/features/objectives/actions/settle-task-comment')).settleTaskComment(local, sync, result);
    if (local.collection === 'points') return (await import('@/features/rewards/actions/settle-exchange')).settleExchange(local, sync, result);
    if (local.collection === 'documents') return (await import('@/features/documents/actions/settle-submission')).settleSubmission(local, sync, result);
    if (local.collection === 'resident') return (await import('@/data/replica/settle-resident')).settleResident(local, sync, result);
    return (await import('@/entries/data/settle')).settleDelivered(local, sync, result);
  },
  setSyncState: async (local, sync, result) => {
    // A form document's refused answers keep the server's field errors (shown beside the questions).
    if (local.collection === 'documents') return (await import('@/features/documents/actions/settle-submission')).settleSubmission(local, sync, result);
    // An entry's edit conflict keeps the other device's version beside the young person's (issue 12).
    if ((local.collection === 'journal' || local.collection === 'voice') && result) return (await import('@/entries/data/settle-refused')).settleRefused(local, sync, result);
    return setSyncState(local.collection, local.id, sync, { outboxId: local.outboxId });
  },
  requestResync: (topics) => requestResync(topics),
});

/**
 * Wires the replica sink into the outbox and (unless `outbox` is false) the page's side of the
 * outbox: replay on start, online, visible, a heartbeat, the worker's messages, and the sweep for
 * changes whose write never reached the queue (src/data/unsent-on-device.ts). Returns the undo
 * (the previous sink comes back).
 */
export function startOutboxSide(options: { readonly outbox: boolean }): () => void {
  const stops: (() => void)[] = [];
  const previousSink = getOutboxConfig().sink;
  configureOutbox({ sink: replicaOutcomeSink });
  stops.push(() => {
    if (getOutboxConfig().sink === replicaOutcomeSink) configureOutbox({ sink: previousSink });
  });
  if (options.outbox) {
    stops.push(startOutbox());
    // A change whose write never reached the queue (the page died in between) is shown as not sent.
    stops.push(startNeverQueuedSweep());
  }
  return () => {
    for (const undo of stops.reverse()) undo();
  };
}
