import { FieldShell } from '../field-shell';
import { ChoiceList } from './choice-list';
import type { FieldProps } from './field-props';

const YES_NO = [
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No' },
] as const;

/** yes_no: a "Yes"/"No" radio group in a fieldset; the answer is 'yes' or 'no'. */
export function YesNoField({ field, value, onChange, onBlur, error, disabled }: FieldProps<'yes_no'>) {
  return (
    <FieldShell field={field} error={error} layout="group">
      {({ invalid }) => (
        <ChoiceList
          choices={YES_NO}
          chosen={typeof value === 'string' ? [value] : []}
          multiple={false}
          onChange={(chosen) => onChange(chosen[0] ?? null)}
          onBlur={onBlur}
          invalid={invalid}
          disabled={disabled}
        />
      )}
    </FieldShell>
  );
}
