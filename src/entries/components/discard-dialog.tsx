import './entry.css';
import { useEffect, useRef } from 'react';
import { useToast } from '@/components/use-toast';

export interface DiscardDialogText {
  /** The question, as the dialog's name ("Discard this entry?"). */
  readonly title: string;
  /** What happens, when there are words to copy first. */
  readonly help: string;
  /** What happens, when there are none. */
  readonly helpNoWords: string;
  /** The button that goes ahead ("Discard"). */
  readonly confirm: string;
  /** The button that changes nothing ("Keep it"). */
  readonly cancel: string;
}

/** The dialog's words for something written here that was never sent (an entry, a reply, a comment). */
export const unsentDiscardText = (title: string): DiscardDialogText => ({
  title,
  help: 'It will be deleted from this device and not sent. You can copy your words first.',
  helpNoWords: 'It will be deleted from this device and not sent.',
  confirm: 'Discard',
  cancel: 'Keep it',
});

/**
 * Asks before something the young person wrote leaves the device for good (a refused entry, reply
 * or comment; their side of an edit conflict): shows the words and offers "Copy my words" first.
 * While it is open (modal) the page behind is inert: whoever closes it moves the focus once it has
 * left the page (flushSync, or an effect), not before, or the focus is lost.
 */
export function DiscardDialog({ text, words, busy, onDiscard, onKeep }: { text: DiscardDialogText; words: string; busy: boolean; onDiscard: () => void; onKeep: () => void }) {
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
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby="discard-title"
      aria-describedby="discard-help"
      onCancel={(event) => {
        // Escape is "Keep it": not while the choice is being carried out (that button waits too).
        event.preventDefault();
        if (!busy) onKeep();
      }}
    >
      <h2 id="discard-title" className="section-title">
        {text.title}
      </h2>
      <p id="discard-help">{words ? text.help : text.helpNoWords}</p>
      {words ? <textarea className="failed-entry__words" readOnly aria-label="Your words" value={words} rows={4} /> : null}
      <div className="dialog__actions">
        {words ? (
          <button type="button" className="button button--secondary" onClick={() => void copy()}>
            Copy my words
          </button>
        ) : null}
        {/* aria-disabled and a guard, not disabled: a disabled button drops the keyboard focus. */}
        <button type="button" className="button button--secondary" aria-disabled={busy || undefined} onClick={() => busy || onDiscard()}>
          {text.confirm}
        </button>
        <button type="button" className="button button--primary" aria-disabled={busy || undefined} onClick={() => busy || onKeep()}>
          {text.cancel}
        </button>
      </div>
    </dialog>
  );
}
