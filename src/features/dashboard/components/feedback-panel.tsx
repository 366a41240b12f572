import { Link } from 'react-router-dom';
import { ENTRY_KINDS } from '@/contract/entry-kind';
import { useFeedbackCounts, type Live } from '@/data/hooks';
import type { FeedbackDoc } from '@/data/replica/types';
import { useFeatureFlags } from '@/data/session-store';
import { LoadingText } from '@/components/loading-text';
import { useHeldHeight } from '@/components/use-held-layout';
import { FeedbackItem } from '@/entries/components/feedback-item';

const MAX_ITEMS = 5;

/**
 * "New replies": staff comments awaiting the young person's answer (SPEC §4), newest first, with
 * counts per type; the newest five, and the way to all of them on /feedback.
 */
export function FeedbackPanel({ feedback }: { feedback: Live<FeedbackDoc[]> }) {
  const flags = useFeatureFlags();
  const counts = useFeedbackCounts();
  const types = ENTRY_KINDS.filter((type) => flags[`${type}_enabled`]);
  const items = feedback.data.filter((item) => types.includes(item.type));
  const loading = feedback.loading && items.length === 0;
  // Its height from last time while the replica opens: the roster and details below stay put.
  const held = useHeldHeight('dashboard.replies', loading);

  return (
    <section ref={held.ref} style={held.style} aria-labelledby="replies-title" className="dash-card dash-card--replies" aria-busy={loading}>
      <div className="dash-card__header">
        <h2 id="replies-title" className="section-title">
          New replies
        </h2>
        {types.length > 0 ? (
          <ul className="badges" aria-label="Replies waiting">
            {types.map((type) => (
              <li key={type} className={`badge badge--${type}`}>
                {type === 'journal' ? 'Journal' : 'Voice'} <span className="badge__count">{counts.data[type]}</span>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      {loading ? (
        <LoadingText />
      ) : items.length === 0 ? (
        <p className="dash-card__empty">No new replies</p>
      ) : (
        <>
          <ul className="replies" aria-labelledby="replies-title">
            {items.slice(0, MAX_ITEMS).map((item) => (
              <FeedbackItem key={item.id} item={item} />
            ))}
          </ul>
          <p className="dash-card__more">
            <Link to="/feedback">{items.length > MAX_ITEMS ? `See all ${items.length} new replies` : 'See all new replies'}</Link>
          </p>
        </>
      )}
    </section>
  );
}
