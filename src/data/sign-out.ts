import { logout } from '@/api/auth/logout';
import { local } from './create-store';
import { clearMfaChallenge } from './mfa-challenge';
import { clearSession } from './session-store';

/** Personal keys of SPEC §9 that go with the person; theme, site and region stay on the device. */
const personalKeys = ['journalIndexVisited', 'voiceIndexVisited', 'voice.categories', 'calendar.eventTypes', 'dashboard.featureFlags'];

/** Tells the server to end the session (POST /auth/logout). Offline, this simply fails. */
export async function endServerSession(): Promise<void> {
  await logout();
}

/** Clears the signed-in state and the person's local data on this device. */
export function clearLocalSession(): void {
  clearSession();
  clearMfaChallenge();
  for (const key of personalKeys) local.remove(key);
}

/**
 * SPEC §4 logout: calls the logout service, then clears the local data and returns (the caller
 * routes to /). Push unsubscription and the encrypted replica's wipe join here in their issues.
 */
export async function signOut(): Promise<void> {
  await endServerSession();
  clearLocalSession();
}
