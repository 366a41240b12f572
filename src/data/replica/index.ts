/** The replica's public surface: plain document types and the lifecycle (hooks live in ../hooks). */
export type {
  AccountDoc,
  CalendarDoc,
  EventTypeDoc,
  FeedbackDoc,
  FileDoc,
  LookupDoc,
  LookupKind,
  ResidentDoc,
  RosterDoc,
  StaffDoc,
  SyncFields,
  SyncState,
  SyncStateName,
} from './types';
export { syncStateOf } from './types';
export type { ReplicaCollectionName } from './local-writes';
