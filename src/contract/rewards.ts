import { z } from 'zod';
import { clientIdSchema, fileSchema } from './entries';
import { envelope } from './envelope';
import { personSchema } from './residents';
import { pageSchema, syncedRowSchema, timestampSchema } from './sync';
import { savable } from './text';
import { groupDigits } from './group-digits';

/**
 * Rewards (SPEC §3 Reward, Reward history item; §7 Rewards; §8; issue 10). A home keeps a catalogue
 * of rewards, each costing points; a young person exchanges points for one (the points leave their
 * balance at once, as an entry of the points ledger), and staff of the home approve the exchange
 * (the points stay spent) or deny it (the points are given back). Shapes SPEC leaves "not shown"
 * are chosen here and in docs/api.md, docs/decisions.md.
 */
export const REWARD_EXCHANGE_STATUSES = ['pending', 'approved', 'denied'] as const;
export type RewardExchangeStatus = (typeof REWARD_EXCHANGE_STATUSES)[number];

export const rewardLimits = {
  nameMaxLength: 80,
  descriptionMaxLength: 500,
  /** A reward costs 1 to this many points. */
  maxPoints: 100_000,
  noteMaxLength: 500,
  /** Pictures are stored as WebP with the longest side at most this many pixels (server). */
  imageMaxDimension: 800,
} as const;

export const rewardMessages = {
  /** SPEC §8: the `message` of every refused exchange (not enough points, unavailable, flag off). */
  redeemFailed: 'There was an error redeeming your reward. Please check you have the required points and try again.',
  /** Chosen (docs/decisions.md): field errors that say which of the reasons it was. */
  notEnoughPoints: "You don't have enough points for this reward yet",
  unavailable: 'This reward is not available right now',
  rewardsOff: 'Rewards are switched off for you',
  onlyYoungPerson: 'Only the young person can swap their own points',
  residentRequired: 'Please say whose rewards to show (resident_id)',
  nameRequired: 'Please give the reward a name',
  nameTooLong: `The name can be up to ${rewardLimits.nameMaxLength} characters`,
  descriptionTooLong: `The description can be up to ${rewardLimits.descriptionMaxLength} characters`,
  pointsRequired: `Please set the cost: a whole number of points from 1 to ${groupDigits(rewardLimits.maxPoints)}`,
  positionInvalid: 'The position must be a whole number from 0 to 10,000',
  oneImage: 'Please add one picture only',
  imageNotExpected: 'Only one picture, in the part named image, can be added',
  noteTooLong: `The note can be up to ${rewardLimits.noteMaxLength} characters`,
  alreadyApproved: 'This exchange has already been approved',
  alreadyDenied: 'This exchange has already been denied',
} as const;

/** '1'/'0'/'true'/'false' from a form, or a JSON boolean. */
const flag = z.union([z.boolean(), z.enum(['0', '1', 'true', 'false'])]).transform((v) => v === true || v === '1' || v === 'true');
/** A whole number, from JSON or from a form's text. */
const wholeNumber = (max: number, message: string) =>
  z
    .union([z.number({ error: message }), z.string({ error: message }).trim().regex(/^\d{1,9}$/, { error: message }).transform(Number)], { error: message })
    .pipe(z.number().int({ error: message }).min(0, { error: message }).max(max, { error: message }));

/**
 * One reward of a home's catalogue. For the young person, a reward that is paused (`active` false)
 * or withdrawn is a tombstone (`deleted_at` set) in checkpoint mode with with_trashed=1 and absent
 * otherwise: its id and the time, with neutral placeholders and no content (name '', description
 * null, points 0, image null, home_id the nil uuid), as documents' tombstones. Staff's tombstones
 * (withdrawn) keep the reward's fields. Whether it is affordable is for the client to work out
 * from the balance (`reward_points` of the resident), which it already holds.
 */
export const rewardSchema = syncedRowSchema.extend({
  home_id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  /** What it costs, in points (> 0; 0 only on a young person's tombstone). */
  points: z.number().int().min(0),
  /** Viewed through GET /v1/files/view?file_id=&module=reward. */
  image: fileSchema.nullable(),
  active: z.boolean(),
  /** Catalogue order, lowest first (then name). */
  position: z.number().int(),
  created_at: timestampSchema,
});
export type Reward = z.infer<typeof rewardSchema>;
export const rewardPageSchema = pageSchema(rewardSchema);
export const rewardResponseSchema = envelope(rewardSchema);

/**
 * One exchange (SPEC §3 "Reward history item"): the reward as it is now (name, picture), what it
 * cost when asked for (`points`), the status, and the effect on the balance:
 * - `points_adjustment`: -points while pending or approved; 0 once denied (taken, then given back);
 * - `refunded_points`: the points given back (= points when denied, else 0).
 */
export const rewardExchangeSchema = syncedRowSchema.extend({
  resident_id: z.uuid(),
  reward_id: z.uuid(),
  reward: z.object({ id: z.uuid(), name: z.string(), image: fileSchema.nullable() }),
  points: z.number().int().positive(),
  points_adjustment: z.number().int().max(0),
  refunded_points: z.number().int().min(0),
  status: z.enum(REWARD_EXCHANGE_STATUSES),
  /** Staff's words with the decision, shown to the young person. */
  note: z.string().nullable(),
  decided_by: personSchema.nullable(),
  decided_at: timestampSchema.nullable(),
  created_at: timestampSchema,
});
export type RewardExchange = z.infer<typeof rewardExchangeSchema>;
export const rewardExchangePageSchema = pageSchema(rewardExchangeSchema);
export const rewardExchangeResponseSchema = envelope(rewardExchangeSchema);

/** GET /v1/projects/residents/rewards: whose catalogue (a young person may leave it out: their own). */
export const rewardsQuerySchema = z.object({ resident_id: z.uuid({ error: rewardMessages.residentRequired }).optional() });

/**
 * POST /v1/projects/residents/{id}/rewards/{rewardId}/exchange (JSON `{}` or with the client's
 * `id`: the id of its optimistic history item, also its Idempotency-Key).
 */
export const rewardExchangeRequestSchema = z.object({ id: clientIdSchema });
export type RewardExchangeRequest = z.input<typeof rewardExchangeRequestSchema>;

const name = savable(
  z
    .string({ error: rewardMessages.nameRequired })
    .trim()
    .min(1, { error: rewardMessages.nameRequired })
    .max(rewardLimits.nameMaxLength, { error: rewardMessages.nameTooLong }),
);
const description = savable(z.string().trim().max(rewardLimits.descriptionMaxLength, { error: rewardMessages.descriptionTooLong }));
const points = wholeNumber(rewardLimits.maxPoints, rewardMessages.pointsRequired).refine((n) => n > 0, { error: rewardMessages.pointsRequired });
const position = wholeNumber(10_000, rewardMessages.positionInvalid);

/**
 * Staff (addition): POST /v1/homes/{id}/rewards, multipart (these fields and one picture part
 * `image`: JPEG, PNG, WebP or GIF by content) or JSON without a picture.
 */
export const staffRewardCreateSchema = z.object({
  id: clientIdSchema,
  name,
  description: description.nullable().optional(),
  points,
  active: flag.default(true),
  position: position.default(0),
});
export type StaffRewardCreate = z.input<typeof staffRewardCreateSchema>;

/** Staff: POST /v1/rewards/{id} with `_method=PUT`: the fields sent change; `image` replaces the picture, `remove_image=1` drops it. */
export const staffRewardUpdateSchema = z.object({
  name: name.optional(),
  description: description.nullable().optional(),
  points: points.optional(),
  active: flag.optional(),
  position: position.optional(),
  remove_image: flag.optional(),
});
export type StaffRewardUpdate = z.input<typeof staffRewardUpdateSchema>;

/** Staff: POST /v1/reward-exchanges/{id}/approve and .../deny. */
export const rewardDecisionSchema = z.object({
  note: savable(z.string().trim().max(rewardLimits.noteMaxLength, { error: rewardMessages.noteTooLong })).nullable().optional(),
});
export type RewardDecision = z.input<typeof rewardDecisionSchema>;
