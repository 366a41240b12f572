import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import { useAppConfig, useAppConfigSettled } from '@/data/app-config-store';
import { effectiveClientSite } from '@/data/client-site';
import { useAccount } from '@/data/session-store';
import { updateSettings, useSettings } from '@/data/settings-store';
import { PageHeading } from '@/components/page-heading';
import { PasswordField } from '@/components/password-field';
import { TextField } from '@/components/text-field';
import { useToast } from '@/components/use-toast';
import { signIn } from '../actions/sign-in';
import { loginFormSchema, type LoginFormInput, type LoginFormValues } from '../forms/login-form';

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
  // "Change site" shows from the first render, on a very first visit too (no app config cached yet):
  // the row says it is looking the site up until the config answers. The text field opens when the
  // person asks for it, when the site is wrong, or when nothing gives a site at all.
  const [wantsToEditSite, setWantsToEditSite] = useState(false);
  const editingSite = wantsToEditSite || (configSettled && !suggestedSite);

  const {
    register,
    handleSubmit,
    setValue,
    getFieldState,
    watch,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<LoginFormInput, unknown, LoginFormValues>({
    resolver: zodResolver(loginFormSchema),
    defaultValues: { username: '', password: '', client_site: suggestedSite ?? '', region: initialRegion },
  });

  // The app config may arrive after the first render: follow it until the person edits the field.
  useEffect(() => {
    if (!getFieldState('client_site').isDirty) setValue('client_site', suggestedSite ?? '');
  }, [suggestedSite, getFieldState, setValue]);
  useEffect(() => {
    if (!getFieldState('region').isDirty) setValue('region', initialRegion);
  }, [initialRegion, getFieldState, setValue]);
  useEffect(() => {
    if (errors.client_site && !editingSite) setWantsToEditSite(true);
  }, [errors.client_site, editingSite]);

  const site = watch('client_site');

  const onSubmit = async (values: LoginFormValues) => {
    updateSettings({
      region: values.region,
      ...(editingSite ? { domain: values.client_site, userSetDomain: true } : {}),
    });
    const outcome = await signIn(
      { username: values.username, password: values.password, client_site: values.client_site },
      product,
    );
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
  };

  return (
    <div className="auth-card">
      <PageHeading>Welcome to {product}</PageHeading>
      <p className="lead">Sign in with the username and password your home gave you.</p>
      <form className="form" onSubmit={handleSubmit(onSubmit)} noValidate aria-label="Sign in">
        <TextField
          label="Username"
          autoComplete="username"
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          error={errors.username?.message}
          {...register('username')}
        />
        <PasswordField label="Password" autoComplete="current-password" error={errors.password?.message} {...register('password')} />

        {editingSite ? (
          <TextField
            label="Client site"
            hint="The name of your home's Hearth site, for example oakhouse."
            autoCapitalize="off"
            autoCorrect="off"
            spellCheck={false}
            error={errors.client_site?.message}
            {...register('client_site')}
          />
        ) : (
          <div className="field">
            <span className="field__label" id="site-label">
              Client site
            </span>
            <div className="field__row">
              <span className="field__static">
                {site || 'Finding your site…'}
              </span>
              <button
                type="button"
                className="button button--ghost"
                onClick={() => {
                  setWantsToEditSite(true);
                  setTimeout(() => setFocus('client_site'), 0);
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
          <select id="login-region" className="field__input" {...register('region')}>
            {regionNames.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>

        <button type="submit" className="button button--primary button--block" disabled={isSubmitting}>
          {isSubmitting ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p className="small-print">
        By signing in you agree to the <Link to="/terms-and-conditions">terms and conditions</Link>. Read how we look after
        your information in the <Link to="/privacy-policy">privacy policy</Link>.
      </p>
    </div>
  );
}
