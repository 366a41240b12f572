/** The rewards screens' addresses (SPEC §2). */
export const REWARDS_PATH = '/rewards';
export const HISTORY_PATH = '/rewards/history';
export const confirmationPath = (rewardId: string): string => `/rewards/${encodeURIComponent(rewardId)}/confirmation`;
/** The exchange the page celebrates is named in the address, so a reload still finds it. */
export const congratulationsPath = (rewardId: string, exchangeId: string): string =>
  `/rewards/${encodeURIComponent(rewardId)}/congratulations?exchange=${encodeURIComponent(exchangeId)}`;
