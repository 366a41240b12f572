import { Link } from 'react-router-dom';
import { PageHeading } from '@/components/page-heading';
import { EmptyState } from '@/components/empty-state';

/** Its real empty state until the replica brings data (later issues). */
export function VoicePage() {
  return (
    <div className="page">
      <PageHeading>Voice</PageHeading>
      <EmptyState
        title="Nothing sent yet."
        actions={
          <>
          <Link to="/voice/entries" className="button button--primary">
            See my Voice entries
          </Link>
          </>
        }
      >
        Voice is where you can raise a worry or a complaint, message staff, or share good news.
      </EmptyState>
    </div>
  );
}
