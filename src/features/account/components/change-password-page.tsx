import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { chosenMessages } from '@/contract/messages';
import { rules } from '@/contract/rules';
import { changePasswordRequestSchema } from '@/contract/users';
import { useProductName } from '@/data/app-config-store';
import { useAccount } from '@/data/session-store';
import { PageHeading } from '@/components/page-heading';
import { PasswordField } from '@/components/password-field';
import { useToast } from '@/components/use-toast';
import { failureMessage } from '@/lib/failure-message';
import { changePassword } from '../actions/change-password';

type Input = z.input<typeof changePasswordRequestSchema>;
type Values = z.output<typeof changePasswordRequestSchema>;
const fields = ['current', 'password', 'password_confirmation'] as const;

/** /change-password */
export function ChangePasswordPage() {
  const account = useAccount();
  const product = useProductName();
  const toast = useToast();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<Input, unknown, Values>({
    resolver: zodResolver(changePasswordRequestSchema),
    defaultValues: { current: '', password: '', password_confirmation: '' },
  });

  const onSubmit = async (values: Values) => {
    if (!account) return;
    const result = await changePassword(account.user.id, values);
    if (result.ok) {
      toast.success(chosenMessages.passwordChanged);
      reset();
      return;
    }
    let mapped = false;
    for (const field of fields) {
      const message = result.errors?.[field]?.[0];
      if (message) {
        setError(field, { message }, { shouldFocus: !mapped });
        mapped = true;
      }
    }
    if (!mapped) {
      toast.error(result.status === 422 && result.message ? result.message : result.status === 0 || result.status >= 500 ? failureMessage(result, product) : chosenMessages.passwordChangeFailed);
    }
  };

  return (
    <div className="page page--narrow">
      <PageHeading>Change password</PageHeading>
      <p className="lead">
        Use at least {rules.passwordMinLength} characters. A few words together, like a short sentence, make a strong
        password that is easy to remember.
      </p>
      <form className="form" onSubmit={handleSubmit(onSubmit)} noValidate aria-label="Change password">
        <PasswordField label="Current password" autoComplete="current-password" error={errors.current?.message} {...register('current')} />
        <PasswordField
          label="New password"
          autoComplete="new-password"
          hint={`At least ${rules.passwordMinLength} characters.`}
          error={errors.password?.message}
          {...register('password')}
        />
        <PasswordField
          label="Type your new password again"
          autoComplete="new-password"
          error={errors.password_confirmation?.message}
          {...register('password_confirmation')}
        />
        <button type="submit" className="button button--primary" disabled={isSubmitting}>
          {isSubmitting ? 'Saving…' : 'Change password'}
        </button>
      </form>
    </div>
  );
}
