import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import { useAppConfig, useAppConfigSettled } from '@/data/app-config-store';
import { effectiveClientSite } from '@/data/client-site';
import { useAccount } from '@/data/session-store';
import { updateSettings, useSettings } from '@/data/settings-store';
import { PageHeading } from '@/components/page-heading';
import { prepareToasts } from '@/components/toast-queue';
import { PasswordField } from '@/components/password-field';
import { TextField } from '@/components/text-field';
import { useToast } from '@/components/use-toast';
import { failureMessage } from '@/lib/failure-message';
import type { LoginErrors, LoginField } from '../forms/login-checks';

/**
 * The form's checks (zod) and the sign-in (the contract's parsers of its answers) load on demand:
 * from the first focus or touch on the form, at the latest when it is sent. The login screen paints,
 * takes input and sends without react-hook-form or zod in its JavaScript (issue 13; docs/decisions.md
 * "Page speed (issue 13)"): a form of four fields, kept in plain state.
 */
const loadChecks = () => import('../forms/login-checks').then((m) => m.checkLogin);
const loadSignIn = () => import('../actions/sign-in').then((m) => m.signIn);
const prepareSignIn = (): void => {
  prepareToasts(); // its answer may be a toast
  void loadChecks().catch(() => undefined);
  void loadSignIn().catch(() => undefined);
};

/** Where focus goes after a refused send: the first field with a message, in the form's order. */
const FIELD_ORDER: readonly LoginField[] = ['username', 'password', 'client_site', 'region'];

/** Home when signed out: the login screen. Signed in, home goes to the dashboard. */
export function LoginPage() {
  const account = useAccount();
  if (account) return <Navigate to="/dashboard" replace />;
  return <LoginForm />;
}

function LoginForm() {
  const config = useAppConfig();
  const configSettled = useAppConfigSettled();
  const settings = useSettings();
  const toast = useToast();
  const navigate = useNavigate();
  const product = config.product_name || 'Hearth';
  const suggestedSite = effectiveClientSite(settings, config);
  const regionNames = config.regions.map((r) => r.name);
  const initialRegion = regionNames.includes(settings.region) ? settings.region : config.default_region;

  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  // The site and the region follow the app config (which may arrive after the first render) until
  // the person changes them: null is "not changed".
  const [typedSite, setTypedSite] = useState<string | null>(null);
  const [chosenRegion, setChosenRegion] = useState<string | null>(null);
  const site = typedSite ?? suggestedSite ?? '';
  const region = chosenRegion ?? initialRegion;

  const [errors, setErrors] = useState<LoginErrors>({});
  const [sent, setSent] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [focusNext, setFocusNext] = useState<LoginField | null>(null);
  const usernameField = useRef<HTMLInputElement>(null);
  const passwordField = useRef<HTMLInputElement>(null);
  const siteField = useRef<HTMLInputElement>(null);
  const regionField = useRef<HTMLSelectElement>(null);

  // "Change site" shows from the first render, on a very first visit too (no app config cached yet):
  // the row says it is looking the site up until the config answers. The text field opens when the
  // person asks for it, when the site is wrong, or when nothing gives a site at all.
  const [wantsToEditSite, setWantsToEditSite] = useState(false);
  const editingSite = wantsToEditSite || (configSettled && !suggestedSite);
  useEffect(() => {
    if (errors.client_site && !editingSite) setWantsToEditSite(true);
  }, [errors.client_site, editingSite]);

  // After a refused send, every change checks again (as the other forms do).
  useEffect(() => {
    if (!sent) return;
    let current = true;
    void loadChecks()
      .then((check) => {
        const result = check({ username, password, client_site: site, region });
        if (current) setErrors(result.ok ? {} : result.errors);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [sent, username, password, site, region]);

  // Focus moves once the field it goes to is on screen (the site's text field may open first).
  useEffect(() => {
    if (!focusNext) return;
    const target = { username: usernameField, password: passwordField, client_site: siteField, region: regionField }[focusNext].current;
    if (!target) return;
    target.focus();
    setFocusNext(null);
  }, [focusNext, editingSite]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    setSubmitting(true);
    try {
      const [check, signIn] = await Promise.all([loadChecks(), loadSignIn()]).catch(() => [null, null] as const);
      if (!check || !signIn) {
        toast.error(failureMessage({ ok: false, status: 0, message: '' }, product));
        return;
      }
      const result = check({ username, password, client_site: site, region });
      setSent(true);
      if (!result.ok) {
        setErrors(result.errors);
        setFocusNext(FIELD_ORDER.find((field) => result.errors[field]) ?? null);
        return;
      }
      setErrors({});
      const values = result.values;
      updateSettings({
        region: values.region,
        ...(editingSite ? { domain: values.client_site, userSetDomain: true } : {}),
      });
      const outcome = await signIn({ username: values.username, password: values.password, client_site: values.client_site }, product);
      switch (outcome.kind) {
        case 'error':
          toast.error(outcome.message);
          return;
        case 'mfa-verify':
          navigate('/auth/mfa/verify');
          return;
        case 'mfa-setup':
          navigate('/auth/mfa/configure');
          return;
        case 'signed-in':
          navigate('/dashboard', { replace: true });
      }
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <div className="auth-card">
      <PageHeading>Welcome to {product}</PageHeading>
      <p className="lead">Sign in with the username and password your home gave you.</p>
      <form className="form" onSubmit={(event) => void onSubmit(event)} onFocus={prepareSignIn} onPointerDown={prepareSignIn} noValidate aria-label="Sign in">
        <TextField
          ref={usernameField}
          label="Username"
          name="username"
          autoComplete="username"
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          error={errors.username}
          value={username}
          onChange={(event) => setUsername(event.target.value)}
        />
        <PasswordField
          ref={passwordField}
          label="Password"
          name="password"
          autoComplete="current-password"
          error={errors.password}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />

        {editingSite ? (
          <TextField
            ref={siteField}
            label="Client site"
            name="client_site"
            hint="The name of your home's Hearth site, for example oakhouse."
            autoCapitalize="off"
            autoCorrect="off"
            spellCheck={false}
            error={errors.client_site}
            value={site}
            onChange={(event) => setTypedSite(event.target.value)}
          />
        ) : (
          <div className="field">
            <span className="field__label" id="site-label">
              Client site
            </span>
            <div className="field__row">
              <span className="field__static">{site || 'Finding your site…'}</span>
              <button
                type="button"
                className="button button--ghost"
                onClick={() => {
                  setWantsToEditSite(true);
                  setFocusNext('client_site');
                }}
              >
                Change site
              </button>
            </div>
          </div>
        )}

        <div className="field">
          <label htmlFor="login-region" className="field__label">
            Region
          </label>
          <select ref={regionField} id="login-region" name="region" className="field__input" value={region} onChange={(event) => setChosenRegion(event.target.value)}>
            {regionNames.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>

        <button type="submit" className="button button--primary button--block" disabled={submitting}>
          {submitting ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p className="small-print">
        By signing in you agree to the <Link to="/terms-and-conditions">terms and conditions</Link>. Read how we look after
        your information in the <Link to="/privacy-policy">privacy policy</Link>.
      </p>
    </div>
  );
}
