import { useId } from 'react';

export interface Choice {
  value: string;
  label: string;
}

interface ChoiceListProps {
  choices: readonly Choice[];
  /** The chosen values (one at most for radios). */
  chosen: readonly string[];
  multiple: boolean;
  onChange(chosen: string[]): void;
  onBlur(): void;
  invalid: boolean;
  disabled: boolean;
}

/**
 * Checkboxes (several answers) or radios (one answer) as a list of large targets; the question's
 * fieldset and legend name the group. Radios share a name, so the arrow keys move between them.
 */
export function ChoiceList({ choices, chosen, multiple, onChange, onBlur, invalid, disabled }: ChoiceListProps) {
  const name = useId();
  const toggle = (value: string, checked: boolean) => {
    if (!multiple) onChange(checked ? [value] : []);
    // Kept in the options' order, whatever order they were ticked in.
    else onChange(choices.map((c) => c.value).filter((v) => (v === value ? checked : chosen.includes(v))));
  };
  return (
    <ul className="form-choices">
      {choices.map((choice, index) => (
        <li key={choice.value}>
          <label className="form-choice">
            <input
              type={multiple ? 'checkbox' : 'radio'}
              name={name}
              value={choice.value}
              className="form-field__box"
              checked={chosen.includes(choice.value)}
              onChange={(e) => toggle(choice.value, e.target.checked)}
              onBlur={onBlur}
              disabled={disabled}
              aria-invalid={invalid || undefined}
              data-focus-first={index === 0 ? true : undefined}
            />
            <span>{choice.label}</span>
          </label>
        </li>
      ))}
    </ul>
  );
}
