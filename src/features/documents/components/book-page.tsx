import { useEffect, useMemo, useRef } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { LoadingText } from '@/components/loading-text';
import { PageHeading } from '@/components/page-heading';
import type { BookPage } from '@/contract/documents';
import { useDocumentFile } from '@/data/documents/use-document-file';
import { bookPages, documentFile } from '@/data/replica/documents';
import type { DocumentDoc } from '@/data/replica/types';
import { rememberPage } from '../actions/remember';
import { bookPageHtml } from '../book-html';
import { bookPagePath, documentPath } from '../document-paths';
import { useDocument } from '../hooks/use-documents';
import { DocumentNotFound, useRememberOpened } from './document-page';
import { useSwipe } from './use-swipe';
import './documents.css';

function PageImage({ doc, image }: { doc: DocumentDoc; image: BookPage['images'][number] }) {
  const view = useDocumentFile(doc.id, documentFile(doc, image.id));
  return (
    <figure className="book-page__figure">
      {view.status === 'ready' ? (
        <img src={view.url} alt={image.alt} className="book-page__img" />
      ) : (
        <span className="book-page__missing" role="img" aria-label={image.alt}>
          {view.status === 'offline' ? 'Picture not saved on this device' : view.status === 'missing' ? 'Picture not available' : 'Loading the picture…'}
        </span>
      )}
    </figure>
  );
}

/** Arrow keys turn the page, unless someone is typing or using a control that needs them. */
function useArrowKeys(previous: () => void, next: () => void): void {
  const handlers = useRef({ previous, next });
  handlers.current = { previous, next };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.shiftKey) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable="true"], video, audio, [role="slider"], dialog')) return;
      if (event.key === 'ArrowLeft') handlers.current.previous();
      else if (event.key === 'ArrowRight') handlers.current.next();
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

/**
 * /documents/{id}/page/{pageId}: one page of a book: its chapter, title, words (sanitised HTML) and
 * pictures with their descriptions; previous and next (links, the arrow keys, a swipe); the way
 * back to the contents. The page is remembered on the device as where the young person stopped.
 */
export function BookPageView() {
  const { id = '', pageId = '' } = useParams();
  const navigate = useNavigate();
  const found = useDocument(id);
  useRememberOpened(found.data);
  const doc = found.data?.doc ?? null;
  const pages = useMemo(() => (doc ? bookPages(doc) : []), [doc]);
  const index = pages.findIndex((p) => p.page.id === pageId);
  const current = index >= 0 ? pages[index]! : null;
  const previous = index > 0 ? pages[index - 1]! : null;
  const next = index >= 0 && index < pages.length - 1 ? pages[index + 1]! : null;
  const html = useMemo(() => (current ? bookPageHtml(current.page.html) : ''), [current]);

  useEffect(() => {
    if (doc && current) void rememberPage(doc.id, current.page.id);
  }, [doc, current]);

  const goPrevious = () => {
    if (doc && previous) navigate(bookPagePath(doc.id, previous.page.id));
  };
  const goNext = () => {
    if (doc && next) navigate(bookPagePath(doc.id, next.page.id));
  };
  useArrowKeys(goPrevious, goNext);
  const swipe = useSwipe({ onPrevious: goPrevious, onNext: goNext });

  if (found.loading) return <LoadingText />;
  if (!doc || doc.kind !== 'book' || !current) return <DocumentNotFound />;

  return (
    <div className="page book-page">
      <p className="doc-header__back">
        <Link to={documentPath(doc.id)}>Contents of {doc.title}</Link>
      </p>
      <article className="book-page__article card" aria-labelledby="main-heading" {...swipe}>
        <p className="book-page__chapter">{current.chapterTitle}</p>
        <PageHeading>{current.page.title}</PageHeading>
        {/* Sanitised with DOMPurify (SPEC §5) just above; never the raw HTML. */}
        <div className="book-page__text" dangerouslySetInnerHTML={{ __html: html }} />
        {current.page.images.map((image) => (
          <PageImage key={image.id} doc={doc} image={image} />
        ))}
      </article>
      <nav className="book-page__nav" aria-label="Pages">
        {previous ? (
          <Link className="button button--secondary" to={bookPagePath(doc.id, previous.page.id)} rel="prev">
            <span aria-hidden="true">← </span>Previous<span className="visually-hidden">: {previous.page.title}</span>
          </Link>
        ) : (
          <span />
        )}
        <span className="book-page__position">
          Page {index + 1} of {pages.length}
        </span>
        {next ? (
          <Link className="button button--primary" to={bookPagePath(doc.id, next.page.id)} rel="next">
            Next<span className="visually-hidden">: {next.page.title}</span>
            <span aria-hidden="true"> →</span>
          </Link>
        ) : (
          <Link className="button button--secondary" to={documentPath(doc.id)}>
            Back to the contents
          </Link>
        )}
      </nav>
      <p className="small-print book-page__hint">Tip: use the left and right arrow keys, or swipe, to turn the page.</p>
    </div>
  );
}
