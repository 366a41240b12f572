import { loadAccount } from '@/data/load-account';

/** After confirmation: reload the account so mfa_configured is true, signing in a set-up-only session. */
export async function finishSetUp(): Promise<boolean> {
  const result = await loadAccount();
  return result.ok;
}
