import { useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import { recoveryCodeSchema, type MfaMethod } from '@/contract/auth';
import { useProductName } from '@/data/app-config-store';
import { readMfaChallenge, type MfaChallenge } from '@/data/mfa-challenge';
import { PageHeading } from '@/components/page-heading';
import { TextField } from '@/components/text-field';
import { useToast } from '@/components/use-toast';
import { focusHeading } from '@/lib/focus-heading';
import { sendEmailCode } from '../actions/send-email-code';
import { verifySignIn, type VerifyOutcome } from '../actions/verify-sign-in';
import { codeError } from '../lib/code-error';
import { CodeField } from './code-field';

/** /auth/mfa/verify: the second step of signing in. Without a pending challenge, back to login. */
export function VerifyPage() {
  const [challenge] = useState(readMfaChallenge);
  if (!challenge) return <Navigate to="/" replace />;
  return <VerifyForm challenge={challenge} />;
}

function VerifyForm({ challenge }: { challenge: MfaChallenge }) {
  const product = useProductName();
  const toast = useToast();
  const navigate = useNavigate();
  const canEmail = challenge.methods.includes('email');
  const [method, setMethod] = useState<MfaMethod>(challenge.methods.includes('authenticator') ? 'authenticator' : 'email');
  const [mode, setMode] = useState<'code' | 'recovery'>('code');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [recovery, setRecovery] = useState('');
  const [recoveryError, setRecoveryError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sending, setSending] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);
  const recoveryRef = useRef<HTMLInputElement>(null);

  const handle = (outcome: VerifyOutcome, showField: (message: string) => void) => {
    switch (outcome.kind) {
      case 'signed-in':
        navigate('/dashboard', { replace: true });
        return;
      case 'session':
        toast.error(outcome.message);
        navigate('/', { replace: true });
        return;
      case 'field':
        showField(outcome.message);
        return;
      case 'error':
        toast.error(outcome.message);
    }
  };

  const submitCode = async (event: FormEvent) => {
    event.preventDefault();
    const problem = codeError(code);
    setError(problem);
    if (problem) {
      codeRef.current?.focus();
      return;
    }
    setBusy(true);
    const outcome = await verifySignIn({ two_factor_id: challenge.two_factor_id, method, code }, product);
    setBusy(false);
    handle(outcome, (message) => {
      setError(message);
      codeRef.current?.focus();
    });
  };

  const submitRecovery = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = recoveryCodeSchema.safeParse(recovery);
    if (!parsed.success) {
      setRecoveryError(parsed.error.issues[0]?.message ?? null);
      recoveryRef.current?.focus();
      return;
    }
    setRecoveryError(null);
    setBusy(true);
    const outcome = await verifySignIn(
      { two_factor_id: challenge.two_factor_id, method: 'recovery_code', recovery_code: parsed.data },
      product,
    );
    setBusy(false);
    handle(outcome, (message) => {
      setRecoveryError(message);
      recoveryRef.current?.focus();
    });
  };

  const sendCode = async () => {
    setSending(true);
    const outcome = await sendEmailCode(challenge.two_factor_id, product);
    setSending(false);
    if (outcome.kind === 'sent') {
      setMethod('email');
      toast.success(outcome.message);
      codeRef.current?.focus();
    } else {
      toast.error(outcome.message);
      if (outcome.kind === 'session') navigate('/', { replace: true });
    }
  };

  const switchMode = (next: 'code' | 'recovery') => {
    setMode(next);
    setError(null);
    setRecoveryError(null);
    focusHeading();
  };

  if (mode === 'recovery') {
    return (
      <div className="auth-card">
        <PageHeading>Use a recovery code</PageHeading>
        <p className="lead">Type one of the recovery codes you saved when you set up two-factor sign-in. Each code works once.</p>
        <form className="form" onSubmit={submitRecovery} noValidate>
          <TextField
            ref={recoveryRef}
            label="Recovery code"
            hint="It looks like abcde-12345."
            autoComplete="off"
            autoCapitalize="off"
            autoCorrect="off"
            spellCheck={false}
            value={recovery}
            error={recoveryError ?? undefined}
            onChange={(event) => setRecovery(event.target.value)}
          />
          <button type="submit" className="button button--primary button--block" disabled={busy}>
            {busy ? 'Checking…' : 'Sign in'}
          </button>
        </form>
        <div className="actions">
          <button type="button" className="button button--ghost" onClick={() => switchMode('code')}>
            Use a verification code instead
          </button>
        </div>
      </div>
    );
  }

  return (
    <div className="auth-card">
      <PageHeading>Check it’s you</PageHeading>
      <p className="lead">
        {method === 'authenticator'
          ? 'Open your authenticator app and type the 6-digit code it shows for Hearth.'
          : 'Type the 6-digit code from the email we sent you.'}
      </p>
      <form className="form" onSubmit={submitCode} noValidate>
        <CodeField ref={codeRef} value={code} onChange={(value) => { setCode(value); setError(null); }} error={error} autoFocus />
        <button type="submit" className="button button--primary button--block" disabled={busy}>
          {busy ? 'Checking…' : 'Verify'}
        </button>
      </form>
      <div className="actions actions--stack">
        {canEmail ? (
          <button type="button" className="button button--secondary" onClick={sendCode} disabled={sending}>
            {sending ? 'Sending…' : 'Send me a code by email'}
          </button>
        ) : null}
        <button type="button" className="button button--ghost" onClick={() => switchMode('recovery')}>
          Use a recovery code
        </button>
        <Link to="/" className="button button--ghost">
          Back to sign in
        </Link>
      </div>
    </div>
  );
}
