import { useId, type ComponentPropsWithRef, type ReactNode } from 'react';

export type TextFieldProps = ComponentPropsWithRef<'input'> & {
  label: string;
  hint?: ReactNode;
  error?: string | undefined;
  /** Something to show after the input inside the same row (e.g. a show/hide button). */
  addon?: ReactNode;
};

/** A labelled input; hint and error are tied to it with aria-describedby, errors set aria-invalid. */
export function TextField({ label, hint, error, addon, id, className, ...input }: TextFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' field--invalid' : ''}${className ? ` ${className}` : ''}`}>
      <label htmlFor={inputId} className="field__label">
        {label}
      </label>
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      <div className="field__row">
        <input
          id={inputId}
          className="field__input"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          {...input}
        />
        {addon}
      </div>
      {error ? (
        <p id={errorId} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
