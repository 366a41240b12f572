import { Link } from 'react-router-dom';
import { PageHeading } from '@/components/page-heading';
import { EmptyState } from '@/components/empty-state';

/** Its real empty state until the replica brings data (later issues). */
export function VoiceSuccessPage() {
  return (
    <div className="page">
      <PageHeading>Thank you for speaking up</PageHeading>
      <EmptyState
        title="Nothing waiting to send."
        actions={
          <>
          <Link to="/voice/entries" className="button button--primary">
            See my Voice entries
          </Link>
          <Link to="/dashboard" className="button button--secondary">
            Back to dashboard
          </Link>
          </>
        }
      >
        When you send something with Voice, staff will read it and reply to you in Voice.
      </EmptyState>
    </div>
  );
}
