import { useCallback, useEffect, useId, useMemo, useRef, useState, type CSSProperties, type FormEvent } from 'react';
import { useBlocker } from 'react-router-dom';
import type { EntryKind } from '@/contract/entry-kind';
import { entryMessages } from '@/contract/entries';
import type { DraftFile } from '@/data/drafts';
import { useKeptDraft } from '@/data/hooks/use-kept-draft';
import { fieldErrorsOf, type EntryField as Field } from '@/entries/data/entry-fields';
import type { EntryDraft, WriteResult } from '@/entries/data/types';
import { useRefusedFields } from '@/entries/hooks/use-refused-fields';
import { useToast } from '../../components/use-toast';
import type { DrawingCanvasHandle } from './drawing-canvas';
import { keptMarks, type Mark } from './drawing-shapes';
import { fullName, sharingSummary } from './sharing-summary';
import { useKeptFiles } from './use-kept-files';

export interface EntryFormProps {
  kind: EntryKind;
  initial?: {
    description?: string;
    reaction?: string | null;
    sharedWith?: readonly string[];
    sharedWithManagement?: boolean;
    entryDate?: string;
    entryTime?: string;
    categoryId?: string;
    existingFiles?: readonly { id: string; name: string; mime: string }[];
    hasCanvas?: boolean;
  };
  staff: readonly { id: string; first_name: string; last_name: string; job_title?: string | null }[];
  emojis: readonly { id: string; emoji: string; name: string }[];
  /** Voice: a required choice. */
  categories?: readonly { id: string; name: string; description: string | null }[];
  /** Journal: the paper and colour the person chose. */
  surface?: { className: string; style: CSSProperties };
  submitLabel: string;
  onSubmit(draft: EntryDraft): Promise<WriteResult>;
  onSaved(result: { id: string; queuedOffline: boolean }): void;
  /** Edit: the current drawing as an image URL, shown while it is kept. */
  existingCanvasUrl?: string | null;
  /**
   * Where what is typed is kept on the device while it is written (an encrypted draft: see
   * `useKeptDraft`), e.g. `entry:journal:new`. Without it nothing is kept beyond the screen.
   */
  draftKey?: string | null;
}

/**
 * What an entry draft keeps: the words, the choices made, the drawing's marks (a list of points,
 * not its picture) and the new files attached (their bytes are kept beside the draft, capped:
 * use-kept-files.ts).
 */
export interface EntryFormDraft {
  description: string;
  reaction: string | null;
  /** Only when the person chose who sees it. */
  sharing?: { sharedWith: readonly string[]; management: boolean };
  /** Only when the person changed them. */
  entryDate?: string;
  entryTime?: string;
  categoryId?: string;
  /** Only when something is drawn. */
  drawing?: readonly Mark[];
  /** Only when files are attached and kept. */
  files?: readonly DraftFile[];
}

const pad = (n: number) => String(n).padStart(2, '0');
const nowParts = () => {
  const now = new Date();
  return { date: `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`, time: `${pad(now.getHours())}:${pad(now.getMinutes())}` };
};

const SAVED_TEXT = 'Your entry is saved.';

/** The state, the leave check and the submit of EntryForm; the form and its sections only render. */
export function useEntryForm(props: EntryFormProps) {
  const { kind, initial = {}, staff, emojis, categories = [], surface, submitLabel, onSubmit, onSaved, existingCanvasUrl, draftKey = null } = props;
  const id = useId();
  const toast = useToast();
  const formRef = useRef<HTMLFormElement>(null);
  const drawingRef = useRef<DrawingCanvasHandle>(null);
  const [start] = useState(nowParts);

  const [description, setDescription] = useState(initial.description ?? '');
  // The stored words changing under an edit nobody has typed in yet (a pull or a settled change
  // landing just after the screen opened) are taken; words the person typed are never replaced.
  const initialDescription = initial.description ?? '';
  const [seenDescription, setSeenDescription] = useState(initialDescription);
  if (initialDescription !== seenDescription) {
    setSeenDescription(initialDescription);
    if (description === seenDescription) setDescription(initialDescription);
  }
  const [reaction, setReaction] = useState<string | null>(initial.reaction ?? null);
  const [sharedWith, setSharedWith] = useState<readonly string[]>(initial.sharedWith ?? []);
  const [management, setManagement] = useState(initial.sharedWithManagement ?? false);
  // A default audience that arrives after the form opened (the key worker, once the replica has
  // them) is taken, unless the person already chose for themselves.
  const [sharingTouched, setSharingTouched] = useState(false);
  const initialSharing = (initial.sharedWith ?? []).join(',');
  const [seenSharing, setSeenSharing] = useState(initialSharing);
  if (initialSharing !== seenSharing) {
    setSeenSharing(initialSharing);
    if (!sharingTouched) setSharedWith(initial.sharedWith ?? []);
  }
  const [entryDate, setEntryDate] = useState(initial.entryDate ?? start.date);
  const [entryTime, setEntryTime] = useState(initial.entryTime ?? start.time);
  const [categoryId, setCategoryId] = useState(initial.categoryId ?? '');
  const keptFiles = useKeptFiles(draftKey);
  const { files, onChange: setFiles } = keptFiles;
  const [removedFiles, setRemovedFiles] = useState<readonly string[]>([]);
  const [drawingOpen, setDrawingOpen] = useState(false);
  const [drawing, setDrawing] = useState<readonly Mark[]>([]);
  const drawingCount = drawing.length;
  /** A drawing kept from before, and a new canvas for it each time one is restored. */
  const [restoredDrawing, setRestoredDrawing] = useState<{ marks: readonly Mark[]; version: number } | null>(null);
  const [removeCanvas, setRemoveCanvas] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [busy, setBusy] = useState(false);
  const [focusError, setFocusError] = useState(0);
  const saved = useRef(false);

  // The server refused what this form sent (a 422 answered now, or while it was closed): each
  // error goes beside its field, as the device's own checks do, with the words left as they are.
  const refusal = useRefusedFields(draftKey);
  const [seenRefusal, setSeenRefusal] = useState<string | null>(null);
  if ((refusal?.outboxId ?? null) !== seenRefusal) {
    setSeenRefusal(refusal?.outboxId ?? null);
    if (refusal) {
      setErrors(fieldErrorsOf(kind, refusal.errors));
      setFocusError((n) => n + 1);
    }
  }

  const dirty = description !== (initial.description ?? '') || drawingCount > 0 || files.length > 0;

  // Rounded to a tenth of a point: the same picture in a draft a third of the size.
  const keptDrawing = useMemo(() => keptMarks(drawing), [drawing]);
  const startDate = initial.entryDate ?? start.date;
  const startTime = initial.entryTime ?? start.time;
  // A draft from before (a reload, a session that expired, a page left) comes back once, into a form
  // nobody has typed in yet.
  const kept = useKeptDraft<EntryFormDraft>(
    draftKey,
    {
      description,
      reaction,
      ...(sharingTouched ? { sharing: { sharedWith, management } } : {}),
      ...(entryDate !== startDate ? { entryDate } : {}),
      ...(entryTime !== startTime ? { entryTime } : {}),
      ...(categoryId !== (initial.categoryId ?? '') ? { categoryId } : {}),
      ...(keptDrawing.length > 0 ? { drawing: keptDrawing } : {}),
      ...(keptFiles.kept.length > 0 ? { files: keptFiles.kept } : {}),
    },
    (draft) => draft.description === (initial.description ?? '') && draft.reaction === (initial.reaction ?? null) && !draft.drawing?.length && !draft.files?.length,
    (draft) => {
      setDescription(draft.description);
      setReaction(draft.reaction);
      if (draft.sharing) {
        setSharingTouched(true);
        setSharedWith(draft.sharing.sharedWith);
        setManagement(draft.sharing.management);
      }
      if (draft.entryDate) setEntryDate(draft.entryDate);
      if (draft.entryTime) setEntryTime(draft.entryTime);
      if (draft.categoryId) setCategoryId(draft.categoryId);
      if (Array.isArray(draft.drawing) && draft.drawing.length > 0) {
        setRestoredDrawing((before) => ({ marks: draft.drawing ?? [], version: (before?.version ?? 0) + 1 }));
        setDrawingOpen(true);
      }
      keptFiles.restore(draft.files);
    },
  );

  // Leaving asks first only when something would be lost: with a draft, the words, choices and
  // drawing are kept (stored at the latest as the form closes or the page hides), and so are the
  // files, unless one is past the cap, could not be stored, or is still being stored.
  const losesSomething = dirty && !(draftKey && keptFiles.allKept);

  const blocker = useBlocker(
    useCallback(
      ({ currentLocation, nextLocation }: { currentLocation: { pathname: string }; nextLocation: { pathname: string } }) =>
        losesSomething && !saved.current && currentLocation.pathname !== nextLocation.pathname,
      [losesSomething],
    ),
  );

  useEffect(() => {
    if (!losesSomething) return;
    const warn = (event: BeforeUnloadEvent) => {
      if (saved.current) return;
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [losesSomething]);

  // After a refused save, the first field with a problem gets the focus.
  useEffect(() => {
    if (focusError === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusError]);

  const existingFiles = (initial.existingFiles ?? []).filter((f) => !removedFiles.includes(f.id));
  const keepsCanvas = Boolean(initial.hasCanvas) && !removeCanvas;
  const chosenStaff = staff.filter((person) => sharedWith.includes(person.id));
  const summary = sharingSummary(chosenStaff.map(fullName), management);
  const now = nowParts();

  const toggleStaff = (personId: string, on: boolean) => {
    setSharingTouched(true);
    setSharedWith((list) => (on ? [...list.filter((x) => x !== personId), personId] : list.filter((x) => x !== personId)));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const canvas = drawingCount > 0 ? ((await drawingRef.current?.toBlob()) ?? null) : null;
      const draft: EntryDraft = {
        description: description.trim() === '' ? null : description,
        reaction,
        sharedWith: staff.length > 0 ? sharedWith.filter((x) => staff.some((p) => p.id === x)) : sharedWith,
        sharedWithManagement: management,
        files,
        ...(canvas ? { canvas } : {}),
        ...(removedFiles.length > 0 ? { removeFiles: removedFiles } : {}),
        ...(initial.hasCanvas && removeCanvas && !canvas ? { removeCanvas: true } : {}),
        ...(kind === 'journal' ? { entryDate, entryTime } : { categoryId }),
      };
      const result = await onSubmit(draft);
      if (!result.ok) {
        setErrors(fieldErrorsOf(kind, result.errors));
        setFocusError((n) => n + 1);
        toast.error(result.message);
        return;
      }
      setErrors({});
      saved.current = true;
      keptFiles.settle();
      await kept.settle().catch(() => undefined);
      if (result.queuedOffline) toast.success(entryMessages.offlineRetry);
      else toast.success(SAVED_TEXT);
      onSaved({ id: result.id, queuedOffline: result.queuedOffline });
    } finally {
      setBusy(false);
    }
  };

  const describe = (...ids: (string | false | undefined)[]) => ids.filter(Boolean).join(' ') || undefined;
  const errorText = (field: Field) =>
    errors[field] ? (
      <p id={`${id}-${field}-error`} className="field__error">
        {errors[field]}
      </p>
    ) : null;

  return { id, kind, initial, restoredDraft: kept.restored, staff, emojis, categories, surface, submitLabel, existingCanvasUrl, formRef, drawingRef, description, setDescription, reaction, setReaction, sharedWith, management, setManagement, setSharingTouched, entryDate, setEntryDate, entryTime, setEntryTime, categoryId, setCategoryId, files, setFiles, keptState: draftKey ? keptFiles.stateOf : undefined, setRemovedFiles, drawingOpen, setDrawingOpen, setDrawing, restoredDrawing, removeCanvas, setRemoveCanvas, errors, busy, saved, blocker, existingFiles, keepsCanvas, summary, now, toggleStaff, submit, describe, errorText };
}

export type EntryFormState = ReturnType<typeof useEntryForm>;
