import { useEffect, useRef, useState } from 'react';
import { formLimits, formMessages } from '@/contract/forms';
import type { TableRow } from '../answers';
import { FieldShell } from '../field-shell';
import type { FieldProps } from './field-props';

const rowsOf = (value: unknown): TableRow[] => (Array.isArray(value) ? (value as TableRow[]) : []);

/**
 * table: a real <table> with a header per column; each cell an input named "<column>, row <n>";
 * "Add row" (up to formLimits.tableMaxRows) and "Remove row <n>". Adding a row moves focus to its
 * first cell, removing one to the row that takes its place (or "Add row"), so a keyboard user
 * never loses their place. Cells have a maxLength: a cell is a short note.
 */
export function TableField({ field, value, onChange, onBlur, error, disabled }: FieldProps<'table'>) {
  const rows = rowsOf(value);
  const full = rows.length >= formLimits.tableMaxRows;
  const body = useRef<HTMLTableSectionElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const [focusRow, setFocusRow] = useState<{ index: number } | null>(null);

  useEffect(() => {
    if (!focusRow) return;
    const cell = body.current?.rows[focusRow.index]?.querySelector('input');
    (cell ?? addButton.current)?.focus();
  }, [focusRow]);

  const empty = (): TableRow => Object.fromEntries(field.columns.map((c) => [c.id, '']));
  const add = () => {
    if (full) return;
    onChange([...rows, empty()]);
    setFocusRow({ index: rows.length });
  };
  const remove = (index: number) => {
    onChange(rows.filter((_, i) => i !== index));
    setFocusRow({ index: Math.min(index, rows.length - 2) });
  };
  const setCell = (index: number, column: string, text: string) => onChange(rows.map((row, i) => (i === index ? { ...row, [column]: text } : row)));

  return (
    <FieldShell field={field} error={error} layout="group">
      {({ labelId, invalid }) => (
        <div className="form-table">
          {rows.length > 0 ? (
            <div className="form-table__scroll">
              <table className="form-table__table" aria-labelledby={labelId}>
                <thead>
                  <tr>
                    {field.columns.map((c) => (
                      <th key={c.id} scope="col">
                        {c.label}
                      </th>
                    ))}
                    <th scope="col">
                      <span className="visually-hidden">Remove</span>
                    </th>
                  </tr>
                </thead>
                <tbody ref={body}>
                  {rows.map((row, index) => (
                    // Rows have no identity of their own; the inputs are controlled, so their text follows the data.
                    <tr key={index}>
                      {field.columns.map((c) => (
                        <td key={c.id}>
                          <input
                            type="text"
                            className="field__input form-table__cell"
                            aria-label={`${c.label}, row ${index + 1}`}
                            value={typeof row[c.id] === 'string' ? row[c.id] : ''}
                            maxLength={formLimits.cellMaxLength}
                            onChange={(e) => setCell(index, c.id, e.target.value)}
                            onBlur={onBlur}
                            disabled={disabled}
                            aria-invalid={invalid || undefined}
                            data-focus-first={index === 0 && c === field.columns[0] ? true : undefined}
                          />
                        </td>
                      ))}
                      <td>
                        <button type="button" className="button button--ghost form-table__remove" onClick={() => remove(index)} disabled={disabled}>
                          Remove row {index + 1}
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p className="form-field__note">{formMessages.noRows}</p>
          )}
          <button ref={addButton} type="button" className="button button--secondary" onClick={add} disabled={disabled || full} aria-describedby={full ? `${labelId}-full` : undefined}>
            Add row
          </button>
          {full ? (
            <p id={`${labelId}-full`} className="field__hint">
              {formMessages.tableFull(formLimits.tableMaxRows)}
            </p>
          ) : null}
        </div>
      )}
    </FieldShell>
  );
}
