import { useEffect, useId, useState, type ChangeEvent } from 'react';
import { ALLOWED_FILE_TYPES } from '@/contract/entries';
import { useMediaQuery } from '../../components/use-media-query';
import { notKeptNote, type KeepState } from './use-kept-files';
import './entry.css';

export interface FileAttachProps {
  label: string;
  /** New files chosen on this device. */
  files: readonly File[];
  onChange(files: File[]): void;
  /** Files the entry already has (edit). */
  existing?: readonly { id: string; name: string; mime: string }[];
  onRemoveExisting?(id: string): void;
  max: number;
  error?: string;
  /**
   * With a draft that keeps the files (use-kept-files.ts): where each new file stands. A file that
   * will not come back after a reload says so in a line below the list (a polite live region).
   */
  keptState?(file: File): KeepState | undefined;
}

/** The `accept` list: every allowed type and its extensions. */
export const ACCEPT = Object.entries(ALLOWED_FILE_TYPES)
  .flatMap(([mime, extensions]) => [mime, ...extensions])
  .join(',');

/** A small preview of a chosen image; its object URL is revoked when it goes. */
function ImagePreview({ file }: { file: File }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (typeof URL.createObjectURL !== 'function') return;
    const made = URL.createObjectURL(file);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [file]);
  return url ? <img className="file-attach__thumb" src={url} alt="" /> : <span className="file-attach__thumb" aria-hidden="true" />;
}

const isImage = (mime: string) => mime.startsWith('image/');

/**
 * Attachments: "Add photo or file" (any allowed type, several at once) and, on phones, "Take a
 * photo" with the back camera. Shows what is attached with a remove button each, and "n of max";
 * with `keptState`, a line for each file that a reload would lose.
 */
export function FileAttach({ label, files, onChange, existing = [], onRemoveExisting, max, error, keptState }: FileAttachProps) {
  const id = useId();
  const phone = useMediaQuery('(pointer: coarse)');
  const count = existing.length + files.length;
  const full = count >= max;
  const describedBy = [`${id}-count`, error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const notes = files.flatMap((file, index) => {
    const state = keptState?.(file);
    return state === 'too-big' || state === 'not-kept' ? [{ index, id: `${id}-kept-${index}`, text: notKeptNote(file.name, state) }] : [];
  });
  const noteOf = (index: number) => notes.find((note) => note.index === index)?.id;

  const add = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = Array.from(event.target.files ?? []);
    event.target.value = ''; // the same file can be chosen again after removing it
    if (chosen.length > 0) onChange([...files, ...chosen]);
  };

  return (
    <fieldset className={`field file-attach${error ? ' field--invalid' : ''}`}>
      <legend className="field__label">{label}</legend>
      <p id={`${id}-count`} className="field__hint">
        {count} of {max}
      </p>

      {count > 0 ? (
        <ul className="file-attach__list">
          {existing.map((file) => (
            <li key={file.id} className="file-attach__item">
              <span className="file-attach__thumb file-attach__thumb--icon" aria-hidden="true">
                {isImage(file.mime) ? '🖼' : '📄'}
              </span>
              <span className="file-attach__name">{file.name}</span>
              {onRemoveExisting ? (
                <button type="button" className="button button--ghost" onClick={() => onRemoveExisting(file.id)}>
                  Remove <span className="visually-hidden">{file.name}</span>
                </button>
              ) : null}
            </li>
          ))}
          {files.map((file, index) => (
            <li key={`${file.name}-${index}`} className="file-attach__item" data-kept={keptState?.(file)}>
              {isImage(file.type) ? (
                <ImagePreview file={file} />
              ) : (
                <span className="file-attach__thumb file-attach__thumb--icon" aria-hidden="true">
                  📄
                </span>
              )}
              <span className="file-attach__name">{file.name}</span>
              <button type="button" className="button button--ghost" aria-describedby={noteOf(index)} onClick={() => onChange(files.filter((_, i) => i !== index))}>
                Remove <span className="visually-hidden">{file.name}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}

      {keptState ? (
        // Present before any line comes, so a line that comes is announced.
        <div role="status" className="file-attach__kept">
          {notes.map((note) => (
            <p key={note.id} id={note.id} className="field__hint">
              {note.text}
            </p>
          ))}
        </div>
      ) : null}

      <div className="actions">
        <label className={`button button--secondary file-attach__pick${full ? ' file-attach__pick--disabled' : ''}`}>
          <input
            type="file"
            multiple
            accept={ACCEPT}
            className="visually-hidden"
            disabled={full}
            aria-describedby={describedBy}
            aria-invalid={error ? true : undefined}
            onChange={add}
          />
          Add photo or file
        </label>
        {phone ? (
          <label className={`button button--secondary file-attach__pick${full ? ' file-attach__pick--disabled' : ''}`}>
            <input type="file" accept="image/*" capture="environment" className="visually-hidden" disabled={full} aria-describedby={describedBy} onChange={add} />
            Take a photo
          </label>
        ) : null}
      </div>

      {error ? (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
