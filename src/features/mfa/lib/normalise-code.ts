import { rules } from '@/contract/rules';

/**
 * Typed input: spaces, dashes and dots are separators and go; anything else stays so the person
 * sees "Code must be 6 digits". Digits are capped at the code length.
 */
export function normaliseTypedCode(raw: string): string {
  const value = raw.replace(/[\s.-]/g, '');
  return /^\d*$/.test(value) ? value.slice(0, rules.codeLength) : value.slice(0, 20);
}

/** Pasted input ("123 456", "Your code: 123-456"): keep the digits, cap at the code length. */
export function normalisePastedCode(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, rules.codeLength);
}
