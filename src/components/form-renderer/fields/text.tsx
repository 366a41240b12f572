import { FieldShell } from '../field-shell';
import type { FieldProps } from './field-props';

/**
 * text: an input; large_text: a textarea. No maxLength attribute: a browser would silently stop
 * the typing, whereas the schema says how long an answer may be, beside the field.
 */
export function TextAnswerField({ field, value, onChange, onBlur, error, disabled }: FieldProps<'text' | 'large_text'>) {
  const common = {
    value: typeof value === 'string' ? value : '',
    onChange: (e: { target: { value: string } }) => onChange(e.target.value),
    onBlur,
    disabled,
    className: 'field__input',
    'data-focus-first': true,
  };
  return (
    <FieldShell field={field} error={error} layout="single">
      {({ controlId, describedBy, invalid }) =>
        field.kind === 'large_text' ? (
          <textarea id={controlId} rows={5} aria-describedby={describedBy} aria-invalid={invalid || undefined} {...common} className="field__input form-field__textarea" />
        ) : (
          <input id={controlId} type="text" aria-describedby={describedBy} aria-invalid={invalid || undefined} {...common} />
        )
      }
    </FieldShell>
  );
}

