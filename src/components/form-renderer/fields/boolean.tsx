import { FieldShell } from '../field-shell';
import type { FieldProps } from './field-props';

/** boolean: one checkbox, named by the question (Space ticks it). */
export function BooleanField({ field, value, onChange, onBlur, error, disabled }: FieldProps<'boolean'>) {
  return (
    <FieldShell field={field} error={error} layout="check">
      {({ controlId, describedBy, invalid }) => (
        <input
          id={controlId}
          type="checkbox"
          className="form-field__box"
          checked={value === true}
          onChange={(e) => onChange(e.target.checked)}
          onBlur={onBlur}
          disabled={disabled}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          data-focus-first
        />
      )}
    </FieldShell>
  );
}
