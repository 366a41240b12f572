import { useId, useRef, type KeyboardEvent } from 'react';
import './entry.css';

export interface EmojiPickerProps {
  label: string;
  emojis: readonly { id: string; emoji: string; name: string }[];
  /** The chosen emoji (its text; an id is recognised too), or null for no reaction. */
  value: string | null;
  onChange(value: string | null): void;
  error?: string;
}

const NONE = { id: '', emoji: '', name: 'No reaction' };

/**
 * A radio group of emoji buttons (ARIA radio pattern: one tab stop, arrow keys move and choose).
 * Each button is named by the emoji's name, so a screen reader says "Happy" rather than a symbol.
 */
export function EmojiPicker({ label, emojis, value, onChange, error }: EmojiPickerProps) {
  const id = useId();
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const options = [NONE, ...emojis];
  const selectedIndex = Math.max(
    0,
    options.findIndex((o, i) => i > 0 && value !== null && (o.emoji === value || o.id === value)),
  );

  const choose = (index: number) => {
    const option = options[index];
    if (!option) return;
    onChange(index === 0 ? null : option.emoji);
    buttons.current[index]?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const last = options.length - 1;
    let next: number | null = null;
    if (event.key === 'ArrowRight' || event.key === 'ArrowDown') next = index === last ? 0 : index + 1;
    else if (event.key === 'ArrowLeft' || event.key === 'ArrowUp') next = index === 0 ? last : index - 1;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = last;
    if (next === null) return;
    event.preventDefault();
    choose(next);
  };

  return (
    <div className={`field emoji-picker${error ? ' field--invalid' : ''}`}>
      <span id={`${id}-label`} className="field__label">
        {label}
      </span>
      <div
        role="radiogroup"
        aria-labelledby={`${id}-label`}
        aria-describedby={error ? `${id}-error` : undefined}
        aria-invalid={error ? true : undefined}
        className="emoji-picker__options"
      >
        {options.map((option, index) => {
          const checked = index === selectedIndex;
          return (
            <button
              key={option.id || 'none'}
              ref={(element) => {
                buttons.current[index] = element;
              }}
              type="button"
              role="radio"
              aria-checked={checked}
              aria-label={option.name}
              title={option.name}
              tabIndex={checked ? 0 : -1}
              className={`emoji-picker__option${index === 0 ? ' emoji-picker__option--none' : ''}`}
              onClick={() => choose(index)}
              onKeyDown={(event) => onKeyDown(event, index)}
            >
              {index === 0 ? <span aria-hidden="true">No reaction</span> : <span aria-hidden="true">{option.emoji}</span>}
            </button>
          );
        })}
      </div>
      {error ? (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
