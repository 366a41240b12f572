/** The replica's public surface: plain document types and the lifecycle (hooks live in ../hooks). */
export type {
  AccountDoc,
  CalendarDoc,
  CommentDoc,
  EmojiDoc,
  EntryDoc,
  EventTypeDoc,
  FeedbackDoc,
  FileDoc,
  FileKind,
  JournalDoc,
  LookupDoc,
  LookupKind,
  PointsDoc,
  ResidentDoc,
  RosterDoc,
  StaffDoc,
  SyncFields,
  SyncState,
  SyncStateName,
  TaskCommentOverlayDoc,
  TaskDoc,
  TaskLogDoc,
  VoiceCategoryDoc,
  VoiceDoc,
} from './types';
export { syncStateOf } from './types';
export type { ReplicaCollectionName } from './local-writes';
