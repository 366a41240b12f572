import './shell-updates.css';
import { useEffect, useRef, useState } from 'react';
import type { OutboxCounts } from '@/data/outbox/queue';
import { useOutbox } from '@/data/outbox/use-outbox';
import { waitForOutboxToDrain } from '@/data/outbox/outbox';
import { countUnsentOnDevice } from '@/data/unsent-on-device';

/** How long "Wait for them to send" waits before asking again. */
export const WAIT_FOR_SEND_MS = 30_000;

export const unsentText = (count: number): string =>
  count === 1 ? 'You have 1 thing that has not been sent yet' : `You have ${count} things that have not been sent yet`;

export const unsentCount = (counts: OutboxCounts): number => counts.pending + counts.failed;

interface Props {
  /**
   * Pending or failed documents no queued write accounts for (a change the outbox could not take, or
   * whose write was lost with a closed page): the wipe would delete them, and no waiting sends them.
   */
  notQueued: number;
  /** Forms started and not sent (their drafts): waiting does not send them, the wipe deletes them. */
  drafts: number;
  /** Sign out now (after the outbox drained, or after the person chose to delete what is left). */
  onSignOut: (discard: boolean) => void;
  onCancel: () => void;
}

/**
 * Before logout, when the outbox still holds something or a form was started and not sent (SPEC §4
 * logout wipes all local data): wait for it to send, or sign out and delete it; Cancel goes back to
 * what was being written.
 */
export function UnsentDialog({ notQueued: notQueuedAtOpen, drafts: draftsAtOpen, onSignOut, onCancel }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const counts = useOutbox();
  const [waiting, setWaiting] = useState(false);
  const [stuck, setStuck] = useState(false);
  const [notQueued, setNotQueued] = useState(notQueuedAtOpen);
  const [drafts, setDrafts] = useState(draftsAtOpen);
  const waitable = unsentCount(counts) + notQueued;
  const count = waitable + drafts;

  useEffect(() => {
    const element = dialog.current;
    if (!element || element.open) return;
    if (typeof element.showModal === 'function') element.showModal();
    else element.setAttribute('open', '');
  }, []);

  const wait = async () => {
    setWaiting(true);
    setStuck(false);
    await waitForOutboxToDrain(WAIT_FOR_SEND_MS);
    // Counted again as the warning counted it: what was sent meanwhile may have settled documents.
    const left = await countUnsentOnDevice();
    setWaiting(false);
    setNotQueued(left.notQueued);
    setDrafts(left.drafts);
    if (unsentCount(left) === 0 && left.drafts === 0) onSignOut(false);
    else if (unsentCount(left) > 0) setStuck(true);
  };

  return (
    <dialog ref={dialog} className="dialog" aria-labelledby="unsent-title" aria-describedby="unsent-help" onCancel={onCancel}>
      <h2 id="unsent-title" className="section-title">
        {unsentText(count)}
      </h2>
      <p id="unsent-help">
        {waiting
          ? 'Sending…'
          : stuck
            ? 'They could not all be sent. You may be offline, or one needs changing before it can be sent.'
            : drafts > 0
              ? `${waitable > 0 ? 'Some of it you' : 'You'} started writing and did not send. Signing out deletes everything Hearth keeps on this device.`
              : 'Signing out deletes everything Hearth keeps on this device.'}
      </p>
      <div className="dialog__actions">
        {waitable > 0 ? (
          <button type="button" className="button button--primary" disabled={waiting} onClick={() => void wait()}>
            Wait for them to send
          </button>
        ) : null}
        <button type="button" className="button button--secondary" disabled={waiting} onClick={() => onSignOut(true)}>
          Sign out and delete them
        </button>
        <button type="button" className="button button--ghost" disabled={waiting} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
