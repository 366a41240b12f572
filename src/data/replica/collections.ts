/**
 * The replica's collections (all 13 of RxDB open-core's 13; `documents`, issue 11, is the last one,
 * so a new kind of data must share a collection from now on). Small lookup lists share `lookups`:
 * event types, voice categories, emojis, form names; and
 * objectives use two: `tasks` (task logs and this device's own comment overlays, by `kind`) and
 * `points` (the points ledger and, since issue 10, the reward history, by `kind`); the rewards
 * catalogue is `lookups` kind `reward`).
 *
 * Drafts have no collection of their own: a form draft (a review being written) is a `files`
 * document of kind `draft` (`draft:<key>`, content_type application/json, `data` its JSON text),
 * encrypted like every file, kept across reloads and wiped with the replica at sign-out
 * (src/data/drafts.ts).
 *
 * Clear: only what queries, sorting and replication need (ids, updated_at, dates and times used as
 * sort keys, type, awaiting/locked state, kind, sync_state, outbox id). Encrypted: everything a
 * person wrote or that describes a person (names, titles, descriptions, comments, excerpts,
 * photos, dates of birth, settings, flags, points, the account).
 *
 * Version 0 everywhere; `migrationStrategies` is where version 1 goes (defineCollection insists).
 */
import { ENTRY_KINDS } from '@/contract/entry-kind';
import { defineCollection } from '../database/create-database';
import type {
  CalendarDoc,
  CommentDoc,
  DocumentsCollectionDoc,
  FeedbackDoc,
  FileDoc,
  JournalDoc,
  LookupDoc,
  PointsCollectionDoc,
  ResidentCollectionDoc,
  RosterDoc,
  StaffDoc,
  TasksCollectionDoc,
  VoiceDoc,
} from './types';

const id = { type: 'string', maxLength: 64 } as const;
const timestamp = { type: 'string', maxLength: 40 } as const;
const nullableString = { type: ['string', 'null'] } as const;
const looseObject = { type: 'object' } as const;
const nullableObject = { type: ['object', 'null'] } as const;

const syncProperties = {
  sync_state: { type: 'string', enum: ['synced', 'pending', 'failed'], maxLength: 8 },
  sync_message: nullableString,
  sync_outbox_id: { type: ['string', 'null'], maxLength: 64 },
  /** The server's copy that arrived while a local change was pending (encrypted). */
  sync_server: nullableObject,
} as const;
const syncRequired = ['sync_state', 'sync_message', 'sync_outbox_id'] as const;

export const residentCollection = defineCollection<ResidentCollectionDoc>()({
  schema: {
    title: 'resident',
    version: 0,
    primaryKey: 'id',
    type: 'object',
    properties: {
      id,
      kind: { type: 'string', enum: ['details', 'account'], maxLength: 8 },
      updated_at: timestamp,
      user_id: id,
      home_id: id,
      home: looseObject,
      first_name: { type: 'string' },
      last_name: { type: 'string' },
      preferred_name: nullableString,
      date_of_birth: nullableString,
      reward_points: { type: 'integer' },
      key_worker: nullableObject,
      app_settings: looseObject,
      journal_enabled: { type: 'integer' },
      voice_enabled: { type: 'integer' },
      rewards_enabled: { type: 'integer' },
      account: looseObject,
      ...syncProperties,
    },
    required: ['id', 'kind', 'updated_at', ...syncRequired],
  },
  encrypted: [
    'home',
    'first_name',
    'last_name',
    'preferred_name',
    'date_of_birth',
    'reward_points',
    'key_worker',
    'app_settings',
    'journal_enabled',
    'voice_enabled',
    'rewards_enabled',
    'account',
    'sync_message',
    'sync_server',
  ],
});

export const staffCollection = defineCollection<StaffDoc>()({
  schema: {
    title: 'staff',
    version: 0,
    primaryKey: 'id',
    type: 'object',
    properties: {
      id,
      updated_at: timestamp,
      first_name: { type: 'string' },
      last_name: { type: 'string' },
      job_title: nullableString,
      has_photo: { type: 'boolean' },
      ...syncProperties,
    },
    required: ['id', 'updated_at', 'first_name', 'last_name', 'job_title', 'has_photo', ...syncRequired],
  },
  encrypted: ['first_name', 'last_name', 'job_title', 'sync_message', 'sync_server'],
});

export const rotaCollection = defineCollection<RosterDoc>()({
  schema: {
    title: 'rota',
    version: 0,
    primaryKey: 'id',
    type: 'object',
    properties: {
      id,
      updated_at: timestamp,
      home_id: id,
      user_id: id,
      shift_date: { type: 'string', maxLength: 10 },
      starts_at: { type: 'string', maxLength: 5 },
      ends_at: { type: 'string', maxLength: 5 },
      user: looseObject,
      ...syncProperties,
    },
    required: ['id', 'updated_at', 'home_id', 'user_id', 'shift_date', 'starts_at', 'ends_at', 'user', ...syncRequired],
    indexes: [['shift_date', 'starts_at']],
  },
  encrypted: ['user', 'sync_message', 'sync_server'],
});

export const calendarCollection = defineCollection<CalendarDoc>()({
  schema: {
    title: 'calendar',
    version: 0,
    primaryKey: 'id',
    type: 'object',
    properties: {
      id,
      updated_at: timestamp,
      resident_id: id,
      start_date: { type: 'string', maxLength: 10 },
      start_time: { type: ['string', 'null'], maxLength: 5 },
      end_date: { type: 'string', maxLength: 10 },
      end_time: { type: ['string', 'null'], maxLength: 5 },
      sort_key: { type: 'string', maxLength: 16 },
      event: looseObject,
      ...syncProperties,
    },
    required: ['id', 'updated_at', 'resident_id', 'start_date', 'start_time', 'end_date', 'end_time', 'sort_key', 'event', ...syncRequired],
    indexes: ['sort_key', ['start_date', 'sort_key']],
  },
  encrypted: ['event', 'sync_message', 'sync_server'],
});

export const lookupsCollection = defineCollection<LookupDoc>()({
  schema: {
    title: 'lookups',
    version: 0,
    primaryKey: 'id',
    type: 'object',
    properties: {
      id,
      kind: { type: 'string', maxLength: 32 },
      updated_at: timestamp,
      name: { type: 'string' },
      data: nullableObject,
      ...syncProperties,
    },
    required: ['id', 'kind', 'updated_at', 'name', 'data', ...syncRequired],
    indexes: ['kind'],
  },
  encrypted: ['name', 'data', 'sync_message', 'sync_server'],
});

export const feedbackCollection = defineCollection<FeedbackDoc>()({
  schema: {
    title: 'feedback',
    version: 0,
    primaryKey: 'id',
    type: 'object',
    properties: {
      id,
      updated_at: timestamp,
      type: { type: 'string', enum: [...ENTRY_KINDS], maxLength: 8 },
      resident_id: id,
      entry_id: id,
      comment_id: id,
      count: { type: 'integer' },
      awaiting_resident_response: { type: 'boolean' },
      locked_at: { type: ['string', 'null'], maxLength: 40 },
      reaction: nullableString,
      entry: looseObject,
      category: nullableObject,
      latest_comment: looseObject,
      ...syncProperties,
    },
    required: [
      'id', 'updated_at', 'type', 'resident_id', 'entry_id', 'comment_id', 'count', 'awaiting_resident_response',
      'locked_at', 'reaction', 'entry', 'category', 'latest_comment', ...syncRequired,
    ],
    indexes: [['type', 'comment_id']],
  },
  encrypted: ['reaction', 'entry', 'category', 'latest_comment', 'sync_message', 'sync_server'],
});

export const filesCollection = defineCollection<FileDoc>()({
  schema: {
    title: 'files',
    version: 0,
    primaryKey: 'id',
    type: 'object',
    properties: {
      id: { type: 'string', maxLength: 128 },
      kind: { type: 'string', maxLength: 16 },
      updated_at: timestamp,
      content_type: { type: 'string' },
      data: nullableString,
      ...syncProperties,
    },
    required: ['id', 'kind', 'updated_at', 'content_type', 'data', ...syncRequired],
  },
  encrypted: ['content_type', 'data', 'sync_message', 'sync_server'],
});

/** What journal and voice entries share. Clear: ids, dates and sort keys, lock, sync fields. */
const entryProperties = {
  id,
  updated_at: timestamp,
  resident_id: id,
  created_at: timestamp,
  locked_at: { type: ['string', 'null'], maxLength: 40 },
  sort_key: { type: 'string', maxLength: 40 },
  local_only: { type: 'boolean' },
  creator: looseObject,
  description: nullableString,
  reaction: nullableString,
  canvas: nullableObject,
  files: { type: 'array', items: looseObject },
  shared_with: { type: 'array', items: { type: 'string' } },
  shared_with_management: { type: 'boolean' },
  comments_count: { type: 'integer' },
  ...syncProperties,
} as const;
const entryRequired = [
  'id', 'updated_at', 'resident_id', 'created_at', 'locked_at', 'sort_key', 'local_only', 'creator', 'description', 'reaction',
  'canvas', 'files', 'shared_with', 'shared_with_management', 'comments_count', ...syncRequired,
] as const;
/** Everything a person wrote, and whom they shared it with. */
const entryEncrypted = [
  'creator', 'description', 'reaction', 'canvas', 'files', 'shared_with', 'shared_with_management', 'comments_count',
  'sync_message', 'sync_server',
] as const;

export const journalCollection = defineCollection<JournalDoc>()({
  schema: {
    title: 'journal',
    version: 0,
    primaryKey: 'id',
    type: 'object',
    properties: {
      ...entryProperties,
      entry_date: { type: 'string', maxLength: 10 },
      entry_time: { type: 'string', maxLength: 5 },
    },
    required: [...entryRequired, 'entry_date', 'entry_time'],
    indexes: ['sort_key'],
  },
  encrypted: entryEncrypted,
});

export const voiceCollection = defineCollection<VoiceDoc>()({
  schema: {
    title: 'voice',
    version: 0,
    primaryKey: 'id',
    type: 'object',
    properties: { ...entryProperties, category_id: id },
    required: [...entryRequired, 'category_id'],
    indexes: ['sort_key', ['category_id', 'sort_key']],
  },
  encrypted: entryEncrypted,
});

/** Comments of journal and voice entries, pulled per entry while its thread is open, and ahead for the newest threads (../replication/threads-ahead.ts). */
export const commentsCollection = defineCollection<CommentDoc>()({
  schema: {
    title: 'comments',
    version: 0,
    primaryKey: 'id',
    type: 'object',
    properties: {
      id,
      updated_at: timestamp,
      entry_type: { type: 'string', enum: [...ENTRY_KINDS], maxLength: 8 },
      entry_id: id,
      created_at: timestamp,
      local_only: { type: 'boolean' },
      comment: nullableString,
      reaction: nullableString,
      creator: looseObject,
      files: { type: 'array', items: looseObject },
      ...syncProperties,
    },
    required: ['id', 'updated_at', 'entry_type', 'entry_id', 'created_at', 'local_only', 'comment', 'reaction', 'creator', 'files', ...syncRequired],
    indexes: [['entry_type', 'entry_id', 'created_at']],
  },
  encrypted: ['comment', 'reaction', 'creator', 'files', 'sync_message', 'sync_server'],
});

/**
 * Objectives: task logs (kind `log`, both tabs, from two replications) and the young person's own
 * comment and review writes made on this device (kind `comment`, overlays until the log's pull
 * carries them). Clear only what queries need; the task, form, answers, comments, creator and files
 * are encrypted. A log never goes back in time: a write of an older copy of a log over a newer one
 * is refused (`keepNewest`), so a late page from the other tab's replication cannot undo a change.
 */
export const tasksCollection = defineCollection<TasksCollectionDoc>()({
  schema: {
    title: 'tasks',
    version: 0,
    primaryKey: 'id',
    type: 'object',
    properties: {
      id,
      kind: { type: 'string', enum: ['log', 'comment'], maxLength: 8 },
      updated_at: timestamp,
      task_log_id: id,
      status: { type: 'string', enum: ['current', 'completed', ''], maxLength: 10 },
      sort_key: { type: 'string', maxLength: 80 },
      local_only: { type: 'boolean' },
      // A log
      task_id: nullableString,
      resident_id: nullableString,
      answers: looseObject,
      completed_at: nullableString,
      reviewed: { type: 'boolean' },
      task: looseObject,
      form_version: looseObject,
      comments: { type: 'array', items: looseObject },
      created_at: { type: 'string' },
      // A comment overlay
      comment: { type: 'string' },
      is_review: { type: 'boolean' },
      edited_at: nullableString,
      creator: looseObject,
      files: { type: 'array', items: looseObject },
      ...syncProperties,
    },
    required: ['id', 'kind', 'updated_at', 'task_log_id', 'status', 'sort_key', 'local_only', ...syncRequired],
    indexes: [['kind', 'status', 'sort_key'], ['kind', 'task_log_id']],
  },
  encrypted: [
    'task_id',
    'resident_id',
    'answers',
    'completed_at',
    'reviewed',
    'task',
    'form_version',
    'comments',
    'created_at',
    'comment',
    'is_review',
    'edited_at',
    'creator',
    'files',
    'sync_message',
    'sync_server',
  ],
  keepNewest: (stored, next) => stored.kind !== 'log' || next.kind !== 'log' || next.updated_at >= stored.updated_at,
});

/**
 * The points ledger and the reward history (issue 10), by `kind`:
 * - `ledger`: one entry of the append-only ledger (GET .../points); the balance is the sum of `delta`;
 * - `exchange`: one reward exchange (SPEC §3 "Reward history item", GET .../rewards/history), pulled
 *   from the server, or this device's own optimistic exchange (pending until delivered, failed when
 *   refused) whose id the server keeps.
 * Clear: id, kind, updated_at, sort_key (created_at), local_only, sync fields. Everything else (the
 * deltas, reasons, rewards, costs, statuses, staff's notes and names) is encrypted.
 */
export const pointsCollection = defineCollection<PointsCollectionDoc>()({
  schema: {
    title: 'points',
    version: 0,
    primaryKey: 'id',
    type: 'object',
    properties: {
      id,
      kind: { type: 'string', enum: ['ledger', 'exchange'], maxLength: 8 },
      updated_at: timestamp,
      sort_key: { type: 'string', maxLength: 40 },
      local_only: { type: 'boolean' },
      created_at: { type: 'string' },
      // A ledger entry
      delta: { type: 'integer' },
      reason: { type: 'string' },
      source_id: nullableString,
      // An exchange
      resident_id: nullableString,
      reward_id: nullableString,
      reward: looseObject,
      points: { type: 'integer' },
      points_adjustment: { type: 'integer' },
      refunded_points: { type: 'integer' },
      status: { type: 'string' },
      note: nullableString,
      decided_by: nullableObject,
      decided_at: nullableString,
      ...syncProperties,
    },
    required: ['id', 'kind', 'updated_at', 'sort_key', ...syncRequired],
    indexes: [['kind', 'sort_key']],
  },
  encrypted: [
    'created_at',
    'delta',
    'reason',
    'source_id',
    'resident_id',
    'reward_id',
    'reward',
    'points',
    'points_adjustment',
    'refunded_points',
    'status',
    'note',
    'decided_by',
    'decided_at',
    'sync_message',
    'sync_server',
  ],
});

/**
 * Documents staff share (issue 11), by `kind`:
 * - `file`, `book`, `gallery`, `form`: a row of GET /v1/documents exactly as the server sends it
 *   (the young person's own `submission` of a form included); a tombstone removes it;
 * - `state`: this device's own record about one document (`state:<document id>`), never written by
 *   a pull: the version last opened ("New"/"Updated"), the reading position of a book, the Keep
 *   offline choice, what is kept (the manifest of its encrypted chunks in `files`), and a form's
 *   answers on their way (the outbox's local document for a submission). Kept apart from the row so
 *   a pull can never overwrite it and a local change never holds back the server's copy.
 * Clear: id, kind, updated_at, version, content_updated_at, size (what the list sorts and shows
 * without decrypting anything personal); everything else is encrypted.
 */
export const documentsCollection = defineCollection<DocumentsCollectionDoc>()({
  schema: {
    title: 'documents',
    version: 0,
    primaryKey: 'id',
    type: 'object',
    properties: {
      id,
      kind: { type: 'string', enum: ['file', 'book', 'gallery', 'form', 'state'], maxLength: 8 },
      updated_at: timestamp,
      version: { type: 'integer' },
      content_updated_at: { type: 'string' },
      size: { type: 'integer' },
      // A row
      title: { type: 'string' },
      description: nullableString,
      category: { type: 'string' },
      resident_id: nullableString,
      home_id: nullableString,
      mime: nullableString,
      created_at: { type: 'string' },
      creator: looseObject,
      file: nullableObject,
      book: nullableObject,
      gallery: nullableObject,
      form: nullableObject,
      submission: nullableObject,
      // A state
      document_id: { type: 'string' },
      opened_version: { type: ['integer', 'null'] },
      reading: nullableObject,
      keep: { type: ['boolean', 'null'] },
      kept: nullableObject,
      outgoing: nullableObject,
      errors: nullableObject,
      ...syncProperties,
    },
    required: ['id', 'kind', 'updated_at', ...syncRequired],
  },
  encrypted: [
    'title',
    'description',
    'category',
    'resident_id',
    'home_id',
    'mime',
    'created_at',
    'creator',
    'file',
    'book',
    'gallery',
    'form',
    'submission',
    'document_id',
    'opened_version',
    'reading',
    'keep',
    'kept',
    'outgoing',
    'errors',
    'sync_message',
    'sync_server',
  ],
});

export const replicaCollections = {
  resident: residentCollection,
  staff: staffCollection,
  rota: rotaCollection,
  calendar: calendarCollection,
  lookups: lookupsCollection,
  feedback: feedbackCollection,
  files: filesCollection,
  journal: journalCollection,
  voice: voiceCollection,
  comments: commentsCollection,
  tasks: tasksCollection,
  points: pointsCollection,
  documents: documentsCollection,
};
