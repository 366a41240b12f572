/**
 * What each collection replicates from: the endpoint, its fixed parameters and the row → document
 * mapping. Topics are the server's change-event names (src/contract/sync.ts SYNC_TOPICS).
 */
import { calendarPageSchema, type CalendarInstance, eventTypesPageSchema, type EventType } from '@/contract/calendar';
import { commentSchema, type Comment } from '@/contract/comments';
import {
  emojisPageSchema,
  journalPageSchema,
  voiceCategoriesPageSchema,
  voicePageSchema,
  type Emoji,
  type JournalEntry,
  type VoiceCategory,
  type VoiceEntry,
} from '@/contract/entries';
import type { EntryKind } from '@/contract/entry-kind';
import { feedbackPageSchema, type FeedbackItem } from '@/contract/feedback';
import { entryPaths, paths } from '@/contract/paths';
import { pushUrls } from '@/contract/push';
import { associatedUsersPageSchema, residentDetailsResponseSchema, type AssociatedUser, type ResidentDetails } from '@/contract/residents';
import { rosterPageSchema, type RosterItem } from '@/contract/rota';
import { formSchema, type Form } from '@/contract/forms';
import { pageSchema, type SyncTopic } from '@/contract/sync';
import { pointsPageSchema, taskLogPageSchema, type PointsEntry, type TaskComment, type TaskLog, type TaskLogStatus } from '@/contract/tasks';
import { rewardExchangePageSchema, rewardPageSchema, type Reward, type RewardExchange } from '@/contract/rewards';
import { documentPageSchema, type Document } from '@/contract/documents';
import { keepDocuments } from '../documents/keeper';
import type { OpenReplica } from '../replica/replica-store';
import { rewardLookupOf } from '../replica/rewards';
import { pruneTaskOverlays } from '../replica/task-overlays';
import { SHORT_ROWS_PER_PAGE } from './page-sizes';
import type { PullConfig } from './pull';
import { sweepCachedFiles } from './file-sweep';
import { cacheRewardPictures } from './reward-pictures';

/** After a pull of rows that name cached files: those no row names any more leave (./file-sweep.ts). */
const sweepFiles = (open: OpenReplica): Promise<void> => sweepCachedFiles(open);

/** A replication the controller runs, with the server topics that trigger its re-sync. */
export interface Replicated {
  readonly key: string;
  readonly topics: readonly SyncTopic[];
  readonly config: PullConfig;
  /** Runs each time it has written what it pulled and is idle again (tidying what depends on it). */
  readonly afterPull?: (open: OpenReplica) => Promise<void>;
  /**
   * A replication that runs only while a screen shows (a comment thread): that screen's path, as a
   * push names it (src/contract/push.ts pushUrls). The service worker pulls it ahead only for a
   * push that opens that screen (../prefetch/store.ts).
   */
  readonly screen?: string;
}

function strip<T extends { deleted_at: unknown }>(row: T): Omit<T, 'deleted_at'> {
  const { deleted_at: _deleted, ...rest } = row;
  return rest;
}

/** The young person's record as a replica document (without sync fields): pulled, or a write's answer. */
export const residentDocOf = (row: ResidentDetails): Record<string, unknown> & { id: string } => ({ ...strip(row), kind: 'details' });

export function residentReplication(residentId: string): Replicated {
  const config: PullConfig<ResidentDetails> = {
    kind: 'single',
    collection: 'resident',
    identifier: `resident:${residentId}`,
    path: paths.resident.build(residentId),
    schema: residentDetailsResponseSchema,
    toDoc: residentDocOf,
  };
  return { key: 'resident', topics: ['resident', 'settings'], config: config as unknown as PullConfig };
}

export function staffReplication(residentId: string): Replicated {
  const config: PullConfig<AssociatedUser> = {
    kind: 'pages',
    collection: 'staff',
    identifier: `staff:${residentId}`,
    perPage: SHORT_ROWS_PER_PAGE,
    path: paths.associatedUsers.build(residentId),
    schema: associatedUsersPageSchema,
    toDoc: strip,
  };
  // A member of staff who left names no photo any more: the sweep lets theirs go (./photo-names.ts).
  return { key: 'staff', topics: ['associated_users'], config: config as unknown as PullConfig, afterPull: sweepFiles };
}

/** Today's roster of one home; a new day is a new replication (its own checkpoint). */
export function rotaReplication(homeId: string, date: string): Replicated {
  const config: PullConfig<RosterItem> = {
    kind: 'pages',
    collection: 'rota',
    identifier: `rota:${homeId}:${date}`,
    path: paths.staffRoster.build(),
    schema: rosterPageSchema,
    query: { params: { date, parent_project_ids: [homeId], with: ['user'] } },
    toDoc: strip,
  };
  return { key: 'rota', topics: ['rota'], config: config as unknown as PullConfig, afterPull: sweepFiles };
}

/** Every instance, past and future: the calendar pages through the local copy. */
export function calendarReplication(residentId: string): Replicated {
  const config: PullConfig<CalendarInstance> = {
    kind: 'pages',
    collection: 'calendar',
    identifier: `calendar:${residentId}`,
    perPage: SHORT_ROWS_PER_PAGE,
    path: paths.calendarInstances.build(residentId),
    schema: calendarPageSchema,
    toDoc: (row) => ({ ...strip(row), sort_key: `${row.start_date}T${row.start_time ?? '00:00'}` }),
  };
  return { key: 'calendar', topics: ['calendar'], config: config as unknown as PullConfig };
}

export function eventTypesReplication(): Replicated {
  const config: PullConfig<EventType> = {
    kind: 'pages',
    collection: 'lookups',
    identifier: 'lookups:event_types',
    path: paths.eventTypes.build(),
    schema: eventTypesPageSchema,
    toDoc: (row) => ({ id: row.id, kind: 'event_type', updated_at: row.updated_at, name: row.name, data: null }),
  };
  return { key: 'event_types', topics: ['event_types'], config: config as unknown as PullConfig };
}

/**
 * All feedback threads, unfiltered: a thread that becomes locked or answered must reach the
 * replica as an update, which a server-side `locked_at null` / `awaiting` filter would hide from
 * a checkpoint pull. The hooks filter and sort locally (SPEC §4).
 */
export function feedbackReplication(): Replicated {
  const config: PullConfig<FeedbackItem> = {
    kind: 'pages',
    collection: 'feedback',
    identifier: 'feedback',
    path: paths.feedback.build(),
    schema: feedbackPageSchema,
    query: { relations: ['entry', 'latest_comment', 'category'] },
    toDoc: strip,
  };
  return { key: 'feedback', topics: ['feedback', 'journal', 'voice'], config: config as unknown as PullConfig };
}

/** Server rows → replica documents (without sync fields), shared with src/entries/data/server-copy.ts. */
export const journalDocOf = (row: JournalEntry): Record<string, unknown> => ({
  ...strip(row),
  sort_key: `${row.entry_date}T${row.entry_time}`,
  local_only: false,
});
export const voiceDocOf = (row: VoiceEntry): Record<string, unknown> => ({ ...strip(row), sort_key: row.created_at, local_only: false });
export const commentDocOf = (entryType: EntryKind, row: Comment): Record<string, unknown> => ({
  ...strip(row),
  entry_type: entryType,
  local_only: false,
});

/** What staff or the server change on an entry, never the young person (see PullConfig.serverFields). */
const ENTRY_SERVER_FIELDS = ['locked_at', 'comments_count'] as const;

/** Journal entries: sort key `entry_date` + `T` + `entry_time` (newest first in the hooks). */
export function journalReplication(): Replicated {
  const config: PullConfig<JournalEntry> = {
    kind: 'pages',
    collection: 'journal',
    identifier: 'journal',
    path: entryPaths.journal.entries.build(),
    schema: journalPageSchema,
    query: { relations: ['files', 'creator'] },
    toDoc: journalDocOf,
    serverFields: ENTRY_SERVER_FIELDS,
  };
  return { key: 'journal', topics: ['journal'], config: config as unknown as PullConfig, afterPull: sweepFiles };
}

/** Voice entries: sort key `created_at`. */
export function voiceReplication(): Replicated {
  const config: PullConfig<VoiceEntry> = {
    kind: 'pages',
    collection: 'voice',
    identifier: 'voice',
    path: entryPaths.voice.entries.build(),
    schema: voicePageSchema,
    query: { relations: ['files', 'creator'] },
    toDoc: voiceDocOf,
    serverFields: ENTRY_SERVER_FIELDS,
  };
  return { key: 'voice', topics: ['voice'], config: config as unknown as PullConfig, afterPull: sweepFiles };
}

export function voiceCategoriesReplication(): Replicated {
  const config: PullConfig<VoiceCategory> = {
    kind: 'pages',
    collection: 'lookups',
    identifier: 'lookups:voice_categories',
    path: paths.voiceCategories.build(),
    schema: voiceCategoriesPageSchema,
    toDoc: (row) => ({ id: row.id, kind: 'voice_category', updated_at: row.updated_at, name: row.name, data: { description: row.description } }),
  };
  return { key: 'voice_categories', topics: ['voice'], config: config as unknown as PullConfig };
}

export function emojisReplication(): Replicated {
  const config: PullConfig<Emoji> = {
    kind: 'pages',
    collection: 'lookups',
    // ':2' since emojis carry their position: a new identifier starts from an empty checkpoint, so a
    // replica that pulled them before gets them again, positions included.
    identifier: 'lookups:emojis:2',
    path: paths.emojis.build(),
    schema: emojisPageSchema,
    toDoc: (row) => ({ id: row.id, kind: 'emoji', updated_at: row.updated_at, name: row.name, data: { emoji: row.emoji, position: row.position } }),
  };
  return { key: 'emojis', topics: [], config: config as unknown as PullConfig };
}

const commentsPageSchema = pageSchema(commentSchema);

/**
 * The comments of one entry (the server lists them per entry): started while the entry's thread
 * is open (useComments), or until its first pull has ended for the newest threads (./threads-ahead.ts);
 * re-pulled on `journal`/`voice`/`feedback` change events while it runs.
 */
export function commentsReplication(entryType: EntryKind, entryId: string): Replicated {
  const config: PullConfig<Comment> = {
    kind: 'pages',
    collection: 'comments',
    identifier: `comments:${entryType}:${entryId}`,
    path: entryPaths[entryType].entryComments.build(entryId),
    schema: commentsPageSchema,
    query: { relations: ['creator', 'files'] },
    toDoc: (row) => commentDocOf(entryType, row),
  };
  return {
    key: `comments:${entryType}:${entryId}`,
    topics: [entryType, 'feedback'],
    config: config as unknown as PullConfig,
    screen: pushUrls.entryThread(entryType, entryId),
    afterPull: sweepFiles,
  };
}

/** A task log as the `tasks` collection stores it (kind `log`; newest task date first by `sort_key`). */
export const taskLogDocOf = (row: TaskLog): Record<string, unknown> => ({
  ...strip(row),
  kind: 'log',
  task_log_id: row.id,
  sort_key: `${row.task.task_date}T${row.created_at}`,
  local_only: false,
});

/** A comment of a task log as this device's overlay document (kind `comment`), without sync fields. */
export const taskCommentOverlayOf = (row: TaskComment, localOnly = false): Record<string, unknown> => ({
  ...strip(row),
  kind: 'comment',
  status: '',
  sort_key: row.created_at,
  local_only: localOnly,
});

/** Which list each objectives tab replicates from (SPEC §4: current 0, completed 1). */
export const TASK_TAB_PATHS = {
  current: paths.tasksIncomplete,
  completed: paths.tasksComplete,
} as const satisfies Record<TaskLogStatus, unknown>;

/** The replication key of a tab's list (the fetch-failed messages of SPEC §8 are per tab). */
export const taskTabKey = (status: TaskLogStatus): string => `tasks:${status}`;

/**
 * The task logs of one tab, both into `tasks`. A log that completes leaves `incomplete` without a
 * tombstone and arrives through `complete` with its new status; the collection refuses an older
 * copy over a newer one (keepNewest in ../replica/collections.ts), whichever list brings it.
 */
export function tasksReplication(residentId: string, status: TaskLogStatus): Replicated {
  const config: PullConfig<TaskLog> = {
    kind: 'pages',
    collection: 'tasks',
    identifier: `${taskTabKey(status)}:${residentId}`,
    path: TASK_TAB_PATHS[status].build(residentId),
    schema: taskLogPageSchema,
    query: { relations: ['comments.creator', 'comments.files'] },
    toDoc: taskLogDocOf,
  };
  return {
    key: taskTabKey(status),
    topics: ['tasks'],
    config: config as unknown as PullConfig,
    afterPull: async (open) => {
      await pruneTaskOverlays(open.db);
      await sweepFiles(open);
    },
  };
}

/** The points ledger (append-only; an entry never changes). */
export function pointsReplication(residentId: string): Replicated {
  const config: PullConfig<PointsEntry> = {
    kind: 'pages',
    collection: 'points',
    identifier: `points:${residentId}`,
    perPage: SHORT_ROWS_PER_PAGE,
    path: paths.residentPoints.build(residentId),
    schema: pointsPageSchema,
    toDoc: (row) => ({
      id: row.id,
      kind: 'ledger',
      updated_at: row.updated_at,
      sort_key: row.created_at,
      delta: row.delta,
      reason: row.reason,
      source_id: row.source_id,
      created_at: row.created_at,
    }),
  };
  return { key: 'points', topics: ['points'], config: config as unknown as PullConfig, afterPull: (open) => pruneTaskOverlays(open.db) };
}

const formsPageSchema = pageSchema(formSchema);

/** Form names (the related-forms answers name them), kept in `lookups` as kind `form`. */
export function formsReplication(): Replicated {
  const config: PullConfig<Form> = {
    kind: 'pages',
    collection: 'lookups',
    identifier: 'lookups:forms',
    path: paths.forms.build(),
    schema: formsPageSchema,
    toDoc: (row) => ({ id: row.id, kind: 'form', updated_at: row.updated_at, name: row.name, data: { description: row.description } }),
  };
  return { key: 'forms', topics: ['tasks'], config: config as unknown as PullConfig };
}

/** The pictures the catalogue and the history name are cached; those of rewards gone leave. */
async function cachePicturesAndSweep(open: OpenReplica): Promise<void> {
  await cacheRewardPictures(open.db);
  await sweepFiles(open);
}

/**
 * The catalogue of the young person's home (issue 10), in `lookups` as kind `reward`. A paused or
 * withdrawn reward arrives as a tombstone and leaves the replica; switched on again, it comes back.
 * After each pull the pictures it names are cached for offline use, and those it no longer names go.
 */
export function rewardsReplication(residentId: string): Replicated {
  const config: PullConfig<Reward> = {
    kind: 'pages',
    collection: 'lookups',
    identifier: `lookups:rewards:${residentId}`,
    path: paths.rewards.build(),
    schema: rewardPageSchema,
    query: { relations: ['image'], params: { resident_id: residentId } },
    toDoc: rewardLookupOf,
  };
  return { key: 'rewards', topics: ['rewards'], config: config as unknown as PullConfig, afterPull: cachePicturesAndSweep };
}

/** A pulled exchange as the `points` collection stores it (kind `exchange`), without sync fields. */
export const rewardExchangeDocOf = (row: RewardExchange): Record<string, unknown> => ({
  ...strip(row),
  kind: 'exchange',
  sort_key: row.created_at,
  local_only: false,
});

/**
 * The young person's reward history (SPEC §3 "Reward history item"), in `points` as kind
 * `exchange`, beside the ledger: made, approved or denied (a decision moves `updated_at`).
 */
export function rewardHistoryReplication(residentId: string): Replicated {
  const config: PullConfig<RewardExchange> = {
    kind: 'pages',
    collection: 'points',
    identifier: `reward_history:${residentId}`,
    perPage: SHORT_ROWS_PER_PAGE,
    path: paths.rewardsHistory.build(residentId),
    schema: rewardExchangePageSchema,
    toDoc: rewardExchangeDocOf,
  };
  return { key: 'reward_history', topics: ['reward_history'], config: config as unknown as PullConfig, afterPull: cachePicturesAndSweep };
}

/**
 * The documents shared with the young person and with their home (issue 11), each row as the server
 * sends it (their own form submission included), in `documents`. A withdrawn document, or one they
 * can no longer read, arrives as a tombstone and leaves the replica. After each pull the keeper
 * (../documents/keeper.ts) makes the device hold the files of the documents it keeps, and drops the
 * bytes and state of documents that are gone.
 */
export function documentsReplication(): Replicated {
  const config: PullConfig<Document> = {
    kind: 'pages',
    collection: 'documents',
    identifier: 'documents',
    path: paths.documents.build(),
    schema: documentPageSchema,
    toDoc: strip,
  };
  return { key: 'documents', topics: ['documents'], config: config as unknown as PullConfig, afterPull: (open) => keepDocuments(open) };
}
