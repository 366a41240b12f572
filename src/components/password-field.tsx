import { useState } from 'react';
import { TextField, type TextFieldProps } from './text-field';

/** A password input with a Show/Hide button (the button says what it will do, and is pressed when shown). */
export function PasswordField(props: Omit<TextFieldProps, 'type' | 'addon'>) {
  const [shown, setShown] = useState(false);
  return (
    <TextField
      {...props}
      type={shown ? 'text' : 'password'}
      autoCapitalize="off"
      autoCorrect="off"
      spellCheck={false}
      addon={
        <button
          type="button"
          className="button button--ghost field__addon"
          onClick={() => setShown((s) => !s)}
        >
          {shown ? 'Hide' : 'Show'}
          <span className="visually-hidden"> {props.label.toLowerCase()}</span>
        </button>
      }
    />
  );
}
