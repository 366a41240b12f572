import { useEffect, useId, useRef } from 'react';
import { entryLimits } from '@/contract/entries';
import { EmojiPicker } from './emoji-picker';
import { DrawingSection, JournalWhenSection, SharingSection, VoiceCategorySection } from './entry-form-sections';
import { FileAttach } from './file-attach';
import { useEntryForm, type EntryFormProps } from './use-entry-form';
import { groupDigits } from '@/lib/en-gb';
import { KEPT_DRAFT_NOTE } from '@/components/kept-draft-note';
import './entry.css';

export { type EntryFormProps } from './use-entry-form';

/**
 * The one form for journal and voice entries: words, a drawing, a reaction, the date (journal),
 * attachments, the category (voice) and who can see it, private by default. What the person types is
 * kept as an encrypted draft on the device while they write (with `draftKey`: the words, choices,
 * the drawing's marks and the files attached, up to a cap) and is never cleared by a failed save;
 * leaving asks first only when something would be lost (no draft, or a file that is not kept).
 */
export function EntryForm(props: EntryFormProps) {
  const form = useEntryForm(props);
  const { id, kind, emojis, surface, submitLabel, formRef, description, setDescription, reaction, setReaction, files, setFiles, keptState, setRemovedFiles, errors, busy, saved, blocker, existingFiles, summary, submit, describe, errorText } = form;
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
          {groupDigits(description.length)} of {groupDigits(entryLimits.descriptionMaxLength)}
        </p>
        {errorText('description')}
        {form.restoredDraft ? <p className="small-print">{KEPT_DRAFT_NOTE}</p> : null}
      </div>

      <DrawingSection form={form} />

      <EmojiPicker label="How are you feeling?" emojis={emojis} value={reaction} onChange={setReaction} {...(errors.reaction ? { error: errors.reaction } : {})} />

      {kind === 'journal' ? <JournalWhenSection form={form} /> : null}

      {kind === 'voice' ? <VoiceCategorySection form={form} /> : null}

      <FileAttach
        label="Photos and files"
        files={files}
        onChange={setFiles}
        existing={existingFiles}
        onRemoveExisting={(fileId) => setRemovedFiles((list) => [...list, fileId])}
        max={entryLimits.maxFiles}
        {...(errors.files ? { error: errors.files } : {})}
        {...(keptState ? { keptState } : {})}
      />

      <SharingSection form={form} />

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
