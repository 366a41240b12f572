import { Link } from 'react-router-dom';
import { PageHeading } from '@/components/page-heading';
import { EmptyState } from '@/components/empty-state';

/** Its real empty state until the replica brings data (later issues). */
export function VoiceEntriesPage() {
  return (
    <div className="page">
      <PageHeading>Voice entries</PageHeading>
      <EmptyState
        title="No Voice entries yet."
        actions={
          <>
          <Link to="/voice" className="button button--primary">
            Back to Voice
          </Link>
          </>
        }
      >
        Things you send with Voice will be listed here, grouped by category.
      </EmptyState>
    </div>
  );
}
