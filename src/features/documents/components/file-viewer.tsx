import { lazy, Suspense, useEffect, useState } from 'react';
import { LoadingText } from '@/components/loading-text';
import { useDocumentFile, type DocumentFileView } from '@/data/documents/use-document-file';
import { documentFiles, type DocumentWithState } from '@/data/replica/documents';
import { documentTexts } from '../document-texts';
import { blobText } from '../read-blob';
import { ImageViewer } from './image-viewer';

// pdf.js is loaded only here, and only for a PDF (its own chunk, never in the first load).
const PdfViewer = lazy(() => import('./pdf-viewer').then((m) => ({ default: m.PdfViewer })));

/** Not on this device, and no connection: said plainly (no spinner that never ends). */
export function NotOnDevice({ text = documentTexts.notOnDevice }: { text?: string }) {
  return (
    <p className="doc-offline" role="status">
      {text}
    </p>
  );
}

/** What a file view says while it is not ready (loading, offline, missing). */
export function FileViewState({ view }: { view: DocumentFileView }) {
  if (view.status === 'offline') return <NotOnDevice />;
  if (view.status === 'missing') return <p role="alert">This file could not be opened. Please try again later.</p>;
  return <LoadingText />;
}

/** Plain text, shown as text (never as HTML). */
function TextViewer({ blob, title }: { blob: Blob; title: string }) {
  const [text, setText] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void blobText(blob).then((value) => {
      if (live) setText(value);
    });
    return () => {
      live = false;
    };
  }, [blob]);
  if (text === null) return <LoadingText />;
  return (
    // Focusable: a long text scrolls inside its box with the keyboard too.
    <pre className="doc-text" tabIndex={0} aria-label={`Text of ${title}`}>
      {text}
    </pre>
  );
}

/**
 * The file of a `file` document in the viewer its type needs. Kept on the device: from its
 * decrypted bytes. Not kept: online, fetched (or streamed, for video and audio); offline, the plain
 * message.
 */
export function FileViewer({ item }: { item: DocumentWithState }) {
  const { doc } = item;
  const file = documentFiles(doc)[0] ?? null;
  const mime = file?.mime ?? doc.mime ?? '';
  const media = mime.startsWith('video/') || mime.startsWith('audio/');
  const view = useDocumentFile(doc.id, file, { stream: media });
  if (view.status !== 'ready') return <FileViewState view={view} />;

  if (mime === 'application/pdf' && view.blob) {
    return (
      <Suspense fallback={<LoadingText />}>
        <PdfViewer blob={view.blob} title={doc.title} />
      </Suspense>
    );
  }
  if (mime.startsWith('image/')) return <ImageViewer url={view.url} alt={doc.title} />;
  if (mime.startsWith('video/')) {
    return (
      <figure className="doc-media">
        <video className="doc-media__video" src={view.url} controls playsInline preload="metadata" aria-label={doc.title} />
        {doc.description ? <figcaption>{doc.description}</figcaption> : null}
      </figure>
    );
  }
  if (mime.startsWith('audio/')) {
    return (
      <figure className="doc-media">
        <audio className="doc-media__audio" src={view.url} controls preload="metadata" aria-label={doc.title} />
        {doc.description ? <figcaption>{doc.description}</figcaption> : null}
      </figure>
    );
  }
  if (mime.startsWith('text/') && view.blob) return <TextViewer blob={view.blob} title={doc.title} />;
  return <p>This kind of file can’t be shown here.</p>;
}
