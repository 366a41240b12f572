import { useMemo, type JSX } from 'react';
import type { Answers, FormField } from '@/contract/forms';
import { readDefinition, type FormRow } from './definition';
import { FormHeading } from './form-heading';
import type { FormFiles, RelatedFormOption } from './types';
import { UnknownRow } from './unknown-row';
import { ViewAnswer } from './view-answer';
import './form-renderer.css';

export interface FormViewProps {
  fields: readonly unknown[];
  answers: Answers;
  files: Pick<FormFiles, 'Preview'>;
  relatedForms?: readonly RelatedFormOption[];
  /** Level of section headings (group headings one below); 2 by default. */
  headingLevel?: 2 | 3;
}

type AnswerField = Exclude<FormField, { kind: 'heading' }>;
type Segment = { kind: 'row'; row: FormRow } | { kind: 'list'; key: string; fields: AnswerField[] };

/** Headings and rows that cannot be shown break the questions into separate definition lists (a <dl> holds only questions). */
function segmentsOf(rows: readonly FormRow[]): Segment[] {
  const segments: Segment[] = [];
  for (const row of rows) {
    if (row.kind === 'field' && row.field.kind !== 'heading') {
      const last = segments[segments.length - 1];
      if (last?.kind === 'list') last.fields.push(row.field);
      else segments.push({ kind: 'list', key: `list-${row.key}`, fields: [row.field] });
    } else {
      segments.push({ kind: 'row', row });
    }
  }
  return segments;
}

/** A filled form, read-only: each question and its answer in words, in the definition's order. */
export function FormView({ fields, answers, files, relatedForms, headingLevel = 2 }: FormViewProps): JSX.Element {
  const segments = useMemo(() => segmentsOf(readDefinition(fields).rows), [fields]);
  const source: Answers = typeof answers === 'object' && answers !== null ? answers : {};
  return (
    <div className="form-view">
      {segments.map((segment) => {
        if (segment.kind === 'list') {
          return (
            <dl key={segment.key} className="form-view__list">
              {segment.fields.map((field) => (
                <div key={field.id} className="form-view__item">
                  <dt className="form-view__question">{field.label}</dt>
                  <dd className="form-view__answer">
                    <ViewAnswer field={field} value={Object.hasOwn(source, field.id) ? source[field.id] : undefined} files={files} relatedForms={relatedForms} />
                  </dd>
                </div>
              ))}
            </dl>
          );
        }
        const { row } = segment;
        if (row.kind === 'unknown') return <UnknownRow key={row.key} label={row.label} />;
        return row.field.kind === 'heading' ? <FormHeading key={row.key} field={row.field} level={headingLevel} /> : null;
      })}
    </div>
  );
}
