import { loginFormSchema, type LoginFormInput, type LoginFormValues } from './login-form';

export type LoginField = keyof LoginFormInput;
export type LoginErrors = Partial<Record<LoginField, string>>;
export type LoginCheck = { readonly ok: true; readonly values: LoginFormValues } | { readonly ok: false; readonly errors: LoginErrors };

/**
 * The login form's checks: the contract's schema, the first message of each field. Loaded by the
 * login page on demand (from the first focus or touch on the form, at the latest when it is sent):
 * the screen paints and takes input without zod (issue 13, "Login paints first").
 */
export function checkLogin(input: LoginFormInput): LoginCheck {
  const parsed = loginFormSchema.safeParse(input);
  if (parsed.success) return { ok: true, values: parsed.data };
  const errors: LoginErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && field in input && !(field in errors)) errors[field as LoginField] = issue.message;
  }
  return { ok: false, errors };
}
