import './entry.css';
import { useEffect, useRef, useState } from 'react';
import type { EntryKind } from '@/contract/entry-kind';
import type { EntryDoc } from '@/data/replica/types';
import { useToast } from '@/components/use-toast';
import { discardFailedEntry, retryFailedEntry } from '../data/failed-entry';

const NOUN: Record<EntryKind, string> = { journal: 'entry', voice: 'message' };

/**
 * Under an entry the server refused (issue 12, "failed writes are never stuck"): why, then Try
 * again (sent as it is) and Discard, which asks first and offers the words to copy. Changing it is
 * the entry's own Edit link where it has one.
 */
export function FailedEntryActions({ kind, entry }: { kind: EntryKind; entry: EntryDoc }) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const noun = NOUN[kind];

  const retry = async () => {
    setBusy(true);
    const result = await retryFailedEntry(kind, entry.id);
    setBusy(false);
    if (!result.ok) toast.error(result.message);
  };
  const discard = async () => {
    setBusy(true);
    const result = await discardFailedEntry(kind, entry.id);
    setBusy(false);
    setConfirming(false);
    if (result.ok) toast.success(`The ${noun} was discarded`);
    else toast.error(result.message);
  };

  return (
    <div className="failed-entry">
      <p className="failed-entry__message" role="alert">
        {entry.sync_message ?? `This ${noun} was not sent.`}
      </p>
      <div className="failed-entry__actions">
        <button type="button" className="button button--secondary" disabled={busy} onClick={() => void retry()}>
          Try again<span className="visually-hidden"> to send this {noun}</span>
        </button>
        <button type="button" className="button button--ghost" disabled={busy} onClick={() => setConfirming(true)}>
          Discard<span className="visually-hidden"> this {noun}</span>
        </button>
      </div>
      {confirming ? <DiscardDialog noun={noun} words={entry.description ?? ''} busy={busy} onDiscard={() => void discard()} onKeep={() => setConfirming(false)} /> : null}
    </div>
  );
}

function DiscardDialog({ noun, words, busy, onDiscard, onKeep }: { noun: string; words: string; busy: boolean; onDiscard: () => void; onKeep: () => void }) {
  const toast = useToast();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element || element.open) return;
    if (typeof element.showModal === 'function') element.showModal();
    else element.setAttribute('open', '');
  }, []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(words);
      toast.success('Your words were copied');
    } catch {
      toast.error('Copying did not work here. Select the words above and copy them.');
    }
  };

  return (
    <dialog ref={dialog} className="dialog" aria-labelledby="discard-title" aria-describedby="discard-help" onCancel={onKeep}>
      <h2 id="discard-title" className="section-title">
        Discard this {noun}?
      </h2>
      <p id="discard-help">
        {words
          ? `It will be deleted from this device and not sent. You can copy your words first.`
          : `It will be deleted from this device and not sent.`}
      </p>
      {words ? <textarea className="failed-entry__words" readOnly aria-label="Your words" value={words} rows={4} /> : null}
      <div className="dialog__actions">
        {words ? (
          <button type="button" className="button button--secondary" onClick={() => void copy()}>
            Copy my words
          </button>
        ) : null}
        <button type="button" className="button button--secondary" disabled={busy} onClick={onDiscard}>
          Discard
        </button>
        <button type="button" className="button button--primary" disabled={busy} onClick={onKeep}>
          Keep it
        </button>
      </div>
    </dialog>
  );
}
