import type { ClipboardEvent, Ref } from 'react';
import { TextField } from '@/components/text-field';
import { liveCodeError } from '../lib/code-error';
import { normalisePastedCode, normaliseTypedCode } from '../lib/normalise-code';

interface CodeFieldProps {
  value: string;
  onChange: (value: string) => void;
  /** The submit-time or server error; a live format error shows when there is none. */
  error?: string | null;
  hint?: string;
  label?: string;
  autoFocus?: boolean;
  ref?: Ref<HTMLInputElement>;
}

/** One input for the whole 6-digit code: numeric keyboard, one-time-code autofill, paste-friendly. */
export function CodeField({ value, onChange, error, hint, label = 'Verification code', autoFocus, ref }: CodeFieldProps) {
  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const text = event.clipboardData.getData('text');
    if (!text) return;
    event.preventDefault();
    onChange(normalisePastedCode(text));
  };
  return (
    <TextField
      ref={ref}
      label={label}
      hint={hint}
      error={error ?? liveCodeError(value) ?? undefined}
      className="field--code"
      name="code"
      inputMode="numeric"
      autoComplete="one-time-code"
      autoCapitalize="off"
      autoCorrect="off"
      spellCheck={false}
      maxLength={20}
      autoFocus={autoFocus}
      value={value}
      onPaste={onPaste}
      onChange={(event) => onChange(normaliseTypedCode(event.target.value))}
    />
  );
}
