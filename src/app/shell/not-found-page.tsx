import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { messages } from '@/contract/messages';
import { PageHeading } from '@/components/page-heading';

/** SPEC §2: status 404, "Page not found: {path}" and "Back to safety" (→ /dashboard). */
export function NotFoundPage() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  return (
    <div className="page error-page">
      <p className="error-page__status" aria-hidden="true">
        404
      </p>
      <PageHeading>
        <span className="visually-hidden">Error 404. </span>
        {messages.notFound(pathname)}
      </PageHeading>
      <p>This page does not exist. It may have moved, or the link may have a typo.</p>
      <button type="button" className="button button--primary" onClick={() => navigate('/dashboard')}>
        {messages.backToSafety}
      </button>
    </div>
  );
}

/** Sets the title where no route handle does (the router's error element). */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title;
  }, [title]);
}
