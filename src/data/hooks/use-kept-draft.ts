import { useCallback, useEffect, useRef, useState } from 'react';
import { onFlushDrafts } from '../drafts';
import { useDraft } from './use-draft';

/** A draft is stored this long after the last change (one write per pause, not per key press). */
export const KEEP_AFTER_MS = 400;

export interface KeptDraft {
  /** The form is showing a draft from before (say so: "We kept what you started writing…"). */
  readonly restored: boolean;
  /** What the form holds was sent (or queued): the draft is forgotten and this value is not kept again. */
  settle(): Promise<void>;
}

/**
 * Keeps what a person is writing in a form as an encrypted draft in the replica (src/data/drafts.ts)
 * while they write: stored a moment after each change, at once when the form closes, when the page
 * is hidden (a phone switching apps, a tab closed) and before the sign-out warning counts drafts.
 * So the words survive a reload, a crash, a session that expires (the guard drops the form; the
 * same person's replica keeps the draft) and a connection that drops on a page that needs one.
 *
 * `value` is what the form holds now (JSON); `unchanged(value)` says there is nothing to keep (the
 * form as it opened), and then a stored draft is removed. A draft stored before the form opened is
 * handed to `restore` once, when it is known, if nothing was typed meanwhile: a person's words are
 * never replaced. `key` null keeps nothing.
 */
export function useKeptDraft<T>(key: string | null, value: T, unchanged: (value: T) => boolean, restore: (draft: T) => void): KeptDraft {
  const draft = useDraft<T>(key);
  const { save, clear } = draft;
  /** The draft stored before the form opened: null when none, undefined while the replica opens. */
  const [restored, setRestored] = useState<T | null | undefined>(key ? undefined : null);
  if (restored === undefined && !draft.loading) setRestored(draft.value);

  const latest = useRef({ value, unchanged, restore });
  latest.current = { value, unchanged, restore };
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  /** A draft of this form is stored (restored, or saved since): an unchanged form removes it. */
  const stored = useRef(false);
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!restored) return;
    stored.current = true;
    const { value: now, unchanged: isUnchanged, restore: apply } = latest.current;
    if (!isUnchanged(now)) return;
    apply(restored);
    setShown(true);
  }, [restored]);
  /** A change not stored yet (also one made before the stored draft was known: the replica opening). */
  const unstored = useRef(false);
  const text = JSON.stringify(value);
  /**
   * What is not kept until it changes: the form as it opened (closing it before it changed stores or
   * removes nothing, so a form dropped before it showed a restored draft leaves that draft), then
   * the value that was sent. Null once it changed.
   */
  const baseline = useRef<string | null>(text);

  const store = useCallback((): Promise<unknown> => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    unstored.current = false;
    const { value: now, unchanged: isUnchanged } = latest.current;
    if (isUnchanged(now)) {
      if (!stored.current) return Promise.resolve();
      stored.current = false;
      return clear();
    }
    stored.current = true;
    return save(now);
  }, [save, clear]);

  const flush = useCallback((): Promise<unknown> => (unstored.current ? store() : Promise.resolve()), [store]);

  useEffect(() => {
    if (!key) return;
    if (baseline.current !== null) {
      if (baseline.current === text) return;
      baseline.current = null;
    }
    unstored.current = true;
    // Until the stored draft is known, the pause does not start (an empty form must not remove it);
    // a flush meanwhile (signing out, the page hidden) stores what was typed.
    if (restored === undefined) return;
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => void store().catch(() => undefined), KEEP_AFTER_MS);
  }, [key, restored, text, store]);

  useEffect(() => {
    const hidden = () => {
      if (document.visibilityState === 'hidden') void flush().catch(() => undefined);
    };
    const leaving = () => void flush().catch(() => undefined);
    document.addEventListener('visibilitychange', hidden);
    window.addEventListener('pagehide', leaving);
    const unregister = onFlushDrafts(flush);
    return () => {
      document.removeEventListener('visibilitychange', hidden);
      window.removeEventListener('pagehide', leaving);
      unregister();
      // The form closes (left, or dropped by a guard): what waited is stored now.
      void flush().catch(() => undefined);
    };
  }, [flush]);

  const settle = useCallback(async () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    unstored.current = false;
    baseline.current = JSON.stringify(latest.current.value);
    stored.current = false;
    setShown(false);
    await clear();
  }, [clear]);

  return { restored: shown, settle };
}
