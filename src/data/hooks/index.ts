/** The only way components read replicated data. */
export type { Live } from './use-live';
export type { CalendarPage, FeedbackCounts } from './queries';
export type { SyncStatus } from './use-sync-status';
export { useResidentDetails } from './use-resident-details';
export { useAssociatedUsers } from './use-associated-users';
export { useTodaysRoster } from './use-todays-roster';
export { useFeedback, useFeedbackCounts } from './use-feedback';
export { usePastCalendar, useUpcomingCalendar } from './use-calendar';
export { useEventTypes } from './use-event-types';
export { useUserPhoto } from './use-user-photo';
export { useSyncStatus } from './use-sync-status';
export type { EntriesPage, JournalFilters, SharingFilter } from './journal-entries-query';
export type { JournalEntriesQuery } from './use-entries';
export { useEmojis, useJournalEntries, useJournalEntry, useJournalReactions, useVoiceCategories, useVoiceEntries, useVoiceEntry } from './use-entries';
export { useComments } from './use-comments';
export { useEntryFile } from './use-entry-file';
