import { useId, type ReactNode } from 'react';
import type { FormField } from '@/contract/forms';

/** What a control needs from its shell to be named and described. */
export interface FieldWiring {
  /** The id for the one control a `<label>` names (single and check shells). */
  controlId: string;
  /** Help text and error ids, for the control's aria-describedby (undefined when there are none). */
  describedBy: string | undefined;
  invalid: boolean;
  /** The label's (or legend's) id, for controls named by reference (a table). */
  labelId: string;
}

interface FieldShellProps {
  field: FormField;
  error?: string | undefined;
  /**
   * `single`: a <label> for one control (text, slider). `check`: a checkbox with its label after
   * it. `group`: a <fieldset> and <legend> around several controls (choices, files, tables).
   */
  layout: 'single' | 'check' | 'group';
  children(wiring: FieldWiring): ReactNode;
}

/** The question's words: its label and, when it must be answered, "(required)" in text (never colour or a sign alone). */
export function FieldLabelText({ field }: { field: FormField }) {
  return (
    <>
      {field.label}
      {field.required ? <span className="form-field__required"> (required)</span> : null}
    </>
  );
}

/**
 * Label, help and error for one question, wired by id: help and error are linked with
 * aria-describedby (on the control; on the fieldset for groups, whose controls carry
 * aria-invalid). The error sits between the words and the control, where a reader meets it.
 * `data-field-id` lets the form move focus to the first question with an error.
 */
export function FieldShell({ field, error, layout, children }: FieldShellProps) {
  const id = useId();
  const controlId = `${id}-control`;
  const labelId = `${id}-label`;
  const helpId = field.help_text ? `${id}-help` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [helpId, errorId].filter(Boolean).join(' ') || undefined;
  const wiring: FieldWiring = { controlId, describedBy, invalid: Boolean(error), labelId };
  const className = `form-field form-field--${field.kind.replace('_', '-')}${error ? ' form-field--invalid' : ''}`;

  const help = helpId ? (
    <p id={helpId} className="field__hint">
      {field.help_text}
    </p>
  ) : null;
  const message = errorId ? (
    <p id={errorId} className="field__error">
      {error}
    </p>
  ) : null;

  if (layout === 'group') {
    return (
      <fieldset className={className} data-field-id={field.id} aria-describedby={describedBy}>
        <legend id={labelId} className="field__label form-field__legend">
          <FieldLabelText field={field} />
        </legend>
        {help}
        {message}
        {children(wiring)}
      </fieldset>
    );
  }
  const label = (
    <label id={labelId} htmlFor={controlId} className="field__label">
      <FieldLabelText field={field} />
    </label>
  );
  if (layout === 'check') {
    return (
      <div className={className} data-field-id={field.id}>
        <div className="form-field__check">
          {children(wiring)}
          {label}
        </div>
        {help}
        {message}
      </div>
    );
  }
  return (
    <div className={className} data-field-id={field.id}>
      {label}
      {help}
      {message}
      {children(wiring)}
    </div>
  );
}
