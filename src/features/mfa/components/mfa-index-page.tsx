import { Navigate } from 'react-router-dom';
import { readMfaChallenge } from '@/data/mfa-challenge';

/** /auth/mfa: verification when a sign-in is waiting for its second factor, otherwise set-up. */
export function MfaIndexPage() {
  return <Navigate to={readMfaChallenge() ? '/auth/mfa/verify' : '/auth/mfa/configure'} replace />;
}
