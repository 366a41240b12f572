import { useCallback, useRef, useState } from 'react';
import { entryLimits } from '@/contract/entry-messages';
import { forgetDraftFile, keepDraftFile, readDraftFile, type DraftFile } from '@/data/drafts';
import { prepareFiles } from '../data/write-support';

/**
 * Where an attached file stands: being kept with the draft, kept (it comes back after a reload),
 * over what a draft keeps, or not kept (no replica, or the device refused the bytes).
 */
export type KeepState = 'keeping' | 'kept' | 'too-big' | 'not-kept';

/** The line under the attachments when a file will not come back after a reload. */
export const notKeptNote = (name: string, state: 'too-big' | 'not-kept'): string =>
  state === 'too-big'
    ? `“${name}” is too big to keep on this device. It stays attached while this page is open.`
    : `“${name}” could not be kept on this device. It stays attached while this page is open.`;

interface Attached {
  readonly file: File;
  readonly state: KeepState;
  /** What the draft names it by, once its bytes are stored. */
  readonly kept: DraftFile | null;
}

export interface KeptFiles {
  /** The new files attached, in the order they were added. */
  readonly files: File[];
  /** What the form's file picker hands back: files added are kept, files taken away are forgotten. */
  onChange(files: File[]): void;
  /** What the draft names (the files kept, and those being read back after a reload). */
  readonly kept: readonly DraftFile[];
  /** Brings back the files a restored draft names. */
  restore(files: readonly DraftFile[] | undefined): void;
  /** Where a new file stands (undefined without a draft: nothing is kept). */
  stateOf(file: File): KeepState | undefined;
  /** Every new file attached is kept (true when there is none): with the draft, it comes back after a reload. */
  readonly allKept: boolean;
  /** What the form holds was sent (or queued): a file still being kept is not kept after all. */
  settle(): void;
}

/**
 * The files attached to a form that keeps a draft (`useKeptDraft` with `draftKey`): each one is kept
 * encrypted with the draft the moment it is added (src/data/drafts.ts, `draft-file:<key>/<id>`),
 * photos made smaller first as sending would, so a page the browser reloads while the camera is
 * open comes back with the photos picked before. The draft's value names them (`kept`); the draft's
 * own removal (posted, or emptied) removes their bytes, and a file taken off the form is forgotten
 * at once. What a draft keeps is capped (`entryLimits.draftFilesMaxBytes` in all): a file past the
 * cap stays attached in memory only, and the form says so. Without a key nothing is kept.
 */
export function useKeptFiles(draftKey: string | null): KeptFiles {
  const [attached, setAttached] = useState<readonly Attached[]>([]);
  const [restoring, setRestoring] = useState<readonly DraftFile[]>([]);
  // The truth for the keeping that runs between renders (what is still attached, what is used).
  const now = useRef<{ attached: readonly Attached[]; restoring: readonly DraftFile[] }>({ attached: [], restoring: [] });
  const update = useCallback((change: (list: readonly Attached[]) => readonly Attached[]) => {
    now.current.attached = change(now.current.attached);
    setAttached(now.current.attached);
  }, []);
  const restoringNow = useCallback((list: readonly DraftFile[]) => {
    now.current.restoring = list;
    setRestoring(list);
  }, []);
  /** One file kept at a time, in the order added: the cap is then the same whatever the timing. */
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  /** Moves on when the form's contents were sent: a file kept for them since is forgotten. */
  const round = useRef(0);
  const key = useRef(draftKey);
  key.current = draftKey;

  const keep = useCallback(
    async (file: File, startRound: number) => {
      const draft = key.current;
      const attachedNow = () => round.current === startRound && now.current.attached.some((item) => item.file === file);
      const mark = (state: KeepState, kept: DraftFile | null = null) => update((list) => list.map((item) => (item.file === file ? { file, state, kept } : item)));
      if (!draft || !attachedNow()) return;
      let stored: DraftFile | null = null;
      try {
        // Kept as it would be sent (a photo made smaller), so the draft holds what posting needs.
        const [prepared = file] = await prepareFiles([file]);
        const used = [...now.current.restoring, ...now.current.attached.flatMap((item) => (item.kept ? [item.kept] : []))].reduce((sum, kept) => sum + kept.size, 0);
        if (used + prepared.size > entryLimits.draftFilesMaxBytes) {
          if (attachedNow()) mark('too-big');
          return;
        }
        stored = await keepDraftFile(draft, prepared, prepared.name || file.name);
      } catch {
        stored = null;
      }
      if (stored && attachedNow()) mark('kept', stored);
      else if (stored) await forgetDraftFile(draft, stored.id).catch(() => undefined);
      else if (attachedNow()) mark('not-kept');
    },
    [update],
  );

  const onChange = useCallback(
    (files: File[]) => {
      const before = now.current.attached;
      const draft = key.current;
      for (const item of before) {
        if (!files.includes(item.file) && item.kept && draft) void forgetDraftFile(draft, item.kept.id).catch(() => undefined);
      }
      const added = files.filter((file) => !before.some((item) => item.file === file));
      update(() => files.map((file) => before.find((item) => item.file === file) ?? { file, state: draft ? 'keeping' : 'not-kept', kept: null }));
      if (!draft) return;
      const startRound = round.current;
      for (const file of added) queue.current = queue.current.then(() => keep(file, startRound));
    },
    [keep, update],
  );

  const restore = useCallback(
    (files: readonly DraftFile[] | undefined) => {
      const draft = key.current;
      if (!draft || !Array.isArray(files)) return;
      // Once each (React's strict mode runs the restoring effect twice).
      const known = (id: string) => now.current.restoring.some((file) => file.id === id) || now.current.attached.some((item) => item.kept?.id === id);
      const wanted = files.filter((file) => !known(file.id));
      if (wanted.length === 0) return;
      // Named by the draft while they are read back, so a store meanwhile does not drop them.
      restoringNow([...now.current.restoring, ...wanted]);
      const startRound = round.current;
      const read = (async () => {
        const back: Attached[] = [];
        for (const kept of wanted) {
          const file = await readDraftFile(draft, kept).catch(() => null);
          if (file) back.push({ file, state: 'kept', kept });
        }
        if (round.current === startRound) update((list) => [...back, ...list]);
        restoringNow(now.current.restoring.filter((file) => !wanted.includes(file)));
      })();
      queue.current = queue.current.then(() => read);
    },
    [restoringNow, update],
  );

  const settle = useCallback(() => {
    round.current += 1;
  }, []);

  const stateOf = useCallback((file: File) => (draftKey ? attached.find((item) => item.file === file)?.state : undefined), [attached, draftKey]);
  return {
    files: attached.map((item) => item.file),
    onChange,
    kept: [...restoring, ...attached.flatMap((item) => (item.kept ? [item.kept] : []))],
    restore,
    stateOf,
    allKept: attached.every((item) => item.state === 'kept'),
    settle,
  };
}
