import { z } from 'zod';
import { envelope } from './envelope';
import { syncedRowSchema, pageSchema } from './sync';
import { featureFlagsSchema } from './users';

export const JOURNAL_COLOURS = ['sunshine', 'sky', 'mint', 'lavender', 'coral', 'sand', 'slate'] as const;
export const JOURNAL_PAPERS = ['plain', 'lined', 'squared', 'dotted'] as const;
export const APP_THEMES = ['fun', 'metro', 'none'] as const;
/** SPEC §3: the account's kids_app theme (`user.themes[]` with `theme_type.system_name` kids_app). */
export const KIDS_STYLES = ['fun_style', 'gaming_style'] as const;
export type KidsStyle = (typeof KIDS_STYLES)[number];

export const appSettingsSchema = z.object({
  journal_colour: z.enum(JOURNAL_COLOURS),
  journal_paper: z.enum(JOURNAL_PAPERS),
  theme: z.enum(APP_THEMES),
  /**
   * The young person's kids_app style (addition, issue 11): the same value as the account's kids_app
   * theme, here so that a change replicates with the resident record. Optional: a copy cached before
   * it existed still parses (the app then reads the account).
   */
  kids_style: z.enum(KIDS_STYLES).optional(),
});
export type AppSettings = z.infer<typeof appSettingsSchema>;

/** SPEC §8 "Customise journal": an unknown colour or paper answers this message. */
export const JOURNAL_THEME_NOT_FOUND = 'personalised_journal theme not found';

// PUT /v1/projects/residents/{id}/app-settings (JSON; every field optional, at least one)
export const appSettingsUpdateSchema = z
  .object({
    journal_colour: z.string().optional(),
    journal_paper: z.string().optional(),
    theme: z.enum(APP_THEMES).optional(),
    kids_style: z.enum(KIDS_STYLES).optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { error: 'Nothing to update' });
export type AppSettingsUpdate = z.infer<typeof appSettingsUpdateSchema>;

/** The field error of a move to a home that is not one of the site's (docs/decisions.md "A young person moves home"). */
export const HOME_REQUIRED = 'Please choose one of the homes of this site';
// PUT /v1/projects/residents/{id}/home (JSON), staff only: the young person moves to that home.
export const residentHomeUpdateSchema = z.object({ home_id: z.uuid({ error: HOME_REQUIRED }) });
export type ResidentHomeUpdate = z.infer<typeof residentHomeUpdateSchema>;

/** The flags staff switch per young person (SPEC §1, §6); the young-person details carry them. */
export const FEATURE_FLAGS = ['journal_enabled', 'voice_enabled', 'rewards_enabled'] as const;
export type FeatureFlag = (typeof FEATURE_FLAGS)[number];
/** The field errors of a change of flags (docs/decisions.md "Staff switch a young person's features"). */
export const featureMessages = {
  value: 'Send 0 (off) or 1 (on)',
  unknown: 'Not a feature flag',
  nothing: 'Nothing to update',
} as const;
const flagValueSchema = z.union([z.literal(0), z.literal(1)], { error: featureMessages.value });
const isFeatureFlag = (key: string): key is FeatureFlag => (FEATURE_FLAGS as readonly string[]).includes(key);
/**
 * PUT /v1/projects/residents/{id}/features (JSON), staff only: any of the flags, each 0 or 1 (JSON
 * numbers: true, "1" or null are refused); another key is an error of its own, so a misspelt flag
 * is never a silent no-op; at least one flag.
 */
export const residentFeaturesUpdateSchema = z
  .looseObject({ journal_enabled: flagValueSchema.optional(), voice_enabled: flagValueSchema.optional(), rewards_enabled: flagValueSchema.optional() })
  .superRefine((value, ctx) => {
    for (const key of Object.keys(value)) if (!isFeatureFlag(key)) ctx.addIssue({ code: 'custom', path: [key], message: featureMessages.unknown });
    if (FEATURE_FLAGS.every((flag) => value[flag] === undefined)) ctx.addIssue({ code: 'custom', message: featureMessages.nothing });
  })
  .transform((value) => {
    const flags: Partial<Record<FeatureFlag, 0 | 1>> = {};
    for (const flag of FEATURE_FLAGS) if (value[flag] !== undefined) flags[flag] = value[flag];
    return flags;
  });
export type ResidentFeaturesUpdate = z.output<typeof residentFeaturesUpdateSchema>;

const personSchema = z.object({
  id: z.uuid(),
  first_name: z.string(),
  last_name: z.string(),
  has_photo: z.boolean(),
});
export type Person = z.infer<typeof personSchema>;

// GET /v1/projects/residents/{id}: the young-person details of SPEC §3.
export const residentDetailsSchema = syncedRowSchema
  .extend({
    user_id: z.uuid(),
    home_id: z.uuid(),
    home: z.object({ id: z.uuid(), name: z.string() }),
    first_name: z.string(),
    last_name: z.string(),
    preferred_name: z.string().nullable(),
    date_of_birth: z.string().nullable(),
    reward_points: z.number().int(),
    key_worker: personSchema.nullable(),
    app_settings: appSettingsSchema,
  })
  .extend(featureFlagsSchema.shape);
export type ResidentDetails = z.infer<typeof residentDetailsSchema>;
export const residentDetailsResponseSchema = envelope(residentDetailsSchema);
export const appSettingsResponseSchema = envelope(residentDetailsSchema);

// GET /v1/projects/residents/{id}/associated-users: staff of the young person's home (employees).
export const associatedUserSchema = syncedRowSchema.extend({
  first_name: z.string(),
  last_name: z.string(),
  job_title: z.string().nullable(),
  has_photo: z.boolean(),
});
export type AssociatedUser = z.infer<typeof associatedUserSchema>;
export const associatedUsersPageSchema = pageSchema(associatedUserSchema);

// GET /v1/projects/{id}/settings/{name}
export const projectSettingSchema = z.object({ name: z.string(), value: z.string().nullable() });
export const projectSettingResponseSchema = envelope(projectSettingSchema);
export const EXPLICIT_IMAGE_SENSITIVITY = 'explicit_image_sensitivity';

export { personSchema };
