import { useId, useRef, type ChangeEvent } from 'react';
import { formLimits, formMessages, type FileAnswer } from '@/contract/forms';
import { messages } from '@/contract/messages';
import { isFileAnswer } from '../answers';
import { FieldShell } from '../field-shell';
import { FILE_ACCEPT, attachmentAlt, isAllowedFile } from '../file-names';
import { useFileStore } from '../use-file-store';
import type { FileFieldProps } from './field-props';

const fileList = (value: unknown): FileAnswer[] => (Array.isArray(value) ? value.filter(isFileAnswer) : []);

/**
 * embedded_files: several files (up to formLimits.maxEmbeddedFiles), each kept through
 * `files.store` and listed with its preview and a "Remove" button. Each kept file is added to the
 * answer as it stands then (`getValue`), so files finishing out of order are all kept.
 */
export function EmbeddedFilesField({ field, value, onChange, onBlur, error, disabled, files, getValue }: FileFieldProps<'embedded_files'>) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const { keep, busy, problem, setProblem } = useFileStore(files);
  const list = fileList(value);
  const max = formLimits.maxEmbeddedFiles;

  const onPick = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = Array.from(event.target.files ?? []);
    event.target.value = '';
    const picked = chosen.filter(isAllowedFile);
    const room = max - fileList(getValue()).length;
    // One at a time, in the order picked, so the list keeps that order.
    for (const file of picked.slice(0, Math.max(0, room))) {
      await keep(() => file, file.name, (answer) => onChange([...fileList(getValue()), answer].slice(0, max)));
    }
    // After the kept ones (each starts by clearing the message): say why the rest were left out.
    if (picked.length > room) setProblem(formMessages.tooManyFiles(max));
    else if (picked.length < chosen.length) setProblem(messages.fileTypeNotAllowed);
  };
  const remove = (index: number) => {
    onChange(list.filter((_, i) => i !== index));
    setProblem(null);
    input.current?.focus();
  };

  return (
    <FieldShell field={field} error={problem ?? error} layout="group">
      {({ invalid }) => (
        <div className="form-file">
          {list.length > 0 ? (
            <ul className="form-file__list">
              {list.map((file, index) => (
                <li key={file.file_id} className="form-file__item">
                  <div className="form-file__preview">
                    <files.Preview file={file} alt={attachmentAlt(field.label, index, list.length)} />
                  </div>
                  <button type="button" className="button button--secondary" onClick={() => remove(index)} disabled={disabled}>
                    Remove<span className="visually-hidden"> file {index + 1}</span>
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
          <label className={`button button--secondary form-file__pick${disabled ? ' form-file__pick--disabled' : ''}`}>
            <span>Add files</span>
            <input
              ref={input}
              type="file"
              multiple
              accept={FILE_ACCEPT}
              className="form-file__input"
              onChange={(e) => void onPick(e)}
              onBlur={onBlur}
              disabled={disabled}
              aria-invalid={invalid || undefined}
              aria-describedby={`${id}-count`}
              data-focus-first
            />
          </label>
          <p id={`${id}-count`} className="field__hint">
            {formMessages.filesAdded(list.length, max)}
          </p>
          <p className="visually-hidden" role="status">
            {busy ? formMessages.savingFile : (problem ?? '')}
          </p>
        </div>
      )}
    </FieldShell>
  );
}
