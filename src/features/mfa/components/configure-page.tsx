import { useState } from 'react';
import { Link } from 'react-router-dom';
import { mfaManageMessages } from '@/contract/auth';
import { useAccount } from '@/data/session-store';
import { PageHeading } from '@/components/page-heading';
import { ManageTwoFactor } from './manage-two-factor';
import { RecoveryCodes } from './recovery-codes';

const methodNames = { authenticator: 'an authenticator app', email: 'email' } as const;

const CHOICES = [
  {
    method: 'authenticator',
    to: '/auth/mfa/configure/authenticator',
    title: 'Authenticator app',
    text: 'An app on your phone, like Google Authenticator or Microsoft Authenticator, shows a new code every 30 seconds.',
  },
  { method: 'email', to: '/auth/mfa/configure/email', title: 'Email', text: 'We send a code to your email address each time you sign in.' },
] as const;

/** /auth/mfa/configure: choose how to get codes; with two-factor on, also see and change it (issue 12). */
export function ConfigurePage() {
  const account = useAccount();
  const configured = account?.mfa_methods ?? [];
  const [newCodes, setNewCodes] = useState<string[] | null>(null);
  // What just changed (new codes saved, a method turned off): kept here, as the list may be gone.
  const [notice, setNotice] = useState('');
  const choices = CHOICES.filter((choice) => !configured.includes(choice.method));
  if (newCodes) {
    return (
      <RecoveryCodes
        codes={newCodes}
        onDone={() => {
          setNewCodes(null);
          setNotice(mfaManageMessages.newCodes);
        }}
      />
    );
  }
  return (
    <div className="auth-card auth-card--wide">
      <PageHeading>{configured.length ? 'Two-factor sign-in' : 'Set up two-factor sign-in'}</PageHeading>
      <p className="lead">
        Two-factor sign-in keeps your account safe. After your password, you type a short code that only you can get.
      </p>
      {configured.length ? (
        <p className="callout" role="status">
          Two-factor sign-in is on with {configured.map((m) => methodNames[m]).join(' and ')}.
        </p>
      ) : null}
      <p className={notice ? 'callout' : 'visually-hidden'} role="status">
        {notice}
      </p>
      {account && configured.length ? <ManageTwoFactor account={account} onNewCodes={setNewCodes} onNotice={setNotice} /> : null}
      {choices.length ? (
        <>
          <h2 className="section-title">{configured.length ? 'Add another way' : 'How would you like to get your codes?'}</h2>
          <ul className="choice-list">
            {choices.map((choice) => (
              <li key={choice.method}>
                <Link to={choice.to} className="choice">
                  <span className="choice__title">{choice.title}</span>
                  <span className="choice__text">{choice.text}</span>
                </Link>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <div className="actions">
        <Link to={account ? '/dashboard' : '/'} className="button button--ghost">
          {account ? 'Back to dashboard' : 'Back to sign in'}
        </Link>
      </div>
    </div>
  );
}
