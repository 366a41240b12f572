import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { formMessages } from '@/contract/forms';
import { isFileAnswer } from '../answers';
import { FieldShell } from '../field-shell';
import { signatureAlt } from '../file-names';
import { HANDWRITING_FONTS, typedSignaturePng } from '../signature-png';
import { useFileStore } from '../use-file-store';
import type { FileFieldProps } from './field-props';
import { SignaturePad, type SignaturePadHandle } from './signature-pad';

type Mode = 'draw' | 'type';
type FocusTarget = 'name' | 'switch' | 'again' | null;

/**
 * signature: drawn on a pad, or typed ("Type your name instead", the alternative to dragging for
 * keyboard and switch users, WCAG 2.1.1 and 2.5.7). Either way it becomes a PNG kept through
 * `files.store`, and the answer is its `{ file_id }`. It is saved when the person presses "Save
 * signature" (not on every stroke or letter, which would keep a file each time); Enter in the name
 * box saves it too, rather than sending the whole form. Focus is moved on purpose at each step
 * (the control that had it goes away), so it never falls back to the top of the page.
 */
export function SignatureField({ field, value, onChange, onBlur, error, disabled, files }: FileFieldProps<'signature'>) {
  const id = useId();
  const pad = useRef<SignaturePadHandle>(null);
  const nameInput = useRef<HTMLInputElement>(null);
  const switchButton = useRef<HTMLButtonElement>(null);
  const againButton = useRef<HTMLButtonElement>(null);
  const [mode, setMode] = useState<Mode>('draw');
  const [strokes, setStrokes] = useState(0);
  const [name, setName] = useState('');
  const [focusNext, setFocusNext] = useState<{ target: FocusTarget }>({ target: null });
  const { keep, busy, problem } = useFileStore(files);
  const answer = isFileAnswer(value) ? value : null;

  useEffect(() => {
    const el = { name: nameInput.current, switch: switchButton.current, again: againButton.current, none: null }[focusNext.target ?? 'none'];
    el?.focus();
  }, [focusNext]);

  const save = async () => {
    if (busy) return;
    const typed = name.trim();
    if (mode === 'type' ? typed === '' : strokes === 0) return;
    const make = mode === 'type' ? () => typedSignaturePng(typed) : () => pad.current?.toPng() ?? Promise.reject(new Error('no pad'));
    if (await keep(make, 'signature.png', onChange)) setFocusNext({ target: 'again' });
  };
  const switchMode = () => {
    setMode(mode === 'draw' ? 'type' : 'draw');
    setFocusNext({ target: mode === 'draw' ? 'name' : 'switch' });
  };
  const signAgain = () => {
    onChange(null);
    pad.current?.clear();
    setFocusNext({ target: mode === 'type' ? 'name' : 'switch' });
  };
  const clear = () => {
    pad.current?.clear();
    // The button is disabled once the pad is empty: focus goes to the next way on.
    setFocusNext({ target: 'switch' });
  };
  const onNameKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    void save();
  };
  const ready = mode === 'type' ? name.trim() !== '' : strokes > 0;

  return (
    <FieldShell field={field} error={problem ?? error} layout="group">
      {({ invalid }) => (
        <>
        {answer ? (
          <div className="form-signature">
            <div className="form-file__preview">
              <files.Preview file={answer} alt={signatureAlt(field.label)} />
            </div>
            <div className="form-signature__actions">
              <button ref={againButton} type="button" className="button button--secondary" onClick={signAgain} disabled={disabled} data-focus-first>
                Sign again
              </button>
            </div>
          </div>
        ) : (
          <div className="form-signature">
            {mode === 'draw' ? (
              <>
                <p id={`${id}-how`} className="field__hint">
                  Draw your signature in the box, or use “Type your name instead”.
                </p>
                <SignaturePad ref={pad} onStrokes={setStrokes} disabled={disabled} describedBy={`${id}-how`} />
              </>
            ) : (
              <>
                <label htmlFor={`${id}-name`} className="form-signature__name-label">
                  Type your full name
                </label>
                <input
                  ref={nameInput}
                  id={`${id}-name`}
                  type="text"
                  className="field__input"
                  value={name}
                  maxLength={100}
                  autoComplete="name"
                  onChange={(e) => setName(e.target.value)}
                  onKeyDown={onNameKey}
                  onBlur={onBlur}
                  disabled={disabled}
                  aria-invalid={invalid || undefined}
                />
                {/* What will be saved, in the same system handwriting fonts as the picture. */}
                <p className="form-signature__typed" style={{ fontFamily: HANDWRITING_FONTS }} aria-hidden="true">
                  {name}
                </p>
              </>
            )}
            <div className="form-signature__actions">
              <button type="button" className="button button--primary" onClick={() => void save()} disabled={disabled || !ready || busy}>
                Save signature
              </button>
              {mode === 'draw' ? (
                <button type="button" className="button button--secondary" onClick={clear} disabled={disabled || strokes === 0}>
                  Clear
                </button>
              ) : null}
              <button ref={switchButton} type="button" className="button button--ghost" onClick={switchMode} disabled={disabled} data-focus-first>
                {mode === 'draw' ? 'Type your name instead' : 'Draw instead'}
              </button>
            </div>
          </div>
        )}
        <p className="visually-hidden" role="status">
          {busy ? formMessages.savingFile : answer ? formMessages.signatureSaved : (problem ?? '')}
        </p>
        </>
      )}
    </FieldShell>
  );
}
