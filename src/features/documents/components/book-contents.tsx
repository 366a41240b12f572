import { useId } from 'react';
import { Link } from 'react-router-dom';
import { bookPages, type DocumentWithState } from '@/data/replica/documents';
import { useOnlineStatus } from '@/data/use-online-status';
import { bookPagePath } from '../document-paths';
import { keptStatus } from '../document-format';
import { NotOnDevice } from './file-viewer';

/**
 * A book's table of contents: "Continue reading" at the page the young person stopped at (kept on
 * the device), or "Start reading"; then each chapter with its pages.
 */
export function BookContents({ item }: { item: DocumentWithState }) {
  const { doc, state } = item;
  const online = useOnlineStatus();
  const pages = bookPages(doc);
  const chapters = doc.book?.chapters ?? [];
  const reading = pages.find((p) => p.page.id === state?.reading?.page_id) ?? null;
  const first = pages[0] ?? null;
  const contentsId = useId();
  const status = keptStatus(doc, state);

  return (
    <div className="book-contents">
      {!online && status.kind !== 'kept' && status.kind !== 'ready' ? (
        <NotOnDevice text="This book isn't saved on this device, so its pictures won't show. Its words are here. Connect to the internet to see the pictures, or turn on Keep offline next time." />
      ) : null}
      <p className="actions">
        {reading ? (
          <Link className="button button--primary" to={bookPagePath(doc.id, reading.page.id)}>
            Continue reading: {reading.page.title}
          </Link>
        ) : first ? (
          <Link className="button button--primary" to={bookPagePath(doc.id, first.page.id)}>
            Start reading
          </Link>
        ) : null}
      </p>
      <nav aria-labelledby={contentsId} className="book-contents__nav">
        <h2 id={contentsId} className="section-title">
          Contents
        </h2>
        <ol className="book-contents__chapters">
          {chapters.map((chapter) => (
            <li key={chapter.id} className="book-contents__chapter">
              <h3 className="book-contents__chapter-title">{chapter.title}</h3>
              <ol className="book-contents__pages">
                {pages
                  .filter((p) => p.page.chapter_id === chapter.id)
                  .map((p) => (
                    <li key={p.page.id}>
                      <Link to={bookPagePath(doc.id, p.page.id)} aria-current={reading?.page.id === p.page.id ? 'location' : undefined}>
                        {p.page.title}
                      </Link>
                      {reading?.page.id === p.page.id ? <span className="book-contents__here"> (where you stopped)</span> : null}
                    </li>
                  ))}
              </ol>
            </li>
          ))}
        </ol>
      </nav>
    </div>
  );
}
