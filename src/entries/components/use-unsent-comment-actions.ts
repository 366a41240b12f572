import { useRef, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import { useToast } from '@/components/use-toast';

type Outcome = { ok: true } | { ok: false; message: string };

export interface UnsentCommentActions {
  /** Try again or Discard is being carried out: the buttons say so (aria-disabled) and ignore presses. */
  readonly busy: boolean;
  /** The discard dialog is open. */
  readonly confirming: boolean;
  /** The comment's article (focused after Try again) and the Discard button (focused after Keep it). */
  readonly article: RefObject<HTMLElement | null>;
  readonly discardButton: RefObject<HTMLButtonElement | null>;
  retry(): Promise<void>;
  ask(): void;
  discard(): Promise<void>;
  keep(): void;
}

/**
 * Try again and Discard on a reply or objective comment the server refused. The buttons stay
 * focusable while they work (aria-disabled and a guard, not disabled, which drops the keyboard
 * focus). Try again sent: the focus stays on the comment (the buttons go). The dialog leaves the
 * page before the focus moves (while it is open the page behind is inert): Keep it or a refused
 * discard go back to Discard, a discard done to `onDiscarded`.
 */
export function useUnsentCommentActions(options: {
  readonly retry: () => Promise<Outcome>;
  readonly discard: () => Promise<Outcome>;
  /** The toast once discarded ("The reply was discarded"). */
  readonly discarded: string;
  readonly onDiscarded: () => void;
}): UnsentCommentActions {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const article = useRef<HTMLElement>(null);
  const discardButton = useRef<HTMLButtonElement>(null);
  const closeDialog = () =>
    flushSync(() => {
      setBusy(false);
      setConfirming(false);
    });
  return {
    busy,
    confirming,
    article,
    discardButton,
    async retry() {
      if (busy) return;
      setBusy(true);
      const result = await options.retry();
      setBusy(false);
      if (!result.ok) {
        toast.error(result.message);
        return;
      }
      article.current?.focus();
    },
    ask() {
      if (!busy) setConfirming(true);
    },
    async discard() {
      if (busy) return;
      setBusy(true);
      const result = await options.discard();
      closeDialog();
      if (result.ok) {
        toast.success(options.discarded);
        options.onDiscarded();
      } else {
        toast.error(result.message);
        discardButton.current?.focus();
      }
    },
    keep() {
      closeDialog();
      discardButton.current?.focus();
    },
  };
}
