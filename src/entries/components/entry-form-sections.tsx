import { DrawingCanvas } from './drawing-canvas';
import { fullName } from './sharing-summary';
import type { EntryFormState } from './use-entry-form';

/** The drawing: keep, replace or remove the one saved, or draw a first one. */
export function DrawingSection({ form }: { form: EntryFormState }) {
  const { id, initial, existingCanvasUrl, drawingRef, drawingOpen, setDrawingOpen, setDrawing, restoredDrawing, removeCanvas, setRemoveCanvas, errors, keepsCanvas, describe, errorText } = form;
  return (
    <section className="entry-form__section" aria-labelledby={`${id}-drawing-heading`}>
        <h2 id={`${id}-drawing-heading`} className="entry-form__heading">
          Drawing
        </h2>
        {keepsCanvas && !drawingOpen ? (
          <div className="entry-form__kept">
            {existingCanvasUrl ? <img src={existingCanvasUrl} alt="Your drawing" className="entry-form__kept-image" /> : <p>This entry has a drawing.</p>}
            <div className="actions">
              <button type="button" className="button button--secondary" onClick={() => setDrawingOpen(true)} aria-describedby={describe(errors.canvas && `${id}-canvas-error`)}>
                Draw a new one
              </button>
              <button type="button" className="button button--ghost" onClick={() => setRemoveCanvas(true)}>
                Remove drawing
              </button>
            </div>
            {/* The server can refuse a drawing it already has (a refused entry opened again). */}
            {errorText('canvas')}
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
            <DrawingCanvas
              key={restoredDrawing?.version ?? 0}
              ref={drawingRef}
              onChange={setDrawing}
              {...(restoredDrawing ? { initialMarks: restoredDrawing.marks } : {})}
              {...(errors.canvas ? { error: errors.canvas } : {})}
            />
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
  );
}

/** Journal: the date and time of the entry (not in the future). */
export function JournalWhenSection({ form }: { form: EntryFormState }) {
  const { id, entryDate, setEntryDate, entryTime, setEntryTime, errors, now, describe, errorText } = form;
  return (
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
  );
}

/** Voice: what the message is about (a required choice). */
export function VoiceCategorySection({ form }: { form: EntryFormState }) {
  const { id, categories, categoryId, setCategoryId, errors, describe, errorText } = form;
  return (
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
  );
}

/** Who can see the entry: staff one by one and home management; private unless ticked. */
export function SharingSection({ form }: { form: EntryFormState }) {
  const { id, staff, sharedWith, management, setManagement, setSharingTouched, errors, toggleStaff, describe, errorText } = form;
  return (
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
  );
}
