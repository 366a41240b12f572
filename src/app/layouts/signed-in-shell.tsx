import { AuthGuard } from '../guards/auth-guard';
import { AuthLayout } from './auth-layout';

/**
 * The signed-in shell (SPEC layout "auth" behind the `auth` guard), loaded lazily by its route
 * (src/app/routes.tsx): the navigation, the look picker, the unsent-changes dialog and the replica's
 * hooks they use stay out of the entry chunk, so the login screen does not load them (issue 13).
 */
export function SignedInShell() {
  return (
    <AuthGuard>
      <AuthLayout />
    </AuthGuard>
  );
}
