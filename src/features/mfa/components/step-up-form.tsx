import { useRef, useState, type FormEvent } from 'react';
import { chosenMessages } from '@/contract/messages';
import type { Result } from '@/api/result';
import { useProductName } from '@/data/app-config-store';
import { PasswordField } from '@/components/password-field';
import { useToast } from '@/components/use-toast';
import { failureMessage } from '@/lib/failure-message';
import { passwordProblem } from '../actions/start-set-up';

/**
 * Step-up: the server wants the password again before a signed-in person changes their two-factor
 * sign-in (so nobody else can on a tablet left signed in). Its refusal shows beside the field.
 */
export function StepUpForm<T>({
  start,
  onStarted,
  label = 'Confirm it is you',
  submit: submitText = 'Continue',
}: {
  start: (current: string) => Promise<Result<T>>;
  onStarted: (data: T) => void;
  /** The form's accessible name (several may share a page). */
  label?: string;
  submit?: string;
}) {
  const product = useProductName();
  const toast = useToast();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) {
      setError(chosenMessages.currentPasswordRequired);
      field.current?.focus();
      return;
    }
    setBusy(true);
    const result = await start(password);
    setBusy(false);
    if (result.ok) return onStarted(result.data);
    const problem = passwordProblem(result);
    if (problem) {
      setError(problem);
      field.current?.focus();
    } else toast.error(failureMessage(result, product));
  };

  return (
    <form className="form" onSubmit={submit} noValidate aria-label={label}>
      <p className="lead">To keep your account safe, type your password first.</p>
      <PasswordField
        ref={field}
        label="Your password"
        autoComplete="current-password"
        autoFocus
        value={password}
        error={error ?? undefined}
        onChange={(event) => {
          setPassword(event.target.value);
          setError(null);
        }}
      />
      <button type="submit" className="button button--primary button--block" disabled={busy}>
        {busy ? 'Checking…' : submitText}
      </button>
    </form>
  );
}
