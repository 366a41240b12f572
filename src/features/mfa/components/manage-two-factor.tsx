import { useState } from 'react';
import { mfaManageMessages, type MfaMethod } from '@/contract/auth';
import type { Account } from '@/contract/users';
import { removeMfaMethod, renewRecoveryCodes } from '@/api/auth/mfa-manage';
import { loadAccount } from '@/data/load-account';
import { useOnlineStatus } from '@/data/use-online-status';
import { StepUpForm } from './step-up-form';

const METHOD_NAMES: Record<MfaMethod, string> = { authenticator: 'Authenticator app', email: 'Email codes' };

type Step = { kind: 'list' } | { kind: 'remove'; method: MfaMethod } | { kind: 'codes' };

/**
 * Issue 12: the young person sees the ways they get codes, turns one off, or makes new recovery
 * codes; each after their password again. Online only (a security change is never queued), and
 * the only way left stays where the site requires two-factor sign-in.
 */
export function ManageTwoFactor({ account, onNewCodes, onNotice }: { account: Account; onNewCodes: (codes: string[]) => void; onNotice: (text: string) => void }) {
  const online = useOnlineStatus();
  const [step, setStep] = useState<Step>({ kind: 'list' });
  const methods = account.mfa_methods;
  const mustKeep = account.mfa_required && methods.length <= 1;
  const cancel = (
    <button type="button" className="button button--ghost" onClick={() => setStep({ kind: 'list' })}>
      Cancel
    </button>
  );

  return (
    <>
      <section aria-labelledby="mfa-ways-title" className="mfa-manage">
        <h2 id="mfa-ways-title" className="section-title">
          Your ways to get codes
        </h2>
        <ul className="mfa-manage__list">
          {methods.map((method) => {
            const name = METHOD_NAMES[method];
            return (
              <li key={method} className="mfa-manage__item">
                <span className="mfa-manage__name">{name}</span>
                {step.kind === 'remove' && step.method === method ? (
                  <div className="mfa-manage__step">
                    <StepUpForm
                      label={`Turn off ${name}`}
                      submit={`Turn off ${name}`}
                      start={(current) => removeMfaMethod(method, current)}
                      onStarted={() => {
                        setStep({ kind: 'list' });
                        onNotice(`${name} turned off.`);
                        void loadAccount();
                      }}
                    />
                    {cancel}
                  </div>
                ) : mustKeep ? (
                  <span className="mfa-manage__note">{mfaManageMessages.keepOne}</span>
                ) : (
                  <button type="button" className="button button--secondary" disabled={!online} onClick={() => {
                      onNotice('');
                      setStep({ kind: 'remove', method });
                    }}>
                    Turn off<span className="visually-hidden"> {name}</span>
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      </section>
      <section aria-labelledby="mfa-codes-title" className="mfa-manage">
        <h2 id="mfa-codes-title" className="section-title">
          Recovery codes
        </h2>
        <p>If you have used most of your recovery codes, lost them, or think someone else has seen them, make new ones. The old ones stop working.</p>
        {step.kind === 'codes' ? (
          <div className="mfa-manage__step">
            <StepUpForm label="Make new recovery codes" submit="Make new codes" start={renewRecoveryCodes} onStarted={(data) => onNewCodes(data.recovery_codes)} />
            {cancel}
          </div>
        ) : (
          <button type="button" className="button button--secondary" disabled={!online} onClick={() => setStep({ kind: 'codes' })}>
            Make new recovery codes
          </button>
        )}
      </section>
      {online ? null : <p className="callout">You need to be online to change two-factor sign-in.</p>}
    </>
  );
}
