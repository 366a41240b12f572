import { PageHeading } from '@/components/page-heading';
import { EmptyState } from '@/components/empty-state';

/** Its real empty state until the replica brings data (later issues). */
export function DocumentsPage() {
  return (
    <div className="page">
      <PageHeading>Documents</PageHeading>
      <EmptyState
        title="No documents yet."
      >
        When staff share a document with you, you will find it here.
      </EmptyState>
    </div>
  );
}
