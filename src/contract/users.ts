import { z } from 'zod';
import { envelope } from './envelope';
import { chosenMessages as chosen } from './messages';
import { mfaMethodSchema } from './auth';
import { rules } from './rules';

export const idSchema = z.uuid();

export const userTypeSchema = z.object({ id: z.number().int(), system_name: z.string(), name: z.string() });
export type UserType = z.infer<typeof userTypeSchema>;

export const themeSchema = z.object({
  id: z.number().int(),
  system_name: z.enum(['fun_style', 'gaming_style']),
  name: z.string(),
  theme_type: z.object({ system_name: z.literal('kids_app') }),
});
export type Theme = z.infer<typeof themeSchema>;

export const featureFlagsSchema = z.object({
  journal_enabled: z.union([z.literal(0), z.literal(1)]),
  voice_enabled: z.union([z.literal(0), z.literal(1)]),
  rewards_enabled: z.union([z.literal(0), z.literal(1)]),
});

/** The signed-in young person's resident record (SPEC §3): id, home and the feature flags. */
export const residentSchema = z
  .object({
    id: idSchema,
    home_id: idSchema,
    first_name: z.string(),
    last_name: z.string(),
    preferred_name: z.string().nullable(),
    reward_points: z.number().int(),
  })
  .extend(featureFlagsSchema.shape);
export type Resident = z.infer<typeof residentSchema>;

export const accountUserSchema = z.object({
  id: idSchema,
  username: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string().nullable(),
  user_type_id: z.number().int(),
  user_type: userTypeSchema,
  themes: z.array(themeSchema),
  has_photo: z.boolean(),
  resident: residentSchema.nullable(),
});
export type AccountUser = z.infer<typeof accountUserSchema>;

export const homeSchema = z.object({ id: idSchema, name: z.string() });

// GET /v1/auth/user
export const accountSchema = z.object({
  success: z.literal(true),
  user: accountUserSchema,
  mfa_configured: z.boolean(),
  mfa_methods: z.array(mfaMethodSchema),
  /** The site's policy: when true and mfa_configured is false, only two-factor set-up is allowed. */
  mfa_required: z.boolean(),
  permissions: z.object({ homes: z.record(z.string(), homeSchema) }),
});
export type Account = z.infer<typeof accountSchema>;

// GET /v1/users/{id}: what one person may see of another (self, or staff of their home).
export const publicUserSchema = z.object({
  id: idSchema,
  first_name: z.string(),
  last_name: z.string(),
  user_type_id: z.number().int(),
  has_photo: z.boolean(),
});
export const userResponseSchema = envelope(publicUserSchema);
export type PublicUser = z.infer<typeof publicUserSchema>;

export const userTypesResponseSchema = envelope(z.array(userTypeSchema));
export const themesResponseSchema = envelope(z.array(themeSchema));

// PUT /v1/users/{id}/change-password
export const changePasswordRequestSchema = z
  .object({
    current: z.string({ error: chosen.currentPasswordRequired }).min(1, { error: chosen.currentPasswordRequired }),
    password: z
      .string({ error: chosen.newPasswordRequired })
      .min(1, { error: chosen.newPasswordRequired })
      .min(rules.passwordMinLength, { error: chosen.passwordTooShort(rules.passwordMinLength) })
      .max(rules.passwordMaxLength, { error: chosen.passwordTooLong(rules.passwordMaxLength) }),
    password_confirmation: z
      .string({ error: chosen.confirmationRequired })
      .min(1, { error: chosen.confirmationRequired }),
  })
  .refine((v) => v.password === v.password_confirmation, {
    path: ['password_confirmation'],
    error: chosen.passwordsMustMatch,
  });
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

export const idParamsSchema = z.object({ id: idSchema });
