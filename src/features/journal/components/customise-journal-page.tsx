import { Link } from 'react-router-dom';
import { PageHeading } from '@/components/page-heading';
import { EmptyState } from '@/components/empty-state';

/** Its real empty state until the replica brings data (later issues). */
export function CustomiseJournalPage() {
  return (
    <div className="page">
      <PageHeading>Customise journal</PageHeading>
      <EmptyState
        title="No journal styles on this device yet."
        actions={
          <>
          <Link to="/journal" className="button button--primary">
            Back to journal
          </Link>
          </>
        }
      >
        Colours and paper styles arrive when Hearth has synced with your home.
      </EmptyState>
    </div>
  );
}
