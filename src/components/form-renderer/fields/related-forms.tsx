import { formMessages } from '@/contract/forms';
import { FieldShell } from '../field-shell';
import { relatedFormName } from '../related-names';
import { ChoiceList } from './choice-list';
import type { RelatedFieldProps } from './field-props';

/** related_forms: a checkbox per related form, named by the form's name; the answer is the ticked ids. */
export function RelatedFormsField({ field, value, onChange, onBlur, error, disabled, relatedForms }: RelatedFieldProps) {
  const choices = field.related_form_ids.map((id) => ({ value: id, label: relatedFormName(id, relatedForms) }));
  return (
    <FieldShell field={field} error={error} layout="group">
      {({ invalid }) =>
        choices.length === 0 ? (
          <p className="form-field__note">{formMessages.noRelatedForms}</p>
        ) : (
          <ChoiceList
            choices={choices}
            chosen={Array.isArray(value) ? (value as string[]) : []}
            multiple
            onChange={onChange}
            onBlur={onBlur}
            invalid={invalid}
            disabled={disabled}
          />
        )
      }
    </FieldShell>
  );
}
