import type { FormField, FormFieldKind } from '@/contract/forms';
import type { FormFiles, RelatedFormOption } from '../types';

/** What every fill-in control gets: its field, its value and how to change it, and its error. */
export interface FieldProps<K extends FormFieldKind> {
  field: Extract<FormField, { kind: K }>;
  value: unknown;
  onChange(value: unknown): void;
  onBlur(): void;
  /** The value as it is now (not as of this render): for answers that change after an await. */
  getValue(): unknown;
  error: string | undefined;
  disabled: boolean;
}

export interface FileFieldProps<K extends FormFieldKind> extends FieldProps<K> {
  files: FormFiles;
}

export interface RelatedFieldProps extends FieldProps<'related_forms'> {
  relatedForms: readonly RelatedFormOption[];
}
