import { Link } from 'react-router-dom';
import { PageHeading } from '@/components/page-heading';
import { EmptyState } from '@/components/empty-state';

/** Its real empty state until the replica brings data (later issues). */
export function JournalPage() {
  return (
    <div className="page">
      <PageHeading>Journal</PageHeading>
      <EmptyState
        title="Your journal is empty."
        actions={
          <>
          <Link to="/journal/entries" className="button button--primary">
            See my entries
          </Link>
          <Link to="/journal/customise" className="button button--secondary">
            Customise journal
          </Link>
          </>
        }
      >
        This is your private space to write about your day. Only you can see an entry unless you choose to share it.
      </EmptyState>
    </div>
  );
}
