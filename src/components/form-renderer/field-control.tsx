import { Controller, type Control, type UseFormGetValues } from 'react-hook-form';
import type { Answers, FormField } from '@/contract/forms';
import { fieldMessage } from './field-message';
import { BooleanField } from './fields/boolean';
import { ColourField } from './fields/colour';
import { EmbeddedFilesField } from './fields/embedded-files';
import { ImageField } from './fields/image';
import { MultiOptionField } from './fields/multi-option';
import { RelatedFormsField } from './fields/related-forms';
import { SignatureField } from './fields/signature';
import { SliderField } from './fields/slider';
import { TableField } from './fields/table';
import { TextAnswerField } from './fields/text';
import { YesNoField } from './fields/yes-no';
import type { FormFiles, RelatedFormOption } from './types';

interface FieldControlProps {
  field: Exclude<FormField, { kind: 'heading' }>;
  control: Control<Answers>;
  getValues: UseFormGetValues<Answers>;
  files: FormFiles;
  relatedForms: readonly RelatedFormOption[];
  disabled: boolean;
}

/** One answerable field in fill-in mode: its kind's control, bound to the form by its id. */
export function FieldControl({ field, control, getValues, files, relatedForms, disabled }: FieldControlProps) {
  return (
    <Controller
      control={control}
      name={field.id}
      render={({ field: bound, fieldState }) => {
        const common = {
          value: bound.value,
          onChange: (value: unknown) => bound.onChange(value),
          onBlur: bound.onBlur,
          getValue: () => getValues(field.id),
          error: fieldMessage(field, fieldState.error),
          disabled,
        };
        switch (field.kind) {
          case 'boolean':
            return <BooleanField field={field} {...common} />;
          case 'yes_no':
            return <YesNoField field={field} {...common} />;
          case 'text':
          case 'large_text':
            return <TextAnswerField field={field} {...common} />;
          case 'image':
            return <ImageField field={field} files={files} {...common} />;
          case 'signature':
            return <SignatureField field={field} files={files} {...common} />;
          case 'embedded_files':
            return <EmbeddedFilesField field={field} files={files} {...common} />;
          case 'slider':
            return <SliderField field={field} {...common} />;
          case 'table':
            return <TableField field={field} {...common} />;
          case 'multi_option':
            return <MultiOptionField field={field} {...common} />;
          case 'related_forms':
            return <RelatedFormsField field={field} relatedForms={relatedForms} {...common} />;
          case 'colour':
            return <ColourField field={field} {...common} />;
        }
      }}
    />
  );
}
