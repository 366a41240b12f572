import { useCallback, useEffect, useId, useRef, useState, type CSSProperties, type FormEvent } from 'react';
import { useBlocker } from 'react-router-dom';
import { entryLimits, entryMessages } from '@/contract/entries';
import type { EntryDraft, WriteResult } from '@/entries/data/types';
import { useToast } from '../../components/use-toast';
import { DrawingCanvas, type DrawingCanvasHandle } from './drawing-canvas';
import { EmojiPicker } from './emoji-picker';
import { FileAttach } from './file-attach';
import { fullName, sharingSummary } from './sharing-summary';
import './entry.css';

export interface EntryFormProps {
  kind: 'journal' | 'voice';
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
}

type Field = 'description' | 'canvas' | 'reaction' | 'files' | 'entry_date' | 'category_id' | 'shared_with';
const FIELDS: readonly Field[] = ['description', 'canvas', 'reaction', 'files', 'entry_date', 'category_id', 'shared_with'];
const ALIASES: Record<string, Field> = { entry_time: 'entry_date', shared_with_management: 'shared_with', remove_files: 'files', remove_canvas: 'canvas' };

/** The server's or the device's field errors, one message per field of this form. */
export function fieldErrorsOf(errors: Record<string, readonly string[]>): Partial<Record<Field, string>> {
  const out: Partial<Record<Field, string>> = {};
  for (const [key, list] of Object.entries(errors)) {
    const base = key.split('.')[0] ?? key;
    const field = ALIASES[base] ?? (FIELDS as readonly string[]).find((f) => f === base);
    const message = list[0];
    if (field && message && !out[field as Field]) out[field as Field] = message;
  }
  return out;
}

const pad = (n: number) => String(n).padStart(2, '0');
const nowParts = () => {
  const now = new Date();
  return { date: `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`, time: `${pad(now.getHours())}:${pad(now.getMinutes())}` };
};

const SAVED_TEXT = 'Your entry is saved.';

/**
 * The one form for journal and voice entries: words, a drawing, a reaction, the date (journal),
 * attachments, the category (voice) and who can see it, private by default. What the person typed
 * lives only in React state (never in storage) and is never cleared by a failed save; leaving with
 * unsaved words asks first.
 */
export function EntryForm(props: EntryFormProps) {
  const { kind, initial = {}, staff, emojis, categories = [], surface, submitLabel, onSubmit, onSaved, existingCanvasUrl } = props;
  const id = useId();
  const toast = useToast();
  const formRef = useRef<HTMLFormElement>(null);
  const drawingRef = useRef<DrawingCanvasHandle>(null);
  const [start] = useState(nowParts);

  const [description, setDescription] = useState(initial.description ?? '');
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
  const [files, setFiles] = useState<File[]>([]);
  const [removedFiles, setRemovedFiles] = useState<readonly string[]>([]);
  const [drawingOpen, setDrawingOpen] = useState(false);
  const [drawingCount, setDrawingCount] = useState(0);
  const [removeCanvas, setRemoveCanvas] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [busy, setBusy] = useState(false);
  const [focusError, setFocusError] = useState(0);
  const saved = useRef(false);

  const dirty = description !== (initial.description ?? '') || drawingCount > 0 || files.length > 0;

  const blocker = useBlocker(
    useCallback(
      ({ currentLocation, nextLocation }: { currentLocation: { pathname: string }; nextLocation: { pathname: string } }) =>
        dirty && !saved.current && currentLocation.pathname !== nextLocation.pathname,
      [dirty],
    ),
  );

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      if (saved.current) return;
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

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
        setErrors(fieldErrorsOf(result.errors));
        setFocusError((n) => n + 1);
        toast.error(result.message);
        return;
      }
      setErrors({});
      saved.current = true;
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

  return (
    <form ref={formRef} className="entry-form" noValidate onSubmit={(event) => void submit(event)} aria-busy={busy}>
      <div className={`field entry-form__words${errors.description ? ' field--invalid' : ''}`}>
        <label htmlFor={`${id}-description`} className="field__label">
          {kind === 'journal' ? 'What’s on your mind?' : 'What would you like to say?'}
        </label>
        <div className={`entry-form__paper ${surface?.className ?? ''}`} style={surface?.style}>
          <textarea
            id={`${id}-description`}
            className="entry-form__textarea"
            rows={8}
            value={description}
            onChange={(event) => {
              saved.current = false;
              setDescription(event.target.value);
            }}
            aria-invalid={errors.description ? true : undefined}
            aria-describedby={describe(`${id}-count`, errors.description && `${id}-description-error`)}
          />
        </div>
        <p id={`${id}-count`} className={`field__hint entry-form__count${description.length > entryLimits.descriptionMaxLength ? ' entry-form__count--over' : ''}`}>
          {description.length.toLocaleString('en-GB')} of {entryLimits.descriptionMaxLength.toLocaleString('en-GB')}
        </p>
        {errorText('description')}
      </div>

      <section className="entry-form__section" aria-labelledby={`${id}-drawing-heading`}>
        <h2 id={`${id}-drawing-heading`} className="entry-form__heading">
          Drawing
        </h2>
        {keepsCanvas && !drawingOpen ? (
          <div className="entry-form__kept">
            {existingCanvasUrl ? <img src={existingCanvasUrl} alt="Your drawing" className="entry-form__kept-image" /> : <p>This entry has a drawing.</p>}
            <div className="actions">
              <button type="button" className="button button--secondary" onClick={() => setDrawingOpen(true)}>
                Draw a new one
              </button>
              <button type="button" className="button button--ghost" onClick={() => setRemoveCanvas(true)}>
                Remove drawing
              </button>
            </div>
          </div>
        ) : null}
        {initial.hasCanvas && removeCanvas && !drawingOpen ? (
          <p>
            The drawing will be removed when you save.{' '}
            <button type="button" className="button button--ghost" onClick={() => setRemoveCanvas(false)}>
              Keep the drawing
            </button>
          </p>
        ) : null}
        {drawingOpen ? (
          <>
            {initial.hasCanvas && !removeCanvas ? <p className="field__hint">A new drawing replaces the old one.</p> : null}
            <DrawingCanvas ref={drawingRef} onChange={setDrawingCount} {...(errors.canvas ? { error: errors.canvas } : {})} />
          </>
        ) : !keepsCanvas ? (
          <>
            <button type="button" className="button button--secondary" onClick={() => setDrawingOpen(true)} aria-describedby={describe(errors.canvas && `${id}-canvas-error`)}>
              Add a drawing
            </button>
            {errorText('canvas')}
          </>
        ) : null}
      </section>

      <EmojiPicker label="How are you feeling?" emojis={emojis} value={reaction} onChange={setReaction} {...(errors.reaction ? { error: errors.reaction } : {})} />

      {kind === 'journal' ? (
        <fieldset className={`field entry-form__when${errors.entry_date ? ' field--invalid' : ''}`}>
          <legend className="field__label">When</legend>
          <div className="entry-form__row">
            <label className="entry-form__small">
              <span>Date</span>
              <input
                type="date"
                className="field__input"
                value={entryDate}
                max={now.date}
                required
                onChange={(event) => setEntryDate(event.target.value)}
                aria-invalid={errors.entry_date ? true : undefined}
                aria-describedby={describe(errors.entry_date && `${id}-entry_date-error`)}
              />
            </label>
            <label className="entry-form__small">
              <span>Time</span>
              <input
                type="time"
                className="field__input"
                value={entryTime}
                {...(entryDate === now.date ? { max: now.time } : {})}
                required
                onChange={(event) => setEntryTime(event.target.value)}
                aria-invalid={errors.entry_date ? true : undefined}
                aria-describedby={describe(errors.entry_date && `${id}-entry_date-error`)}
              />
            </label>
          </div>
          {errorText('entry_date')}
        </fieldset>
      ) : null}

      {kind === 'voice' ? (
        <fieldset className={`field entry-form__categories${errors.category_id ? ' field--invalid' : ''}`} aria-describedby={describe(errors.category_id && `${id}-category_id-error`)}>
          <legend className="field__label">What is this about?</legend>
          <div className="entry-form__options">
            {categories.map((category) => (
              <label key={category.id} className="entry-form__option">
                <input
                  type="radio"
                  name={`${id}-category`}
                  value={category.id}
                  checked={categoryId === category.id}
                  onChange={() => setCategoryId(category.id)}
                  aria-invalid={errors.category_id ? true : undefined}
                  aria-describedby={category.description ? `${id}-category-${category.id}` : undefined}
                />
                <span>
                  <span className="entry-form__option-name">{category.name}</span>
                  {category.description ? (
                    <span id={`${id}-category-${category.id}`} className="entry-form__option-text">
                      {category.description}
                    </span>
                  ) : null}
                </span>
              </label>
            ))}
          </div>
          {errorText('category_id')}
        </fieldset>
      ) : null}

      <FileAttach
        label="Photos and files"
        files={files}
        onChange={setFiles}
        existing={existingFiles}
        onRemoveExisting={(fileId) => setRemovedFiles((list) => [...list, fileId])}
        max={entryLimits.maxFiles}
        {...(errors.files ? { error: errors.files } : {})}
      />

      <fieldset className={`field entry-form__sharing${errors.shared_with ? ' field--invalid' : ''}`} aria-describedby={describe(`${id}-summary`, errors.shared_with && `${id}-shared_with-error`)}>
        <legend className="field__label">Who can see this?</legend>
        <p className="field__hint">Only you, unless you tick someone below.</p>
        <div className="entry-form__options">
          {staff.map((person) => (
            <label key={person.id} className="entry-form__option">
              <input
                type="checkbox"
                checked={sharedWith.includes(person.id)}
                onChange={(event) => toggleStaff(person.id, event.target.checked)}
                aria-invalid={errors.shared_with ? true : undefined}
              />
              <span>
                <span className="entry-form__option-name">{fullName(person)}</span>
                {person.job_title ? <span className="entry-form__option-text">{person.job_title}</span> : null}
              </span>
            </label>
          ))}
          <label className="entry-form__option">
            <input type="checkbox" checked={management} onChange={(event) => {
                setSharingTouched(true);
                setManagement(event.target.checked);
              }} />
            <span>
              <span className="entry-form__option-name">Home management</span>
            </span>
          </label>
        </div>
        {errorText('shared_with')}
      </fieldset>

      <p id={`${id}-summary`} className="entry-form__summary" aria-live="polite">
        {summary}
      </p>

      <div className="actions">
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? 'Saving…' : submitLabel}
        </button>
      </div>

      {blocker.state === 'blocked' ? <LeaveCheck onStay={() => blocker.reset()} onLeave={() => blocker.proceed()} /> : null}
    </form>
  );
}

function LeaveCheck({ onStay, onLeave }: { onStay(): void; onLeave(): void }) {
  const stay = useRef<HTMLButtonElement>(null);
  const id = useId();
  useEffect(() => stay.current?.focus(), []);
  return (
    <div className="entry-form__leave" role="alertdialog" aria-labelledby={`${id}-title`} aria-describedby={`${id}-text`}>
      <h2 id={`${id}-title`} className="entry-form__heading">
        Leave without saving?
      </h2>
      <p id={`${id}-text`}>What you wrote here is not saved yet. If you leave now, it will be lost.</p>
      <div className="actions">
        <button ref={stay} type="button" className="button button--primary" onClick={onStay}>
          Stay and keep writing
        </button>
        <button type="button" className="button button--secondary" onClick={onLeave}>
          Leave without saving
        </button>
      </div>
    </div>
  );
}
