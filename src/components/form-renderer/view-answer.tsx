import { Fragment, type ReactNode } from 'react';
import { formMessages, isAnswered, type FormField } from '@/contract/forms';
import { isFileAnswer } from './answers';
import { colourName, parseHex } from './colours';
import { attachmentAlt, imageAlt, signatureAlt } from './file-names';
import { relatedFormName } from './related-names';
import { sliderText } from './slider-text';
import type { FormFiles, RelatedFormOption } from './types';

interface ViewAnswerProps {
  field: Exclude<FormField, { kind: 'heading' }>;
  value: unknown;
  files: Pick<FormFiles, 'Preview'>;
  relatedForms: readonly RelatedFormOption[] | undefined;
}

const notAnswered = <span className="form-view__none">{formMessages.notAnswered}</span>;
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v !== '') : []);
const yesNo = (yes: boolean) => (yes ? 'Yes' : 'No');

/** Lines as text with <br> between them: the words are never HTML, and their line breaks stay. */
function Lines({ text }: { text: string }) {
  const lines = text.split(/\r\n|\r|\n/);
  return (
    <span className="form-view__text">
      {lines.map((line, i) => (
        <Fragment key={i}>
          {i > 0 ? <br /> : null}
          {line}
        </Fragment>
      ))}
    </span>
  );
}

function List({ items }: { items: readonly string[] }) {
  return (
    <ul className="form-view__list-items">
      {items.map((item, i) => (
        <li key={`${i}-${item}`}>{item}</li>
      ))}
    </ul>
  );
}

/**
 * One answer in read-only mode, in words. A value that does not fit its question (an older
 * version, a hand-made answer) is shown as "Not answered" rather than guessed at, except where the
 * raw words are still meaningful (an option no longer offered is shown by its value).
 */
export function ViewAnswer({ field, value, files, relatedForms }: ViewAnswerProps): ReactNode {
  if (!isAnswered(value)) return notAnswered;
  switch (field.kind) {
    case 'boolean':
      return typeof value === 'boolean' ? yesNo(value) : notAnswered;
    case 'yes_no':
      return value === 'yes' || value === 'no' ? yesNo(value === 'yes') : notAnswered;
    case 'text':
    case 'large_text':
      return typeof value === 'string' ? <Lines text={value} /> : notAnswered;
    case 'image':
      return isFileAnswer(value) ? <files.Preview file={{ file_id: value.file_id }} alt={imageAlt(field.label)} /> : notAnswered;
    case 'signature':
      return isFileAnswer(value) ? <files.Preview file={{ file_id: value.file_id }} alt={signatureAlt(field.label)} /> : notAnswered;
    case 'embedded_files': {
      const list = Array.isArray(value) ? value.filter(isFileAnswer) : [];
      if (list.length === 0) return notAnswered;
      return (
        <ul className="form-view__files">
          {list.map((file, i) => (
            <li key={`${i}-${file.file_id}`}>
              <files.Preview file={{ file_id: file.file_id }} alt={attachmentAlt(field.label, i, list.length)} />
            </li>
          ))}
        </ul>
      );
    }
    case 'slider':
      return typeof value === 'number' && Number.isFinite(value) ? sliderText(value, field.min, field.max) : notAnswered;
    case 'table': {
      const rows = Array.isArray(value) ? value.filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null) : [];
      if (rows.length === 0) return notAnswered;
      return (
        <div className="form-table__scroll">
          <table className="form-table__table form-view__table">
            <caption className="visually-hidden">{field.label}</caption>
            <thead>
              <tr>
                {field.columns.map((c) => (
                  <th key={c.id} scope="col">
                    {c.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row, i) => (
                <tr key={i}>
                  {field.columns.map((c) => {
                    const cell = row[c.id];
                    return <td key={c.id}>{typeof cell === 'string' ? <Lines text={cell} /> : null}</td>;
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    }
    case 'multi_option': {
      const labels = strings(value).map((v) => field.options.find((o) => o.value === v)?.label ?? v);
      if (labels.length === 0) return notAnswered;
      return field.multiple ? <List items={labels} /> : labels.join(', ');
    }
    case 'related_forms': {
      const names = strings(value).map((id) => relatedFormName(id, relatedForms));
      return names.length === 0 ? notAnswered : <List items={names} />;
    }
    case 'colour': {
      if (typeof value !== 'string') return notAnswered;
      const hex = parseHex(value);
      if (!hex) return value;
      return (
        <span className="form-view__colour">
          <span className="form-swatch__dot" style={{ backgroundColor: hex }} aria-hidden="true" />
          {colourName(hex)} {hex}
        </span>
      );
    }
  }
}
