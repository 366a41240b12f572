import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { GalleryItem } from '@/contract/documents';
import { useDocumentFile } from '@/data/documents/use-document-file';
import { documentFile, galleryItems, type DocumentWithState } from '@/data/replica/documents';
import type { DocumentDoc } from '@/data/replica/types';
import { useOnlineStatus } from '@/data/use-online-status';
import { keptStatus } from '../document-format';
import { NotOnDevice } from './file-viewer';
import { useSwipe } from './use-swipe';

const itemName = (item: GalleryItem, index: number, total: number): string =>
  `${item.kind === 'video' ? 'Video' : 'Picture'} ${index + 1} of ${total}`;

function Thumbnail({ doc, item }: { doc: DocumentDoc; item: GalleryItem }) {
  const view = useDocumentFile(doc.id, item.kind === 'image' ? documentFile(doc, item.id) : null);
  if (item.kind === 'video') {
    return (
      <span className="gallery__thumb gallery__thumb--video" aria-hidden="true">
        ▶
      </span>
    );
  }
  return view.status === 'ready' ? (
    <img src={view.url} alt="" className="gallery__thumb" />
  ) : (
    <span className="gallery__thumb gallery__thumb--missing" aria-hidden="true">
      {view.status === 'offline' ? '–' : '…'}
    </span>
  );
}

function ViewerMedia({ doc, item, name }: { doc: DocumentDoc; item: GalleryItem; name: string }) {
  const view = useDocumentFile(doc.id, documentFile(doc, item.id), { stream: item.kind === 'video' });
  if (view.status === 'offline') return <NotOnDevice text="This isn't saved on this device. Connect to the internet to see it, or turn on Keep offline next time." />;
  if (view.status !== 'ready') return <p className="gallery-viewer__loading">{view.status === 'missing' ? 'This could not be opened.' : 'Loading…'}</p>;
  if (item.kind === 'video') {
    return <video key={item.id} className="gallery-viewer__media" src={view.url} controls playsInline preload="metadata" aria-label={item.caption || name} />;
  }
  return <img className="gallery-viewer__media" src={view.url} alt={item.caption || name} />;
}

/**
 * A gallery: a grid of its pictures and videos with their captions; each opens full screen in a
 * modal dialog (the focus stays inside, Escape closes, the focus goes back to the picture opened)
 * with its caption, previous and next (buttons, the arrow keys, a swipe).
 */
export function GalleryView({ item: docItem }: { item: DocumentWithState }) {
  const { doc, state } = docItem;
  const online = useOnlineStatus();
  const items = galleryItems(doc);
  const [open, setOpen] = useState<number | null>(null);
  const triggers = useRef<(HTMLButtonElement | null)[]>([]);
  const status = keptStatus(doc, state);

  return (
    <div className="gallery">
      {!online && status.kind !== 'kept' && status.kind !== 'ready' ? <NotOnDevice /> : null}
      <ul className="gallery__grid" aria-label="Pictures and videos">
        {items.map((item, index) => (
          <li key={item.id} className="gallery__cell">
            <button
              ref={(element) => {
                triggers.current[index] = element;
              }}
              type="button"
              className="gallery__button"
              onClick={() => setOpen(index)}
            >
              <Thumbnail doc={doc} item={item} />
              <span className="gallery__caption">
                <span className="visually-hidden">{itemName(item, index, items.length)}: </span>
                {item.caption || itemName(item, index, items.length)}
                {item.kind === 'video' ? <span className="gallery__kind"> (video)</span> : null}
              </span>
            </button>
          </li>
        ))}
      </ul>
      {open !== null && items[open] ? (
        <GalleryDialog
          doc={doc}
          items={items}
          index={open}
          onMove={setOpen}
          onClose={(last) => {
            setOpen(null);
            triggers.current[last]?.focus();
          }}
        />
      ) : null}
    </div>
  );
}

function GalleryDialog({ doc, items, index, onMove, onClose }: { doc: DocumentDoc; items: GalleryItem[]; index: number; onMove: (index: number) => void; onClose: (last: number) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const item = items[index]!;
  const name = itemName(item, index, items.length);
  const previous = () => onMove(Math.max(0, index - 1));
  const next = () => onMove(Math.min(items.length - 1, index + 1));
  const swipe = useSwipe({ onPrevious: previous, onNext: next });

  const closeButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element || element.open) return;
    if (typeof element.showModal === 'function') element.showModal();
    else element.setAttribute('open', '');
    closeButton.current?.focus();
  }, []);

  const close = () => {
    if (dialog.current?.open && typeof dialog.current.close === 'function') dialog.current.close();
    onClose(index);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target as HTMLElement;
    if (target.closest('video, audio')) return; // their own keys (seek, volume)
    if (event.key === 'ArrowLeft') previous();
    else if (event.key === 'ArrowRight') next();
    else if (event.key === 'Escape' && typeof dialog.current?.showModal !== 'function') close();
    else return;
    event.preventDefault();
  };

  return (
    <dialog
      ref={dialog}
      className="gallery-viewer"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
      onKeyDown={onKeyDown}
    >
      <div className="gallery-viewer__bar">
        <h2 id={titleId} className="gallery-viewer__title" aria-live="polite">
          {name}
        </h2>
        <button ref={closeButton} type="button" className="button button--secondary" onClick={close}>
          Close
        </button>
      </div>
      <figure className="gallery-viewer__figure" {...swipe}>
        <ViewerMedia doc={doc} item={item} name={name} />
        {item.caption ? <figcaption className="gallery-viewer__caption">{item.caption}</figcaption> : null}
      </figure>
      <div className="gallery-viewer__nav">
        <button type="button" className="button button--secondary" onClick={previous} aria-disabled={index === 0 || undefined}>
          <span aria-hidden="true">← </span>Previous
        </button>
        <button type="button" className="button button--secondary" onClick={next} aria-disabled={index === items.length - 1 || undefined}>
          Next<span aria-hidden="true"> →</span>
        </button>
      </div>
    </dialog>
  );
}
