import { useId } from 'react';
import { formMessages } from '@/contract/forms';
import { COLOUR_SWATCHES, colourName, parseHex } from '../colours';
import { FieldShell } from '../field-shell';
import type { FieldProps } from './field-props';

/**
 * colour: named swatches as radios ("Blue #1e66f5": never the hue alone), then any colour through
 * the native picker or by its code. The answer is '#rrggbb'; a code typed that is not a colour yet
 * stays as typed, and the schema says "Choose a colour like #1a2b3c" beside it.
 */
export function ColourField({ field, value, onChange, onBlur, error, disabled }: FieldProps<'colour'>) {
  const id = useId();
  const text = typeof value === 'string' ? value : '';
  const hex = parseHex(text);
  return (
    <FieldShell field={field} error={error} layout="group">
      {({ invalid }) => (
        <>
          <div className="form-swatches" role="radiogroup" aria-label="Colours to choose from">
            {COLOUR_SWATCHES.map((swatch, index) => (
              <label key={swatch.hex} className="form-swatch">
                <input
                  type="radio"
                  name={`${id}-swatch`}
                  value={swatch.hex}
                  checked={hex === swatch.hex}
                  onChange={() => onChange(swatch.hex)}
                  onBlur={onBlur}
                  disabled={disabled}
                  aria-invalid={invalid || undefined}
                  data-focus-first={index === 0 ? true : undefined}
                />
                <span className="form-swatch__dot" style={{ backgroundColor: swatch.hex }} aria-hidden="true" />
                <span className="visually-hidden">
                  {swatch.name} {swatch.hex}
                </span>
              </label>
            ))}
          </div>
          <div className="form-colour__any">
            <label className="form-colour__picker">
              <span>Pick any colour</span>
              <input type="color" value={hex ?? '#000000'} onChange={(e) => onChange(parseHex(e.target.value) ?? e.target.value)} onBlur={onBlur} disabled={disabled} />
            </label>
            <label className="form-colour__code">
              <span>Colour code</span>
              <input
                type="text"
                className="field__input"
                value={text}
                placeholder="#1a2b3c"
                spellCheck={false}
                autoCapitalize="off"
                // A whole code is tidied to '#rrggbb' at once; anything shorter stays as typed.
                onChange={(e) => onChange(parseHex(e.target.value) ?? e.target.value)}
                onBlur={onBlur}
                disabled={disabled}
                aria-invalid={invalid || undefined}
              />
            </label>
          </div>
          <p className="form-colour__chosen">
            {hex ? (
              <>
                <span className="form-swatch__dot" style={{ backgroundColor: hex }} aria-hidden="true" /> {colourName(hex)} {hex}
              </>
            ) : (
              formMessages.noColour
            )}
          </p>
        </>
      )}
    </FieldShell>
  );
}
