import './entry.css';
import { useState } from 'react';
import { entryMessages } from '@/contract/entry-messages';
import type { EntryKind } from '@/contract/entry-kind';
import type { EntryDoc } from '@/data/replica/types';
import { useToast } from '@/components/use-toast';
import { isEditConflict, otherVersionOf } from '../data/conflict-state';
import { keepBoth, keepMine, keepOther } from '../data/edit-conflict';
import { entryEditDraftKey } from '../data/draft-keys';
import { fieldErrorsOf } from '../data/entry-fields';
import { discardFailedEntry, retryFailedEntry } from '../data/failed-entry';
import { useRefusedFields } from '../hooks/use-refused-fields';
import { DiscardDialog, unsentDiscardText } from './discard-dialog';
import { PlainText } from './attachments';

const NOUN: Record<EntryKind, string> = { journal: 'entry', voice: 'message' };

/**
 * Under an entry the server refused (issue 12, "failed writes are never stuck"): why, then Try
 * again (sent as it is) and Discard, which asks first and offers the words to copy. Changing it is
 * the entry's own Edit link where it has one. An edit conflict (another device changed the entry
 * first) is the same card with both versions and the same three ways out, named for what they do:
 * Keep mine (sent again, over the other one), Keep the other one (asks first, like Discard) and
 * Keep both (mine becomes a new entry).
 */
export function FailedEntryActions({ kind, entry }: { kind: EntryKind; entry: EntryDoc }) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const noun = NOUN[kind];
  const conflict = isEditConflict(entry);

  const run = async (work: () => Promise<{ ok: true } | { ok: false; message: string }>, done?: string) => {
    setBusy(true);
    const result = await work().catch(() => ({ ok: false as const, message: conflict ? entryMessages.updateFailed : `This ${noun} was not sent.` }));
    setBusy(false);
    setConfirming(false);
    if (!result.ok) toast.error(result.message);
    else if (done) toast.success(done);
  };

  if (conflict) {
    const other = otherVersionOf(entry)!;
    return (
      <div className="failed-entry failed-entry--conflict">
        <p className="failed-entry__message" role="alert">
          {entryMessages.editConflict} Which one do you want to keep?
        </p>
        <div className="conflict-versions">
          <Version title="Yours, on this phone or tablet" doc={entry} />
          <Version title="The other one" doc={other} />
        </div>
        <div className="failed-entry__actions">
          <button type="button" className="button button--primary" disabled={busy} onClick={() => void run(() => keepMine(kind, entry.id), 'We will keep yours.')}>
            Keep mine
          </button>
          <button type="button" className="button button--secondary" disabled={busy} onClick={() => setConfirming(true)}>
            Keep the other one
          </button>
          <button type="button" className="button button--secondary" disabled={busy} onClick={() => void run(() => keepBoth(kind, entry.id), `Both kept: yours is now a new ${noun}.`)}>
            Keep both
          </button>
        </div>
        <p className="small-print">Keep both saves yours as a new {noun}.</p>
        {confirming ? (
          <DiscardDialog
            text={{
              title: 'Keep the other one?',
              help: `Yours will be deleted from this device. You can copy your words first.`,
              helpNoWords: `Yours will be deleted from this device.`,
              confirm: 'Keep the other one',
              cancel: 'Go back',
            }}
            words={entry.description ?? ''}
            busy={busy}
            onDiscard={() => void run(() => keepOther(kind, entry.id), 'We kept the other one.')}
            onKeep={() => setConfirming(false)}
          />
        ) : null}
      </div>
    );
  }

  return (
    <div className="failed-entry">
      <p className="failed-entry__message" role="alert">
        {entry.sync_message ?? `This ${noun} was not sent.`}
      </p>
      <RefusedFieldsList kind={kind} id={entry.id} />
      <div className="failed-entry__actions">
        <button type="button" className="button button--secondary" disabled={busy} onClick={() => void run(() => retryFailedEntry(kind, entry.id))}>
          Try again<span className="visually-hidden"> to send this {noun}</span>
        </button>
        <button type="button" className="button button--ghost" disabled={busy} onClick={() => setConfirming(true)}>
          Discard<span className="visually-hidden"> this {noun}</span>
        </button>
      </div>
      {confirming ? (
        <DiscardDialog
          text={unsentDiscardText(`Discard this ${noun}?`)}
          words={entry.description ?? ''}
          busy={busy}
          onDiscard={() => void run(() => discardFailedEntry(kind, entry.id), `The ${noun} was discarded`)}
          onKeep={() => setConfirming(false)}
        />
      ) : null}
    </div>
  );
}

/**
 * What the server said about the entry's fields: its form shows each beside its field, and the
 * card, which has no fields, lists them, so the reason is not only inside the form.
 */
function RefusedFieldsList({ kind, id }: { kind: EntryKind; id: string }) {
  const refusal = useRefusedFields(entryEditDraftKey(kind, id));
  const reasons = refusal ? Object.values(fieldErrorsOf(kind, refusal.errors)) : [];
  if (reasons.length === 0) return null;
  return (
    <ul className="failed-entry__reasons">
      {reasons.map((reason) => (
        <li key={reason}>{reason}</li>
      ))}
    </ul>
  );
}

/** One side of an edit conflict: its words (as text), reaction, and whether it has a drawing or files. */
function Version({ title, doc }: { title: string; doc: EntryDoc }) {
  const extras = [doc.reaction ? `Feeling: ${doc.reaction}` : null, doc.canvas ? 'A drawing' : null, doc.files.length ? (doc.files.length === 1 ? '1 photo or file' : `${doc.files.length} photos or files`) : null].filter(Boolean);
  return (
    <section className="conflict-version" aria-label={title}>
      <h3 className="conflict-version__title">{title}</h3>
      <PlainText value={doc.description} />
      {extras.length ? <p className="small-print">{extras.join(' · ')}</p> : null}
    </section>
  );
}
