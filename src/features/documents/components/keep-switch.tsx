import { useEffect, useState } from 'react';
import type { DocumentDoc, DocumentStateDoc } from '@/data/replica/types';
import { wantsKept } from '@/data/replica/documents';
import { useOnlineStatus } from '@/data/use-online-status';
import { keepOffline } from '../actions/keep-offline';
import { formatBytes, keptStatus } from '../document-format';

/** Whether the document is on this device, in words (never by colour alone). */
export function KeptLine({ doc, state }: { doc: DocumentDoc; state: DocumentStateDoc | null }) {
  const online = useOnlineStatus();
  const status = keptStatus(doc, state);
  switch (status.kind) {
    case 'ready':
      return <span className="doc-kept doc-kept--yes">✓ On this device</span>;
    case 'kept':
      return <span className="doc-kept doc-kept--yes">✓ Saved on this device ({formatBytes(status.bytes)})</span>;
    case 'saving':
      return <span className="doc-kept">{online ? `Saving on this device… ${status.percent}%` : 'Will be saved on this device when you are online'}</span>;
    default:
      return <span className="doc-kept">Not saved on this device</span>;
  }
}

/**
 * The Keep offline switch of one document (on by default for small ones): on, the device fetches
 * and keeps its files encrypted; off, it erases them. A native checkbox with the switch role, so
 * it is operated with Space and announced as on or off.
 */
export function KeepSwitch({ doc, state }: { doc: DocumentDoc; state: DocumentStateDoc | null }) {
  // What the young person just chose shows at once, before the replica has written it: a switch
  // that springs back for a moment reads as "it did not work" (and is tapped again).
  const [chosen, setChosen] = useState<boolean | null>(null);
  const stored = wantsKept(doc, state);
  const on = chosen ?? stored;
  const busy = chosen !== null;
  useEffect(() => {
    if (chosen === stored) setChosen(null);
  }, [chosen, stored]);
  const status = keptStatus(doc, state);
  if (status.kind === 'ready') return null;
  return (
    <label className="keep-switch">
      <input
        type="checkbox"
        role="switch"
        className="keep-switch__input"
        checked={on}
        // The visible words first (WCAG 2.5.3), then which document: every item has one.
        aria-label={`Keep offline: ${doc.title}`}
        aria-busy={busy || undefined}
        onChange={(event) => {
          setChosen(event.target.checked);
          // Once stored, the replica's copy takes over (the effect above); if it was not, it springs back.
          void keepOffline(doc.id, event.target.checked)
            .then((saved) => saved || setChosen(null))
            .catch(() => setChosen(null));
        }}
      />
      <span className="keep-switch__label">Keep offline</span>
    </label>
  );
}
