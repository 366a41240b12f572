import type { KeyboardEvent } from 'react';
import { formMessages } from '@/contract/forms';
import { FieldShell } from '../field-shell';
import { sliderText } from '../slider-text';
import type { FieldProps } from './field-props';

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));
/** Rounds to the step from min, and strips float noise (0.1 + 0.2). */
const snap = (n: number, min: number, step: number) => Number((min + Math.round((n - min) / step) * step).toFixed(10));

/**
 * slider: a native range input with its value shown in an <output> and spoken through
 * aria-valuetext. A range always shows a position, so "not answered" is its own state (null)
 * until the person moves it, presses a key on it or lets go of it; the output then says so in
 * words. The keys are handled here (arrows and Page keys step, Home and End go to the ends)
 * because the first key on an unanswered slider must start from the shown position, and so every
 * browser steps alike.
 */
export function SliderField({ field, value, onChange, onBlur, error, disabled }: FieldProps<'slider'>) {
  const { min, max, step } = field;
  const current = typeof value === 'number' ? value : null;
  const shown = current ?? min;
  const set = (n: number) => onChange(clamp(snap(n, min, step), min, max));
  const bigStep = Math.max(step, snap((max - min) / 10, 0, step));

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const moves: Record<string, () => number> = {
      ArrowRight: () => (current === null ? min + step : current + step),
      ArrowUp: () => (current === null ? min + step : current + step),
      ArrowLeft: () => (current === null ? min : current - step),
      ArrowDown: () => (current === null ? min : current - step),
      PageUp: () => shown + bigStep,
      PageDown: () => shown - bigStep,
      Home: () => min,
      End: () => max,
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    set(move());
  };
  const answerShown = () => {
    if (current === null) set(shown);
  };

  return (
    <FieldShell field={field} error={error} layout="single">
      {({ controlId, describedBy, invalid }) => (
        <div className="form-slider">
          <span className="form-slider__end" aria-hidden="true">
            {min}
          </span>
          <input
            id={controlId}
            type="range"
            className="form-slider__input"
            min={min}
            max={max}
            step={step}
            value={shown}
            onChange={(e) => set(Number(e.target.value))}
            onKeyDown={onKeyDown}
            onPointerUp={answerShown}
            onBlur={onBlur}
            disabled={disabled}
            aria-valuetext={current === null ? `${formMessages.notAnswered}, from ${min} to ${max}` : sliderText(current, min, max)}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            data-answered={current !== null}
            data-focus-first
          />
          <span className="form-slider__end" aria-hidden="true">
            {max}
          </span>
          <output htmlFor={controlId} className="form-slider__output" aria-hidden="true">
            {current === null ? formMessages.notAnswered : current}
          </output>
        </div>
      )}
    </FieldShell>
  );
}
