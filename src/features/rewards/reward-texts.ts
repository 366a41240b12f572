import { groupDigits } from '@/lib/en-gb';

/**
 * What the rewards screens and actions say where SPEC is silent (docs/decisions.md "Rewards
 * (issue 10): client"). SPEC §8's refusal is `rewardMessages.redeemFailed` in the contract.
 */
export const rewardTexts = {
  stillSending: 'This swap is still being sent. Please try again in a moment.',
  notFoundTitle: 'We can’t find this reward.',
  notFound: 'It may have been paused or removed by staff, or it is not on this device yet.',
  waitingToSend: 'Waiting to send',
  waitingForStaff: 'Waiting for staff',
  approved: 'Approved',
  denied: 'Denied',
  notSent: 'Not sent',
  offlineQueued: 'You are offline. Your swap is saved on this device and will be sent when you are back online.',
  staffWillConfirm: 'A member of staff will look at it and confirm it with you.',
} as const;

export const pointsText = (n: number): string => `${groupDigits(n)} ${n === 1 ? 'point' : 'points'}`;

/** "10 more points", "1 more point". */
export const morePointsText = (n: number): string => `${groupDigits(n)} more ${n === 1 ? 'point' : 'points'}`;
