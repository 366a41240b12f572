import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import type { MfaEnableData } from '@/contract/auth';
import { fieldError } from '@/api/result';
import { useProductName } from '@/data/app-config-store';
import { Notice } from '@/components/notice';
import { PageHeading } from '@/components/page-heading';
import { useToast } from '@/components/use-toast';
import { failureMessage } from '@/lib/failure-message';
import { groupKey } from '@/lib/group-key';
import { confirmSetUp } from '../actions/confirm-set-up';
import { passwordProblem, startSetUp } from '../actions/start-set-up';
import { useFinishSetUp } from '../hooks/use-finish-set-up';
import { codeError } from '../lib/code-error';
import { CodeField } from './code-field';
import { StepUpForm } from './step-up-form';
import { RecoveryCodes } from './recovery-codes';

type State =
  | { step: 'loading' }
  | { step: 'password' }
  | { step: 'scan'; setup: MfaEnableData }
  | { step: 'codes'; codes: string[] }
  | { step: 'signed-out' }
  | { step: 'error'; message: string };

/** /auth/mfa/configure/authenticator: scan (or type the key), then confirm with a code. */
export function AuthenticatorPage() {
  const product = useProductName();
  const toast = useToast();
  const { finish, finishing } = useFinishSetUp();
  const [state, setState] = useState<State>({ step: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);
  const started = useRef(-1);

  useEffect(() => {
    if (started.current === attempt) return; // StrictMode runs effects twice: start once per attempt
    started.current = attempt;
    setState({ step: 'loading' });
    void startSetUp({ method: 'authenticator' }).then((result) => {
      if (result.ok) setState({ step: 'scan', setup: result.data });
      else if (passwordProblem(result)) setState({ step: 'password' });
      else if (result.status === 401) setState({ step: 'signed-out' });
      else setState({ step: 'error', message: failureMessage(result, product) });
    });
  }, [attempt, product]);

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    const problem = codeError(code);
    setError(problem);
    if (problem) {
      codeRef.current?.focus();
      return;
    }
    setBusy(true);
    const result = await confirmSetUp({ method: 'authenticator', code });
    setBusy(false);
    if (!result.ok) {
      if (result.status === 422) {
        setError(fieldError(result, 'code') ?? failureMessage(result, product));
        codeRef.current?.focus();
      } else toast.error(failureMessage(result, product));
      return;
    }
    if (result.data.recovery_codes?.length) setState({ step: 'codes', codes: result.data.recovery_codes });
    else await finish();
  };

  const copyKey = async (secret: string) => {
    try {
      await navigator.clipboard.writeText(secret);
      toast.success('Key copied');
    } catch {
      toast.error('Copying did not work here. Please type the key instead.');
    }
  };

  switch (state.step) {
    case 'loading':
      return (
        <div className="auth-card">
          <PageHeading>Authenticator app</PageHeading>
          <p role="status">Getting your set-up code…</p>
        </div>
      );
    case 'password':
      return (
        <div className="auth-card">
          <PageHeading>Authenticator app</PageHeading>
          <StepUpForm
            start={(current) => startSetUp({ method: 'authenticator', current })}
            onStarted={(setup) => setState({ step: 'scan', setup })}
          />
          <div className="actions">
            <Link to="/auth/mfa/configure" className="button button--ghost">Choose another way</Link>
          </div>
        </div>
      );
    case 'signed-out':
      return (
        <Notice title="Please sign in first" actions={<Link to="/" className="button button--primary">Go to sign in</Link>}>
          <p>You need to be signed in to set up two-factor sign-in.</p>
        </Notice>
      );
    case 'error':
      return (
        <Notice
          title="Authenticator app"
          role="alert"
          actions={
            <>
              <button type="button" className="button button--primary" onClick={() => setAttempt((a) => a + 1)}>
                Try again
              </button>
              <Link to="/auth/mfa/configure" className="button button--ghost">Back</Link>
            </>
          }
        >
          <p>{state.message}</p>
        </Notice>
      );
    case 'codes':
      return <RecoveryCodes codes={state.codes} onDone={finish} busy={finishing} />;
    case 'scan': {
      const secret = state.setup.secret ?? '';
      return (
        <div className="auth-card auth-card--wide">
          <PageHeading>Authenticator app</PageHeading>
          <ol className="steps">
            <li>
              <h2 className="section-title">Add Hearth to your app</h2>
              <p>Open your authenticator app, choose to add an account, and scan this picture.</p>
              {state.setup.qr_code ? (
                <img
                  className="qr-code"
                  src={state.setup.qr_code}
                  width={200}
                  height={200}
                  alt="QR code to scan with your authenticator app. You can type the key below instead."
                />
              ) : null}
              {secret ? (
                <>
                  <p>Cannot scan it? Type this key into the app instead:</p>
                  <p className="secret-key">
                    <code aria-label={`Key: ${secret.split('').join(' ')}`}>{groupKey(secret)}</code>
                    <button type="button" className="button button--secondary" onClick={() => copyKey(secret)}>
                      Copy
                    </button>
                  </p>
                </>
              ) : null}
            </li>
            <li>
              <h2 className="section-title">Type the code it shows</h2>
              <form className="form" onSubmit={confirm} noValidate aria-label="Confirm authenticator app">
                <CodeField
                  ref={codeRef}
                  value={code}
                  onChange={(value) => {
                    setCode(value);
                    setError(null);
                  }}
                  error={error}
                  hint="The 6-digit code your app shows for Hearth."
                />
                <button type="submit" className="button button--primary button--block" disabled={busy || finishing}>
                  {busy ? 'Checking…' : 'Turn on two-factor sign-in'}
                </button>
              </form>
            </li>
          </ol>
          <div className="actions">
            <Link to="/auth/mfa/configure" className="button button--ghost">Choose another way</Link>
          </div>
        </div>
      );
    }
  }
}
