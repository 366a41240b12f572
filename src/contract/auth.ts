import { z } from 'zod';
import { envelope } from './envelope';
import { chosenMessages as chosen, messages } from './messages';
import { rules } from './rules';

export const mfaMethodSchema = z.enum(['authenticator', 'email']);
export type MfaMethod = z.infer<typeof mfaMethodSchema>;

/** A trimmed, required string with the given message when empty. */
const requiredText = (message: string, max = 500) =>
  z.string({ error: message }).trim().min(1, { error: message }).max(max);

export const verificationCodeSchema = z
  .string({ error: messages.codeRequired })
  .trim()
  .min(1, { error: messages.codeRequired })
  .regex(/^\d{6}$/, { error: messages.codeSixDigits });

/** Ten characters in two groups of five, e.g. `k3m9p-x2q7w`; case and the dash are optional on input. */
export const recoveryCodeSchema = z
  .string({ error: chosen.recoveryCodeRequired })
  .trim()
  .min(1, { error: chosen.recoveryCodeRequired })
  .regex(/^[a-z0-9]{5}-?[a-z0-9]{5}$/i, { error: chosen.recoveryCodeFormat });

export const emailSchema = z
  .string({ error: chosen.emailRequired })
  .trim()
  .min(1, { error: chosen.emailRequired })
  .max(254, { error: chosen.emailInvalid })
  .pipe(z.email({ error: chosen.emailInvalid }));

/** A site name as typed on the login screen: a DNS label. */
export const clientSiteSchema = z
  .string({ error: 'Client site is required' })
  .trim()
  .toLowerCase()
  .min(1, { error: 'Client site is required' })
  .max(63)
  .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/, { error: chosen.unknownSite });

// POST /auth/login
export const loginRequestSchema = z.object({
  username: requiredText('Username is required', rules.usernameMaxLength),
  password: z
    .string({ error: 'Password is required' })
    .min(1, { error: 'Password is required' })
    .max(rules.passwordMaxLength),
  client_site: clientSiteSchema,
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const loginDataSchema = z.object({
  mfa_required: z.boolean(),
  /** The methods the person can verify with (SPEC names both `mfa_methods` and `methods`). */
  mfa_methods: z.array(mfaMethodSchema),
  methods: z.array(mfaMethodSchema),
  two_factor_id: z.string().nullable(),
  /** True when the site requires two-factor and this person has none yet: only set-up is allowed. */
  mfa_setup_required: z.boolean(),
});
export const loginResponseSchema = envelope(loginDataSchema);
export type LoginData = z.infer<typeof loginDataSchema>;

// POST /auth/mfa/send-code
export const mfaSendCodeRequestSchema = z.object({
  two_factor_id: requiredText(messages.invalidMfaSession, 200),
});

// POST /auth/mfa/login
export const mfaLoginRequestSchema = z.discriminatedUnion('method', [
  z.object({
    two_factor_id: requiredText(messages.invalidMfaSession, 200),
    method: mfaMethodSchema,
    code: verificationCodeSchema,
  }),
  z.object({
    two_factor_id: requiredText(messages.invalidMfaSession, 200),
    method: z.literal('recovery_code'),
    recovery_code: recoveryCodeSchema,
  }),
]);
export type MfaLoginRequest = z.infer<typeof mfaLoginRequestSchema>;

/**
 * The password again (step-up, issue 12 finding 11): starting a two-factor method from a signed-in
 * session needs it, so a tablet left signed in can't be made to send codes to someone else. A
 * session still setting two-factor up has just typed it and is not asked.
 */
const stepUpPassword = z.string().max(1024).optional();

// POST /auth/mfa/enable: step one starts a method, step two confirms it with a code.
export const mfaEnableRequestSchema = z.discriminatedUnion('method', [
  z.object({ method: z.literal('authenticator'), code: verificationCodeSchema.optional(), current: stepUpPassword }),
  z.object({ method: z.literal('email'), email: emailSchema, code: verificationCodeSchema.optional(), current: stepUpPassword }),
]);
export type MfaEnableRequest = z.infer<typeof mfaEnableRequestSchema>;

export const mfaEnableDataSchema = z.object({
  method: mfaMethodSchema,
  confirmed: z.boolean(),
  /** Authenticator set-up only, before confirmation. */
  secret: z.string().optional(),
  otpauth_url: z.string().optional(),
  qr_code: z.string().optional(),
  /** Present once: the first time any two-factor method is confirmed. */
  recovery_codes: z.array(z.string()).optional(),
});
export const mfaEnableResponseSchema = envelope(mfaEnableDataSchema);

/**
 * Managing one's two-factor sign-in (issue 12, docs/api.md), each after the password again:
 * DELETE /v1/auth/mfa/methods/{method} turns one method off; POST /v1/auth/mfa/recovery-codes
 * replaces the recovery codes with ten new ones (shown once; the old ones stop working).
 */
export const mfaStepUpRequestSchema = z.object({ current: stepUpPassword });
export type MfaStepUpRequest = z.infer<typeof mfaStepUpRequestSchema>;
export const mfaMethodParamsSchema = z.object({ method: mfaMethodSchema });
export const mfaRemoveDataSchema = z.object({ method: mfaMethodSchema, methods: z.array(mfaMethodSchema) });
export const mfaRemoveResponseSchema = envelope(mfaRemoveDataSchema);
export type MfaRemoveData = z.infer<typeof mfaRemoveDataSchema>;
export const recoveryCodesDataSchema = z.object({ recovery_codes: z.array(z.string()) });
export const recoveryCodesResponseSchema = envelope(recoveryCodesDataSchema);
export type RecoveryCodesData = z.infer<typeof recoveryCodesDataSchema>;

export const mfaManageMessages = {
  notOn: 'That two-factor method is not on',
  keepOne: 'Two-factor sign-in is required for your account, so keep at least one way to get codes.',
  turnOnFirst: 'Turn on two-factor sign-in first',
  removed: 'Two-factor method removed',
  newCodes: 'New recovery codes made. The old ones no longer work.',
} as const;
export type MfaEnableData = z.infer<typeof mfaEnableDataSchema>;

export const plainSuccessSchema = z.object({ success: z.literal(true), message: z.string().optional() });
