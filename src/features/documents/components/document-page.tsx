import { useEffect, type ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { LoadingText } from '@/components/loading-text';
import { Notice } from '@/components/notice';
import { PageHeading } from '@/components/page-heading';
import type { DocumentWithState } from '@/data/replica/documents';
import { rememberOpened } from '../actions/remember';
import { documentTexts } from '../document-texts';
import { formatBytes, formatDate, kindLabel } from '../document-format';
import { DOCUMENTS_PATH } from '../document-paths';
import { useDocument } from '../hooks/use-documents';
import { BookContents } from './book-contents';
import { FileViewer } from './file-viewer';
import { FormDocument } from './form-document';
import { GalleryView } from './gallery-view';
import { KeepSwitch, KeptLine } from './keep-switch';
import './documents.css';

export function DocumentNotFound() {
  return (
    <Notice
      title={documentTexts.notFound}
      actions={
        <Link to={DOCUMENTS_PATH} className="button button--primary">
          All documents
        </Link>
      }
    >
      <p>{documentTexts.notFoundHelp}</p>
    </Notice>
  );
}

/** The document's heading, words and place on the device (every kind's page starts with it). */
export function DocumentHeader({ item, heading, children }: { item: DocumentWithState; heading?: ReactNode; children?: ReactNode }) {
  const { doc, state } = item;
  return (
    <header className="doc-header">
      <p className="doc-header__back">
        <Link to={DOCUMENTS_PATH}>All documents</Link>
      </p>
      {heading ?? <PageHeading>{doc.title}</PageHeading>}
      {children}
      {doc.description && !heading ? <p className="lead">{doc.description}</p> : null}
      <p className="doc-item__meta">
        <span>{kindLabel(doc)}</span>
        {doc.size > 0 ? <span>{formatBytes(doc.size)}</span> : null}
        <span>{doc.version > 1 ? `Updated ${formatDate(doc.content_updated_at)}` : `Shared ${formatDate(doc.created_at)}`}</span>
      </p>
      <div className="doc-item__keep">
        <KeptLine doc={doc} state={state} />
        <KeepSwitch doc={doc} state={state} />
      </div>
    </header>
  );
}

/** Opening a document: "New" and "Updated" go (the version seen is remembered on the device). */
export function useRememberOpened(item: DocumentWithState | null): void {
  const id = item?.doc.id ?? null;
  const version = item?.doc.version ?? null;
  const opened = item?.state?.opened_version ?? null;
  useEffect(() => {
    if (id && version !== null && opened !== version) void rememberOpened({ id, version });
  }, [id, version, opened]);
}

/**
 * /documents/{id}: one document, shown by its kind: a file in its viewer (PDF, picture, video,
 * recording, text), a book's contents, a gallery's grid, a form to fill in or the answers sent.
 */
export function DocumentPage() {
  const { id = '' } = useParams();
  const found = useDocument(id);
  useRememberOpened(found.data);
  if (found.loading) return <LoadingText />;
  const item = found.data;
  if (!item) return <DocumentNotFound />;
  const { doc } = item;
  return (
    <div className="page document">
      <DocumentHeader item={item} />
      {doc.kind === 'file' ? <FileViewer item={item} /> : null}
      {doc.kind === 'book' ? <BookContents item={item} /> : null}
      {doc.kind === 'gallery' ? <GalleryView item={item} /> : null}
      {doc.kind === 'form' ? <FormDocument item={item} /> : null}
    </div>
  );
}
