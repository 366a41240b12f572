import { useCallback } from 'react';
import type { EntryKind } from '@/contract/entry-kind';
import type { OpenReplica } from '../replica/replica-store';
import type { FeedbackDoc } from '../replica/types';
import { feedback$, feedbackCounts$, type FeedbackCounts } from './queries';
import { useLive, type Live } from './use-live';

const none: FeedbackDoc[] = [];
const zero: FeedbackCounts = Object.freeze({ journal: 0, voice: 0 }) as FeedbackCounts;

/** Feedback awaiting the young person's response, not locked, newest comment first (SPEC §4). */
export function useFeedback(type?: EntryKind): Live<FeedbackDoc[]> {
  const factory = useCallback((open: OpenReplica) => feedback$(open.db, type), [type]);
  return useLive('feedback', factory, none, (list) => list.length === 0);
}

/** Counts of the same items per type, from the replica (works offline). */
export function useFeedbackCounts(): Live<FeedbackCounts> {
  const factory = useCallback((open: OpenReplica) => feedbackCounts$(open.db), []);
  return useLive('feedback', factory, zero, (c) => c.journal + c.voice === 0);
}
