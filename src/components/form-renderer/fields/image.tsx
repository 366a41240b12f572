import { useRef, type ChangeEvent } from 'react';
import { formMessages } from '@/contract/forms';
import { isFileAnswer } from '../answers';
import { FieldShell } from '../field-shell';
import { IMAGE_ACCEPT, imageAlt, isAllowedImage } from '../file-names';
import { useFileStore } from '../use-file-store';
import type { FileFieldProps } from './field-props';

/**
 * image: a file picker for one picture, kept through `files.store`; then its preview and
 * "Remove". The picker stays after a picture is chosen ("Choose a different photo"), so focus
 * never falls off the page when the answer changes.
 */
export function ImageField({ field, value, onChange, onBlur, error, disabled, files }: FileFieldProps<'image'>) {
  const input = useRef<HTMLInputElement>(null);
  const { keep, busy, problem, setProblem } = useFileStore(files);
  const answer = isFileAnswer(value) ? value : null;

  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = ''; // the same photo can be picked again after a failure
    if (!file) return;
    if (!isAllowedImage(file)) {
      setProblem(formMessages.notAnImage);
      return;
    }
    void keep(() => file, file.name, onChange);
  };
  const remove = () => {
    onChange(null);
    setProblem(null);
    input.current?.focus();
  };

  return (
    <FieldShell field={field} error={problem ?? error} layout="group">
      {({ invalid }) => (
        <div className="form-file">
          {answer ? (
            <div className="form-file__item">
              <div className="form-file__preview">
                <files.Preview file={answer} alt={imageAlt(field.label)} />
              </div>
              <button type="button" className="button button--secondary" onClick={remove} disabled={disabled}>
                Remove<span className="visually-hidden">: {field.label}</span>
              </button>
            </div>
          ) : null}
          <label className={`button button--secondary form-file__pick${disabled ? ' form-file__pick--disabled' : ''}`}>
            <span>{answer ? 'Choose a different photo' : 'Choose a photo'}</span>
            <input
              ref={input}
              type="file"
              accept={IMAGE_ACCEPT}
              className="form-file__input"
              onChange={onPick}
              onBlur={onBlur}
              disabled={disabled}
              aria-invalid={invalid || undefined}
              data-focus-first
            />
          </label>
          <p className="visually-hidden" role="status">
            {busy ? formMessages.savingFile : (problem ?? '')}
          </p>
        </div>
      )}
    </FieldShell>
  );
}
