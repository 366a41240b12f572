import { useId, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { EmptyState } from '@/components/empty-state';
import { HeldRegion } from '@/components/held-region';
import { LoadingText } from '@/components/loading-text';
import { PageHeading } from '@/components/page-heading';
import { documentMark, type DocumentWithState } from '@/data/replica/documents';
import { documentPath } from '../document-paths';
import { formatBytes, formatDate, kindLabel, matches } from '../document-format';
import { useDocuments } from '../hooks/use-documents';
import { KeepSwitch, KeptLine } from './keep-switch';
import { StoragePanel } from './storage-panel';
import './documents.css';

/** Categories by name; a document's category is staff's free text ("General" when they gave none). */
function byCategory(items: readonly DocumentWithState[]): [string, DocumentWithState[]][] {
  const groups = new Map<string, DocumentWithState[]>();
  for (const item of items) {
    const name = item.doc.category.trim() || 'General';
    groups.set(name, [...(groups.get(name) ?? []), item]);
  }
  const newest = (a: DocumentWithState, b: DocumentWithState) =>
    b.doc.content_updated_at.localeCompare(a.doc.content_updated_at) || a.doc.title.localeCompare(b.doc.title, 'en-GB');
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b, 'en-GB', { sensitivity: 'base' }))
    .map(([name, list]): [string, DocumentWithState[]] => [name, [...list].sort(newest)]);
}

function Mark({ item }: { item: DocumentWithState }) {
  const mark = documentMark(item.doc, item.state);
  if (!mark) return null;
  return <span className={`doc-mark doc-mark--${mark}`}>{mark === 'new' ? 'New' : 'Updated'}</span>;
}

function DocumentItem({ item }: { item: DocumentWithState }) {
  const { doc, state } = item;
  const titleId = useId();
  return (
    <article className="doc-item card" aria-labelledby={titleId}>
      <h3 className="doc-item__title" id={titleId}>
        <Link to={documentPath(doc.id)}>{doc.title}</Link> <Mark item={item} />
      </h3>
      {doc.description ? <p className="doc-item__description">{doc.description}</p> : null}
      <p className="doc-item__meta">
        <span>{kindLabel(doc)}</span>
        {doc.size > 0 ? <span>{formatBytes(doc.size)}</span> : null}
        <span>Shared {formatDate(doc.created_at)}</span>
      </p>
      <div className="doc-item__keep">
        <KeptLine doc={doc} state={state} />
        <KeepSwitch doc={doc} state={state} />
      </div>
    </article>
  );
}

/**
 * /documents: what staff shared with the young person and with their home, under a heading per
 * category, with a search over titles and descriptions (on the device, after decryption), "New" and
 * "Updated" in words, what each is, its size and whether it is on this device; the space kept
 * documents take, and a way to free it. From the replica: it works offline.
 */
export function DocumentsPage() {
  const documents = useDocuments();
  const [query, setQuery] = useState('');
  const searchId = useId();
  const shown = useMemo(() => documents.data.filter((item) => matches(item.doc, query)), [documents.data, query]);
  const groups = useMemo(() => byCategory(shown), [shown]);
  const searching = query.trim().length > 0;

  return (
    <div className="page documents">
      <PageHeading>Documents</PageHeading>
      <p className="lead">Things staff have shared with you and your home. Small ones are kept on this device so you can read them offline.</p>
      <HeldRegion name="documents.list" loading={documents.loading}>
        {documents.loading ? (
          <LoadingText />
        ) : documents.data.length === 0 ? (
          <EmptyState title="No documents yet.">When staff share a document with you, you will find it here.</EmptyState>
        ) : (
          <>
            <div className="documents__search" role="search">
              <label htmlFor={searchId} className="field__label">
                Search documents
              </label>
              <input id={searchId} type="search" className="documents__search-input" value={query} onChange={(event) => setQuery(event.target.value)} autoComplete="off" />
            </div>
            <p className="documents__count" role="status" id={`${searchId}-count`}>
              {searching
                ? shown.length === 0
                  ? `No documents match “${query.trim()}”.`
                  : `${shown.length} ${shown.length === 1 ? 'document matches' : 'documents match'} “${query.trim()}”.`
                : `${documents.data.length} ${documents.data.length === 1 ? 'document' : 'documents'}.`}
            </p>
            {groups.map(([category, items], index) => (
              <section key={category} className="documents__category" aria-labelledby={`${searchId}-category-${index}`}>
                <h2 className="section-title" id={`${searchId}-category-${index}`}>
                  {category}
                </h2>
                <ul className="documents__list">
                  {items.map((item) => (
                    <li key={item.doc.id}>
                      <DocumentItem item={item} />
                    </li>
                  ))}
                </ul>
              </section>
            ))}
            {/* Last: what it says changes while the screen is up (the keeper saving documents, the
                browser's estimate arriving), and growing there moves none of the documents. */}
            <StoragePanel items={documents.data} />
          </>
        )}
      </HeldRegion>
    </div>
  );
}

