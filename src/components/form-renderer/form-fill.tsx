import type { ReactNode } from 'react';
import type { Answers } from '@/contract/forms';
import { FieldControl } from './field-control';
import { FormHeading } from './form-heading';
import type { FormFiles, RelatedFormOption } from './types';
import { UnknownRow } from './unknown-row';
import { FilesInFlight } from './use-file-store';
import { useFormFill } from './use-form-fill';
import './form-renderer.css';

export interface FormFillProps {
  fields: readonly unknown[];
  /** E.g. a restored draft. Read when the form mounts. */
  defaultValues?: Answers;
  files: FormFiles;
  relatedForms?: readonly RelatedFormOption[];
  /** Every change (debounce not required; the caller may debounce), for keeping an encrypted draft. */
  onChange?(answers: Answers): void;
  /** Called with valid answers (answersSchemaFor(fields,{complete:true}) passed). May return server field errors (keys are field ids, or `answers.<id>` as the server sends them) to show beside the fields. */
  onSubmit(answers: Answers): Promise<void | { errors?: Record<string, string[] | string> }>;
  submitLabel: string;
  /** Extra content (e.g. a cancel link) rendered beside the submit button. */
  actions?: ReactNode;
  disabled?: boolean;
  /** The <form>'s accessible name. */
  'aria-label'?: string;
  /** Level of section headings in the form (group headings one below); 2 by default. */
  headingLevel?: 2 | 3;
  /** Field errors to show when the form opens (answers the server refused after they were queued). Read when the form mounts. */
  initialErrors?: Record<string, string[] | string> | null;
}

const NO_FORMS: readonly RelatedFormOption[] = [];

/**
 * A form definition in fill-in mode: every SPEC §3 kind as a labelled control that works with the
 * keyboard alone. `onSubmit` receives an answer for every answerable field (null when unanswered,
 * so a cleared answer is cleared on the server too); rows the renderer cannot show have none.
 */
export function FormFill({ fields, defaultValues, files, relatedForms = NO_FORMS, onChange, onSubmit, submitLabel, actions, disabled = false, 'aria-label': ariaLabel, headingLevel = 2, initialErrors }: FormFillProps) {
  const { form, definition, formRef, formErrors, submit, busy, trackFile } = useFormFill({ fields, defaultValues, onChange, onSubmit, initialErrors });
  return (
    <FilesInFlight value={trackFile}>
      <form ref={formRef} className="form form-renderer" noValidate aria-label={ariaLabel} onSubmit={(e) => void submit(e)}>
        {definition.rows.map((row) => {
          if (row.kind === 'unknown') return <UnknownRow key={row.key} label={row.label} />;
          if (row.field.kind === 'heading') return <FormHeading key={row.key} field={row.field} level={headingLevel} />;
          return <FieldControl key={row.key} field={row.field} control={form.control} getValues={form.getValues} files={files} relatedForms={relatedForms} disabled={disabled} />;
        })}
        {formErrors.length > 0 ? (
          <div className="form-renderer__problems" role="alert">
            {formErrors.map((message) => (
              <p key={message} className="field__error">
                {message}
              </p>
            ))}
          </div>
        ) : null}
        <div className="actions">
          {/* aria-disabled while sending, not disabled: a disabled button drops the keyboard focus. */}
          <button type="submit" className="button button--primary" disabled={disabled} aria-disabled={busy || undefined}>
            {submitLabel}
          </button>
          {actions}
        </div>
      </form>
    </FilesInFlight>
  );
}
