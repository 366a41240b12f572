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
export { usePoints } from './use-points';
export { useDraft } from './use-draft';
export { useFormNames } from './use-form-names';
export type { FormName } from './use-form-names';
export type { Draft } from './use-draft';
export type { PointsSummary } from '../replica/task-overlays';
