import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { EntryKind } from '../../src/contract/entry-kind';

/** Kysely table types; they mirror migrations/0001-initial.ts to 0014-staff-access-detail.ts (0009 adds only indexes). */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** `date` columns are parsed as 'YYYY-MM-DD' strings by both drivers (see database.ts). */
type DateText = string;
type TimeText = string;

interface EntityColumns {
  id: Generated<string>;
  tenant_id: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export interface TenantsTable {
  id: Generated<string>;
  slug: string;
  name: string;
  mfa_policy: 'optional' | 'required';
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export interface UserTypesTable {
  id: number;
  system_name: string;
  name: string;
}

export interface ThemesTable {
  id: number;
  system_name: 'fun_style' | 'gaming_style';
  name: string;
  theme_type: 'kids_app';
}

export interface HomesTable extends EntityColumns {
  name: string;
}

export interface UsersTable extends EntityColumns {
  username: string;
  email: string | null;
  password_hash: string;
  first_name: string;
  last_name: string;
  user_type_id: number;
  theme_id: number | null;
  job_title: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface UserPhotosTable extends EntityColumns {
  user_id: string;
  mime: string;
  bytes: Uint8Array;
}

export interface ResidentsTable extends EntityColumns {
  user_id: string;
  home_id: string;
  preferred_name: string | null;
  reward_points: Generated<number>;
  journal_enabled: Generated<0 | 1>;
  voice_enabled: Generated<0 | 1>;
  rewards_enabled: Generated<0 | 1>;
  date_of_birth: ColumnType<DateText | null, DateText | null | undefined, DateText | null>;
  key_worker_id: ColumnType<string | null, string | null | undefined, string | null>;
  journal_colour: Generated<string>;
  journal_paper: Generated<string>;
  theme: Generated<string>;
}

export interface HomeStaffTable extends EntityColumns {
  home_id: string;
  user_id: string;
}

export interface MfaMethodsTable extends EntityColumns {
  user_id: string;
  method: 'authenticator' | 'email';
  secret_encrypted: string | null;
  email: string | null;
  confirmed_at: NullableTimestamp;
  last_used_step: number | null;
  pending_code_hash: string | null;
  pending_code_expires_at: NullableTimestamp;
}

export interface RecoveryCodesTable extends EntityColumns {
  user_id: string;
  code_hash: string;
  used_at: NullableTimestamp;
}

export type SessionState = 'guest' | 'mfa_setup' | 'full';

export interface SessionsTable {
  id: Generated<string>;
  tenant_id: string | null;
  user_id: string | null;
  token_hash: string;
  state: SessionState;
  ip: string | null;
  user_agent: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  idle_expires_at: Timestamp;
  absolute_expires_at: Timestamp;
}

export interface MfaChallengesTable {
  id: Generated<string>;
  tenant_id: string;
  user_id: string;
  session_id: string;
  token_hash: string;
  attempts: Generated<number>;
  email_code_hash: string | null;
  email_code_expires_at: NullableTimestamp;
  email_sends: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  expires_at: Timestamp;
}

export interface AuthThrottlesTable {
  key: string;
  failures: number;
  window_started_at: Timestamp;
  locked_until: NullableTimestamp;
  updated_at: Timestamp;
}

export interface EventTypesTable extends EntityColumns {
  name: string;
}

export interface EventsTable extends EntityColumns {
  title: string;
  description: string | null;
  event_type_id: string | null;
  seed_key: string | null;
  location: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface EventInstancesTable extends EntityColumns {
  /** The newer of its own and its event's updated_at, kept by triggers (migration 0012): never written here. */
  sync_updated_at: ColumnType<Date, never, never>;
  event_id: string;
  resident_id: string;
  start_date: DateText;
  start_time: TimeText | null;
  end_date: DateText;
  end_time: TimeText | null;
}

export interface RotaShiftsTable extends EntityColumns {
  home_id: string;
  user_id: string;
  shift_date: DateText;
  starts_at: TimeText;
  ends_at: TimeText;
}

export interface ResidentSettingsTable extends EntityColumns {
  resident_id: string;
  name: string;
  value: string | null;
}

interface EntryColumns extends EntityColumns {
  resident_id: string;
  creator_id: string;
  description: string | null;
  canvas: string | null;
  reaction: string | null;
  shared_with: ColumnType<string[], string[] | undefined, string[]>;
  shared_with_management: Generated<boolean>;
  locked_at: NullableTimestamp;
  /** 0010: when the young person's content last changed (updated_at also moves for comments). */
  content_updated_at: Timestamp;
  /** 0010: the device that made that change (null: it did not say). */
  content_writer: ColumnType<string | null, string | null | undefined, string | null>;
}

/** 0003: the young person's local date and time (Europe/London), as written. */
export interface JournalEntriesTable extends EntryColumns {
  entry_date: ColumnType<DateText, DateText | undefined, DateText>;
  entry_time: ColumnType<TimeText, TimeText | undefined, TimeText>;
}

export interface VoiceCategoriesTable extends EntityColumns {
  name: string;
  description: ColumnType<string | null, string | null | undefined, string | null>;
  position: ColumnType<number, number | undefined, number>;
}

export interface VoiceEntriesTable extends EntryColumns {
  entry_date: Timestamp;
  category_id: string;
}

/**
 * 0005: 'task_comment' (files of a task-log comment) and 'task_log' (file answers of a log);
 * 0006: 'reward' (a reward's picture).
 */
export type FileEntryType = EntryKind | 'comment' | 'task_comment' | 'task_log' | 'reward';

/** Attachments and drawings; the bytes are in the file store under storage_key (lib/blob-store.ts). */
export interface EntryFilesTable {
  id: Generated<string>;
  tenant_id: string;
  entry_type: FileEntryType;
  entry_id: string;
  role: 'attachment' | 'canvas';
  name: string;
  mime: string;
  size: number;
  storage_key: string;
  created_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export interface EmojisTable {
  id: Generated<string>;
  emoji: string;
  name: string;
  position: number;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export interface EntryCommentsTable {
  /**
   * A UUIDv7 from lib/uuidv7.ts, or the client's own UUID (any version) given on create: ids do not
   * sort by time, so threads are ordered by (created_at, id).
   */
  id: string;
  tenant_id: string;
  entry_type: EntryKind;
  entry_id: string;
  creator_id: string;
  comment: string | null;
  reaction: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
  edited_at: NullableTimestamp;
}

export interface ResidentFeedbackTable extends EntityColumns {
  type: EntryKind;
  resident_id: string;
  entry_id: string;
  comment_id: string;
  count: number;
  awaiting_resident_response: boolean;
  locked_at: NullableTimestamp;
  reaction: string | null;
  category_id: string | null;
}

/** 0004: a user who could read an entry and no longer can (a tombstone in their pulls). */
export interface EntryAccessRevocationsTable {
  tenant_id: string;
  entry_type: EntryKind;
  entry_id: string;
  user_id: string;
  revoked_at: Timestamp;
}

/** 0005: a form template (name = the objective's category). */
export interface FormsTable extends EntityColumns {
  name: string;
  description: string | null;
}

/** 0005: one version of a form's definition (contract forms.ts formFieldsSchema). */
export interface FormVersionsTable {
  id: Generated<string>;
  tenant_id: string;
  form_id: string;
  version: number;
  fields: ColumnType<unknown[], string, string>;
  created_at: Timestamp;
}

export interface TasksTable extends EntityColumns {
  resident_id: string;
  form_id: string;
  creator_id: string;
  title: string;
  description: string | null;
  task_date: DateText;
}

export interface TaskLogsTable extends EntityColumns {
  task_id: string;
  form_version_id: string;
  status: ColumnType<'current' | 'completed', 'current' | 'completed' | undefined, 'current' | 'completed'>;
  answers: ColumnType<Record<string, unknown>, string | undefined, string>;
  completed_at: NullableTimestamp;
  completed_by: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface TaskLogCommentsTable {
  /** A UUIDv7, or the client's own UUID given on create: threads order by (created_at, id). */
  id: string;
  tenant_id: string;
  task_log_id: string;
  creator_id: string;
  comment: string;
  is_review: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
  edited_at: NullableTimestamp;
}

/** 0005: append-only; unique (reason, source_id); the sum is residents.reward_points. */
export interface PointsLedgerTable {
  id: Generated<string>;
  tenant_id: string;
  resident_id: string;
  delta: number;
  reason: string;
  source_id: string | null;
  created_at: Timestamp;
}

/** 0006: a home's rewards catalogue; withdrawn = deleted_at, paused = active false. */
export interface RewardsTable extends EntityColumns {
  home_id: string;
  creator_id: string | null;
  name: string;
  description: string | null;
  points: number;
  active: ColumnType<boolean, boolean | undefined, boolean>;
  position: ColumnType<number, number | undefined, number>;
}

export type RewardExchangeStatus = 'pending' | 'approved' | 'denied';

/** 0006: a young person's exchange of points for a reward (the client's id allowed). */
export interface RewardExchangesTable {
  id: string;
  tenant_id: string;
  resident_id: string;
  reward_id: string;
  /** The young person who asked (their user id): client-id checks compare it. */
  creator_id: string;
  /** The reward's cost when it was asked for. */
  points: number;
  status: ColumnType<RewardExchangeStatus, RewardExchangeStatus | undefined, RewardExchangeStatus>;
  decided_by: ColumnType<string | null, string | null | undefined, string | null>;
  decided_at: NullableTimestamp;
  note: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** 0007: a document staff share with one young person (resident_id) or a whole home (home_id). */
export type DocumentKindColumn = 'file' | 'book' | 'gallery' | 'form';
export interface DocumentsTable {
  /** Made here, or the client's own UUID given on create. */
  id: Generated<string>;
  tenant_id: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Withdrawn. */
  deleted_at: NullableTimestamp;
  resident_id: string | null;
  home_id: string | null;
  kind: DocumentKindColumn;
  title: string;
  description: string | null;
  category: string;
  form_id: string | null;
  form_version_id: string | null;
  creator_id: string;
  version: Generated<number>;
  content_updated_at: Timestamp;
  seed_key: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface DocumentChaptersTable {
  id: string;
  tenant_id: string;
  document_id: string;
  position: number;
  title: string;
}

export interface DocumentPagesTable {
  id: string;
  tenant_id: string;
  document_id: string;
  chapter_id: string;
  position: number;
  title: string;
  html: string;
}

/** 0007: a young person's answers to a form document (one live per young person and document). */
export interface DocumentSubmissionsTable extends Omit<EntityColumns, 'id'> {
  /** A UUIDv7, or the client's own UUID given on create. */
  id: string;
  document_id: string;
  resident_id: string;
  creator_id: string;
  form_version_id: string;
  answers: ColumnType<Record<string, unknown>, string | undefined, string>;
}

export type DocumentBlobRole = 'file' | 'page_image' | 'gallery_item' | 'answer';

/** 0007: every stored file of a document; bytes in the file store under storage_key (lib/blob-store.ts). */
export interface DocumentBlobsTable {
  id: Generated<string>;
  tenant_id: string;
  document_id: string;
  role: DocumentBlobRole;
  page_id: string | null;
  submission_id: string | null;
  position: ColumnType<number, number | undefined, number>;
  caption: string | null;
  name: string;
  mime: string;
  size: number;
  sha256: string;
  storage_key: string;
  created_at: Timestamp;
  deleted_at: NullableTimestamp;
}

/** 0007: when a user's right to read a document last changed (kept by triggers). */
export interface DocumentAccessChangesTable {
  tenant_id: string;
  document_id: string;
  user_id: string;
  changed_at: Timestamp;
}

/** 0013: which home a young person lived in, from when until when (kept by a trigger on residents). */
export interface ResidentHomeStaysTable {
  id: Generated<string>;
  tenant_id: string;
  resident_id: string;
  home_id: string;
  started_at: Timestamp;
  ended_at: NullableTimestamp;
}

export interface PushSubscriptionsTable {
  id: Generated<string>;
  tenant_id: string;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface IdempotencyKeysTable {
  id: Generated<string>;
  tenant_id: string;
  user_id: string;
  key: string;
  method: string;
  path: string;
  request_hash: string;
  /** null while the first request with this key is still running. */
  status: number | null;
  body: ColumnType<unknown, string | null, string | null>;
  created_at: Timestamp;
}

/** 0008: one request of a member of staff to the data API (never changed). */
export interface StaffAccessLogTable {
  id: Generated<string>;
  tenant_id: string;
  user_id: string;
  resident_id: string | null;
  action: 'read' | 'write';
  method: string;
  route: string;
  target: ColumnType<Record<string, unknown>, string | undefined, never>;
  status: number;
  at: Generated<Date>;
  /** 0014: what a staff write changed (contract staffChangeSchema), null for other requests. */
  detail: ColumnType<Record<string, unknown> | null, string | null | undefined, never>;
}

/** 0011: an uploaded file's head when its bytes are in the database (PostgreSQL; lib/database-file-store.ts). */
export interface StoredFilesTable {
  tenant_id: string;
  storage_key: string;
  size: number;
  chunk_size: number;
  created_at: Generated<Date>;
}

/** 0011: its bytes, chunk by chunk (seq from 0). */
export interface StoredFileChunksTable {
  tenant_id: string;
  storage_key: string;
  seq: number;
  bytes: Buffer;
}

/** 0011: fixed-window request counts shared by every process (plugins/rate-limit.ts). */
export interface RequestCountersTable {
  key: string;
  count: number;
  window_ends_at: Timestamp;
}

export interface Database {
  tenants: TenantsTable;
  user_types: UserTypesTable;
  themes: ThemesTable;
  homes: HomesTable;
  users: UsersTable;
  user_photos: UserPhotosTable;
  residents: ResidentsTable;
  home_staff: HomeStaffTable;
  mfa_methods: MfaMethodsTable;
  recovery_codes: RecoveryCodesTable;
  sessions: SessionsTable;
  mfa_challenges: MfaChallengesTable;
  auth_throttles: AuthThrottlesTable;
  event_types: EventTypesTable;
  events: EventsTable;
  event_instances: EventInstancesTable;
  rota_shifts: RotaShiftsTable;
  resident_settings: ResidentSettingsTable;
  journal_entries: JournalEntriesTable;
  voice_categories: VoiceCategoriesTable;
  voice_entries: VoiceEntriesTable;
  entry_comments: EntryCommentsTable;
  resident_feedback: ResidentFeedbackTable;
  push_subscriptions: PushSubscriptionsTable;
  idempotency_keys: IdempotencyKeysTable;
  entry_files: EntryFilesTable;
  emojis: EmojisTable;
  entry_access_revocations: EntryAccessRevocationsTable;
  forms: FormsTable;
  form_versions: FormVersionsTable;
  tasks: TasksTable;
  task_logs: TaskLogsTable;
  task_log_comments: TaskLogCommentsTable;
  points_ledger: PointsLedgerTable;
  rewards: RewardsTable;
  reward_exchanges: RewardExchangesTable;
  documents: DocumentsTable;
  stored_files: StoredFilesTable;
  stored_file_chunks: StoredFileChunksTable;
  request_counters: RequestCountersTable;
  staff_access_log: StaffAccessLogTable;
  document_chapters: DocumentChaptersTable;
  document_pages: DocumentPagesTable;
  document_submissions: DocumentSubmissionsTable;
  document_blobs: DocumentBlobsTable;
  document_access_changes: DocumentAccessChangesTable;
  resident_home_stays: ResidentHomeStaysTable;
}

export type User = Selectable<UsersTable>;
export type Session = Selectable<SessionsTable>;
export type NewSession = Insertable<SessionsTable>;
export type MfaChallenge = Selectable<MfaChallengesTable>;
export type Tenant = Selectable<TenantsTable>;
