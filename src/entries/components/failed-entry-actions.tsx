import './entry.css';
import { useRef, useState } from 'react';
import { flushSync } from 'react-dom';
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
  const root = useRef<HTMLDivElement>(null);
  // Discard or "Keep the other one", whichever opened the dialog: the focus comes back to it.
  const opener = useRef<HTMLButtonElement>(null);
  const noun = NOUN[kind];
  const conflict = isEditConflict(entry);

  /**
   * Runs a choice; the buttons stay focusable meanwhile (aria-disabled and this guard, not
   * disabled, which drops the keyboard focus). Done, these actions go with the refusal: the focus
   * goes to the entry's card, or to the page's heading when the entry has left the list. Refused,
   * it stays on the button pressed (or comes back to the one that opened the dialog).
   */
  const run = async (work: () => Promise<{ ok: true } | { ok: false; message: string }>, options: { done?: string; leaves?: boolean } = {}) => {
    if (busy) return;
    const fromDialog = confirming;
    const card = cardOf(root.current);
    setBusy(true);
    const result = await work().catch(() => ({ ok: false as const, message: conflict ? entryMessages.updateFailed : `This ${noun} was not sent.` }));
    // The dialog leaves the page before the focus moves: while it is open, the page behind is inert.
    flushSync(() => {
      setBusy(false);
      setConfirming(false);
    });
    if (!result.ok) {
      toast.error(result.message);
      // A button pressed here kept the focus; the dialog's went with it.
      if (fromDialog) opener.current?.focus();
      return;
    }
    if (options.done) toast.success(options.done);
    if (!options.leaves && card?.isConnected) focusCard(card);
    else document.getElementById('main-heading')?.focus();
  };
  const ask = () => busy || setConfirming(true);
  const keep = () => {
    flushSync(() => setConfirming(false));
    opener.current?.focus();
  };

  if (conflict) {
    const other = otherVersionOf(entry)!;
    return (
      <div ref={root} className="failed-entry failed-entry--conflict">
        <p className="failed-entry__message" role="alert">
          {entryMessages.editConflict} Which one do you want to keep?
        </p>
        <div className="conflict-versions">
          <Version title="Yours, on this phone or tablet" doc={entry} />
          <Version title="The other one" doc={other} />
        </div>
        <div className="failed-entry__actions">
          {/* aria-disabled and the guard in run, not disabled: a disabled button drops the keyboard focus. */}
          <button type="button" className="button button--primary" aria-disabled={busy || undefined} onClick={() => void run(() => keepMine(kind, entry.id), { done: 'We will keep yours.' })}>
            Keep mine
          </button>
          <button ref={opener} type="button" className="button button--secondary" aria-disabled={busy || undefined} onClick={ask}>
            Keep the other one
          </button>
          {/* This card shows the other one now; the new entry is yours. */}
          <button type="button" className="button button--secondary" aria-disabled={busy || undefined} onClick={() => void run(() => keepBoth(kind, entry.id), { done: `Both kept: yours is now a new ${noun}.` })}>
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
            onDiscard={() => void run(() => keepOther(kind, entry.id), { done: 'We kept the other one.' })}
            onKeep={keep}
          />
        ) : null}
      </div>
    );
  }

  return (
    <div ref={root} className="failed-entry">
      <p className="failed-entry__message" role="alert">
        {entry.sync_message ?? `This ${noun} was not sent.`}
      </p>
      <RefusedFieldsList kind={kind} id={entry.id} />
      <div className="failed-entry__actions">
        {/* aria-disabled and the guard in run, not disabled: a disabled button drops the keyboard focus. */}
        <button type="button" className="button button--secondary" aria-disabled={busy || undefined} onClick={() => void run(() => retryFailedEntry(kind, entry.id))}>
          Try again<span className="visually-hidden"> to send this {noun}</span>
        </button>
        <button ref={opener} type="button" className="button button--ghost" aria-disabled={busy || undefined} onClick={ask}>
          Discard<span className="visually-hidden"> this {noun}</span>
        </button>
      </div>
      {confirming ? (
        <DiscardDialog
          text={unsentDiscardText(`Discard this ${noun}?`)}
          words={entry.description ?? ''}
          busy={busy}
          onDiscard={() => void run(() => discardFailedEntry(kind, entry.id), { done: `The ${noun} was discarded`, leaves: leavesOnDiscard(entry) })}
          onKeep={keep}
        />
      ) : null}
    </div>
  );
}

/** The entry's card in its list (a journal article, a voice list item), which stays when the refusal goes. */
const cardOf = (element: HTMLElement | null): HTMLElement | null => element?.closest<HTMLElement>('article, li') ?? null;

function focusCard(card: HTMLElement): void {
  // The journal's card is not focusable of its own (the voice list's items are, for Load more).
  if (!card.hasAttribute('tabindex')) card.tabIndex = -1;
  card.focus();
}

/**
 * Discarded, a refused entry goes back to the server's copy parked beside it, or leaves the list
 * when there is none (never sent, or deleted elsewhere), as discardLocalChange does. Decided from
 * the entry, not from whether the card is still on the page: the list drops it a moment later.
 */
function leavesOnDiscard(entry: EntryDoc): boolean {
  const parked = entry.sync_server as { _deleted?: boolean } | null | undefined;
  return !parked || parked._deleted === true;
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
