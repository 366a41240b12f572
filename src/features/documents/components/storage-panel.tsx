import { useEffect, useId, useRef, useState } from 'react';
import type { DocumentWithState } from '@/data/replica/documents';
import { freeAllDocuments } from '../actions/keep-offline';
import { formatBytes } from '../document-format';
import { useStorageEstimate } from '../hooks/use-storage-estimate';

/**
 * How much space kept documents take on this device (Hearth's own count of the bytes it stores for
 * them), what the browser says Hearth uses in all (`navigator.storage.estimate()`, where it can), and
 * "Free all" behind a confirmation.
 */
export function StoragePanel({ items }: { items: readonly DocumentWithState[] }) {
  const kept = items.filter((item) => (item.state?.kept?.bytes ?? 0) > 0);
  const bytes = kept.reduce((sum, item) => sum + (item.state?.kept?.bytes ?? 0), 0);
  const estimate = useStorageEstimate(bytes);
  const [confirming, setConfirming] = useState(false);
  const [freed, setFreed] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const titleId = useId();

  return (
    <section className="documents__storage callout" aria-labelledby={titleId}>
      <h2 className="section-title" id={titleId} ref={heading} tabIndex={-1}>
        Space on this device
      </h2>
      <p>
        {kept.length === 0
          ? 'No documents are saved on this device.'
          : `Documents saved on this device use ${formatBytes(bytes)} (${kept.length} ${kept.length === 1 ? 'document' : 'documents'}).`}
      </p>
      {estimate ? (
        <p className="small-print">{`Hearth uses ${formatBytes(estimate.usage)} on this device in all, of ${formatBytes(estimate.quota)} this browser allows.`}</p>
      ) : null}
      {freed && kept.length === 0 ? (
        <p className="small-print" role="status">
          Space freed. Documents will open when you are online; turn on Keep offline to save one again.
        </p>
      ) : null}
      {kept.length > 0 ? (
        <button ref={opener} type="button" className="button button--secondary" onClick={() => setConfirming(true)}>
          Free all
        </button>
      ) : null}
      {confirming ? (
        <FreeAllDialog
          bytes={bytes}
          onClose={(didFree) => {
            setConfirming(false);
            if (didFree) {
              setFreed(true);
              // The button is gone with what it freed: the panel's heading takes the focus.
              heading.current?.focus();
            } else {
              opener.current?.focus();
            }
          }}
        />
      ) : null}
    </section>
  );
}

function FreeAllDialog({ bytes, onClose }: { bytes: number; onClose: (freed: boolean) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const titleId = useId();
  const helpId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element || element.open) return;
    if (typeof element.showModal === 'function') element.showModal();
    else element.setAttribute('open', '');
  }, []);

  const free = async () => {
    setBusy(true);
    await freeAllDocuments();
    setBusy(false);
    dialog.current?.close?.();
    onClose(true);
  };

  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby={titleId}
      aria-describedby={helpId}
      onCancel={(event) => {
        event.preventDefault();
        dialog.current?.close?.();
        onClose(false);
      }}
    >
      <h2 id={titleId} className="section-title">
        Free {formatBytes(bytes)}?
      </h2>
      <p id={helpId}>Every document saved on this device is removed from it, and Keep offline is turned off for each. You can still open them when you are online.</p>
      <div className="dialog__actions">
        <button type="button" className="button button--primary" aria-disabled={busy || undefined} onClick={() => void (busy ? undefined : free())}>
          Free all
        </button>
        <button
          type="button"
          className="button button--ghost"
          onClick={() => {
            dialog.current?.close?.();
            onClose(false);
          }}
        >
          Cancel
        </button>
      </div>
    </dialog>
  );
}
