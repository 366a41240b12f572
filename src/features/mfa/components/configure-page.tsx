import { Link } from 'react-router-dom';
import { useAccount } from '@/data/session-store';
import { PageHeading } from '@/components/page-heading';

const methodNames = { authenticator: 'an authenticator app', email: 'email' } as const;

/** /auth/mfa/configure: choose how to get codes. */
export function ConfigurePage() {
  const account = useAccount();
  const configured = account?.mfa_methods ?? [];
  return (
    <div className="auth-card auth-card--wide">
      <PageHeading>Set up two-factor sign-in</PageHeading>
      <p className="lead">
        Two-factor sign-in keeps your account safe. After your password, you type a short code that only you can get.
      </p>
      {configured.length ? (
        <p className="callout" role="status">
          Two-factor sign-in is on with {configured.map((m) => methodNames[m]).join(' and ')}. You can add another way below.
        </p>
      ) : null}
      <h2 className="section-title">How would you like to get your codes?</h2>
      <ul className="choice-list">
        <li>
          <Link to="/auth/mfa/configure/authenticator" className="choice">
            <span className="choice__title">Authenticator app</span>
            <span className="choice__text">An app on your phone, like Google Authenticator or Microsoft Authenticator, shows a new code every 30 seconds.</span>
          </Link>
        </li>
        <li>
          <Link to="/auth/mfa/configure/email" className="choice">
            <span className="choice__title">Email</span>
            <span className="choice__text">We send a code to your email address each time you sign in.</span>
          </Link>
        </li>
      </ul>
      <div className="actions">
        <Link to={account ? '/dashboard' : '/'} className="button button--ghost">
          {account ? 'Back to dashboard' : 'Back to sign in'}
        </Link>
      </div>
    </div>
  );
}
