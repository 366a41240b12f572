import { PageHeading } from '@/components/page-heading';
import { EmptyState } from '@/components/empty-state';

/** Its real empty state until the replica brings data (later issues). */
export function ObjectivesPage() {
  return (
    <div className="page">
      <PageHeading>Objectives</PageHeading>
      <EmptyState
        title="No objectives yet."
      >
        When you and your carers set objectives, your current and completed ones will be here.
      </EmptyState>
    </div>
  );
}
