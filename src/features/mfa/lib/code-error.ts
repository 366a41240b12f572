import { verificationCodeSchema } from '@/contract/auth';
import { messages } from '@/contract/messages';
import { rules } from '@/contract/rules';

/** SPEC §5 on submit: empty → required; not digits → 6 digits; too few → incomplete. Null when valid. */
export function codeError(value: string): string | null {
  const code = value.trim();
  if (!code) return messages.codeRequired;
  if (/\D/.test(code)) return messages.codeSixDigits;
  if (code.length < rules.codeLength) return messages.codeIncomplete;
  const parsed = verificationCodeSchema.safeParse(code);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? messages.codeSixDigits);
}

/** While typing only the format shows; "incomplete" waits for submit. */
export function liveCodeError(value: string): string | null {
  return /\D/.test(value) ? messages.codeSixDigits : null;
}
