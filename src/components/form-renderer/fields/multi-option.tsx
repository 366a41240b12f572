import { FieldShell } from '../field-shell';
import { ChoiceList } from './choice-list';
import type { FieldProps } from './field-props';

/** multi_option: checkboxes when several answers are allowed, radios when one; the answer is always a list. */
export function MultiOptionField({ field, value, onChange, onBlur, error, disabled }: FieldProps<'multi_option'>) {
  return (
    <FieldShell field={field} error={error} layout="group">
      {({ invalid }) => (
        <ChoiceList
          choices={field.options}
          chosen={Array.isArray(value) ? (value as string[]) : []}
          multiple={field.multiple}
          onChange={onChange}
          onBlur={onBlur}
          invalid={invalid}
          disabled={disabled}
        />
      )}
    </FieldShell>
  );
}
