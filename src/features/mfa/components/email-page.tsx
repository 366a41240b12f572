import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { emailSchema } from '@/contract/auth';
import { chosenMessages } from '@/contract/messages';
import { fieldError } from '@/api/result';
import { useProductName } from '@/data/app-config-store';
import { useAccount } from '@/data/session-store';
import { PageHeading } from '@/components/page-heading';
import { PasswordField } from '@/components/password-field';
import { TextField } from '@/components/text-field';
import { useToast } from '@/components/use-toast';
import { failureMessage } from '@/lib/failure-message';
import { focusHeading } from '@/lib/focus-heading';
import { confirmSetUp } from '../actions/confirm-set-up';
import { passwordProblem, startSetUp } from '../actions/start-set-up';
import { useFinishSetUp } from '../hooks/use-finish-set-up';
import { codeError } from '../lib/code-error';
import { CodeField } from './code-field';
import { RecoveryCodes } from './recovery-codes';

/** /auth/mfa/configure/email: type an address, get a code, confirm it. */
export function EmailPage() {
  const account = useAccount();
  const product = useProductName();
  const toast = useToast();
  const { finish, finishing } = useFinishSetUp();
  const [step, setStep] = useState<'email' | 'code' | 'codes'>('email');
  const [email, setEmail] = useState(account?.user.email ?? '');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [codeProblem, setCodeProblem] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  // Asked for only when the server wants it (a signed-in session: step-up), then kept for "Send again".
  const [needsPassword, setNeedsPassword] = useState(false);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  // The field appears when first asked for: take the person straight to it.
  useEffect(() => {
    if (needsPassword) passwordRef.current?.focus();
  }, [needsPassword]);
  const codeRef = useRef<HTMLInputElement>(null);

  const send = async (event?: FormEvent) => {
    event?.preventDefault();
    const parsed = emailSchema.safeParse(email);
    if (!parsed.success) {
      setEmailError(parsed.error.issues[0]?.message ?? chosenMessages.emailInvalid);
      setStep('email');
      emailRef.current?.focus();
      return;
    }
    setEmailError(null);
    if (needsPassword && !password) {
      setPasswordError(chosenMessages.currentPasswordRequired);
      setStep('email');
      passwordRef.current?.focus();
      return;
    }
    setBusy(true);
    const result = await startSetUp({ method: 'email', email: parsed.data, ...(needsPassword ? { current: password } : {}) });
    setBusy(false);
    if (!result.ok) {
      const field = fieldError(result, 'email');
      const passwordAsked = passwordProblem(result);
      if (passwordAsked && !field) {
        setNeedsPassword(true);
        // The first time it is simply asked for: no error until a password was typed.
        setPasswordError(needsPassword ? passwordAsked : null);
        setStep('email');
        passwordRef.current?.focus();
      } else if (field) {
        setEmailError(field);
        setStep('email');
        emailRef.current?.focus();
      } else toast.error(failureMessage(result, product));
      return;
    }
    toast.success(chosenMessages.mfaCodeSent);
    if (step !== 'code') {
      setStep('code');
      focusHeading();
    }
  };

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    const problem = codeError(code);
    setCodeProblem(problem);
    if (problem) {
      codeRef.current?.focus();
      return;
    }
    setBusy(true);
    const result = await confirmSetUp({ method: 'email', email: email.trim(), code });
    setBusy(false);
    if (!result.ok) {
      if (result.status === 422) {
        setCodeProblem(fieldError(result, 'code') ?? failureMessage(result, product));
        codeRef.current?.focus();
      } else toast.error(failureMessage(result, product));
      return;
    }
    if (result.data.recovery_codes?.length) {
      setCodes(result.data.recovery_codes);
      setStep('codes');
    } else await finish();
  };

  if (step === 'codes') return <RecoveryCodes codes={codes} onDone={finish} busy={finishing} />;

  if (step === 'code') {
    return (
      <div className="auth-card">
        <PageHeading>Check your email</PageHeading>
        <p className="lead">
          We sent a 6-digit code to <strong>{email.trim()}</strong>. It can take a minute to arrive.
        </p>
        <form className="form" onSubmit={confirm} noValidate aria-label="Confirm email">
          <CodeField
            ref={codeRef}
            value={code}
            onChange={(value) => {
              setCode(value);
              setCodeProblem(null);
            }}
            error={codeProblem}
            autoFocus
          />
          <button type="submit" className="button button--primary button--block" disabled={busy || finishing}>
            {busy ? 'Checking…' : 'Turn on two-factor sign-in'}
          </button>
        </form>
        <div className="actions">
          <button type="button" className="button button--secondary" onClick={() => void send()} disabled={busy}>
            Send the code again
          </button>
          <button
            type="button"
            className="button button--ghost"
            onClick={() => {
              setStep('email');
              focusHeading();
            }}
          >
            Change email address
          </button>
        </div>
      </div>
    );
  }

  return (
    <div className="auth-card">
      <PageHeading>Email code</PageHeading>
      <p className="lead">Each time you sign in, we will send a code to this email address.</p>
      <form className="form" onSubmit={send} noValidate aria-label="Email address for codes">
        <TextField
          ref={emailRef}
          label="Email address"
          type="email"
          inputMode="email"
          autoComplete="email"
          autoCapitalize="off"
          spellCheck={false}
          value={email}
          error={emailError ?? undefined}
          onChange={(event) => {
            setEmail(event.target.value);
            setEmailError(null);
          }}
        />
        {needsPassword ? (
          <PasswordField
            ref={passwordRef}
            label="Your password"
            hint="To keep your account safe, type your password too."
            autoComplete="current-password"
            value={password}
            error={passwordError ?? undefined}
            onChange={(event) => {
              setPassword(event.target.value);
              setPasswordError(null);
            }}
          />
        ) : null}
        <button type="submit" className="button button--primary button--block" disabled={busy}>
          {busy ? 'Sending…' : 'Send me a code'}
        </button>
      </form>
      <div className="actions">
        <Link to="/auth/mfa/configure" className="button button--ghost">Choose another way</Link>
      </div>
    </div>
  );
}
