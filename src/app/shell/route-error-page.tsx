import { isRouteErrorResponse, useNavigate, useRouteError } from 'react-router-dom';
import { messages } from '@/contract/messages';
import { useProductName } from '@/data/app-config-store';
import { Notice } from '@/components/notice';
import { pageTitle } from '@/lib/page-title';
import { ChunkLoadError } from '../lazy-page';
import { NotFoundPage, useDocumentTitle } from './not-found-page';

/** The router's error element: thrown 404s look like the 404 page; other errors get a way out. */
export function RouteErrorPage() {
  const error = useRouteError();
  const product = useProductName();
  const navigate = useNavigate();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  useDocumentTitle(pageTitle(product, notFound ? 'Page not found' : 'Something went wrong'));
  if (!notFound) console.error(error);

  return (
    <>
      <a href="#main" className="skip-link">
        Skip to main content
      </a>
      <main id="main" tabIndex={-1} className="layout-plain">
        {notFound ? (
          <NotFoundPage />
        ) : (
          <Notice
            title={error instanceof ChunkLoadError ? 'This page could not load' : 'Something went wrong'}
            role="alert"
            actions={
              <>
                <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
                  Reload
                </button>
                <button type="button" className="button button--secondary" onClick={() => navigate('/dashboard')}>
                  {messages.backToSafety}
                </button>
              </>
            }
          >
            <p>
              {error instanceof ChunkLoadError
                ? `Part of ${product} did not download. Check your connection, then reload.`
                : `Sorry, ${product} hit a problem showing this page. Reloading usually fixes it.`}
            </p>
          </Notice>
        )}
      </main>
    </>
  );
}
