/**
 * The names the server uses for what changed (change events and push messages); the client maps
 * them to its replications. Without zod, so the service worker can check a push's `collections`
 * without loading zod (src/contract/sync.ts re-exports these for everyone else).
 */
export const SYNC_TOPICS = [
  'resident',
  'associated_users',
  'rota',
  'calendar',
  'event_types',
  'feedback',
  'journal',
  'voice',
  'settings',
  /** Objectives: task logs (both tabs), their comments (issue 9). */
  'tasks',
  /** The points ledger; the resident's reward_points moves with it. */
  'points',
  /** The rewards catalogue of the young person's home (issue 10). */
  'rewards',
  /** The young person's reward exchanges (history; issue 10). */
  'reward_history',
  /** Documents staff share, and the young person's form submissions (issue 11). */
  'documents',
] as const;
export type SyncTopic = (typeof SYNC_TOPICS)[number];

const known: ReadonlySet<string> = new Set(SYNC_TOPICS);
export const isSyncTopic = (value: unknown): value is SyncTopic => typeof value === 'string' && known.has(value);

/**
 * The BroadcastChannel on which the service worker (a push) and other tabs ask the replicating tab
 * to re-pull `{ topics?: SyncTopic[] }` (none: everything). src/data/replication/resync.ts listens.
 */
export const RESYNC_CHANNEL = 'hearth-resync';
