import { Link } from 'react-router-dom';
import { EmptyState } from '@/components/empty-state';
import { HeldRegion } from '@/components/held-region';
import { LoadingText } from '@/components/loading-text';
import { PageHeading } from '@/components/page-heading';
import { ENTRY_KINDS, type EntryKind } from '@/contract/entry-kind';
import { useFeedback, useFeedbackCounts } from '@/data/hooks';
import { useFeatureFlags } from '@/data/session-store';
import { FeedbackItem } from '@/entries/components/feedback-item';
import './feedback-page.css';

const GROUPS: Record<EntryKind, { title: string; none: string }> = {
  journal: { title: 'Journal', none: 'No new replies on your journal.' },
  voice: { title: 'Voice', none: 'No new replies on your Voice messages.' },
};

/**
 * /feedback (SPEC §4): every staff reply awaiting the young person's answer, journal and voice, not
 * in a closed conversation, newest comment first, grouped by type under a heading each with the same
 * counts as the dashboard's badges and the menu. Read from the replica (live, and offline its copy),
 * exactly the items of the dashboard's "New replies" (which shows the newest five).
 */
export function FeedbackPage() {
  const flags = useFeatureFlags();
  const feedback = useFeedback();
  const counts = useFeedbackCounts();
  const types = ENTRY_KINDS.filter((type) => flags[`${type}_enabled`]);
  const items = feedback.data.filter((item) => types.includes(item.type));
  const loading = feedback.loading && items.length === 0;

  return (
    <div className="page feedback-page">
      <PageHeading>Feedback</PageHeading>
      <HeldRegion name="feedback.list" loading={loading}>
        {loading ? <LoadingText /> : null}
        {!loading && items.length === 0 ? (
          <EmptyState
            title="No new replies."
            actions={
              <Link to="/dashboard" className="button button--primary">
                Back to dashboard
              </Link>
            }
          >
            {types.length > 0
              ? 'When staff reply to your journal or to Voice, you will see it here.'
              : 'Replies from staff show here when your journal or Voice is switched on.'}
          </EmptyState>
        ) : null}
        {!loading && items.length > 0 ? (
          <>
            <p className="lead">Replies from staff that are waiting for you, newest first.</p>
            {types.map((type) => {
              const group = items.filter((item) => item.type === type);
              const titleId = `feedback-${type}-title`;
              return (
                <section key={type} aria-labelledby={titleId} className="section feedback-group">
                  <h2 id={titleId} className="section-title feedback-group__title">
                    {GROUPS[type].title} <span className="badge__count">{counts.data[type]}</span>
                    <span className="visually-hidden"> waiting</span>
                  </h2>
                  {group.length === 0 ? (
                    <p className="feedback-group__empty">{GROUPS[type].none}</p>
                  ) : (
                    <ul className="replies feedback-group__list" aria-labelledby={titleId}>
                      {group.map((item) => (
                        <FeedbackItem key={item.id} item={item} />
                      ))}
                    </ul>
                  )}
                </section>
              );
            })}
          </>
        ) : null}
      </HeldRegion>
    </div>
  );
}
