import { useEffect, useRef, type ReactNode } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { messages } from '@/contract/messages';
import { YOUNG_PERSON_USER_TYPE } from '@/contract/rules';
import { useAccount } from '@/data/session-store';
import { clearLocalSession, endServerSession, signedInContext } from '@/data/sign-out';
import { Notice } from '@/components/notice';

export const INVALID_USER_TYPE_DELAY_MS = 2000;

/**
 * SPEC §2 `auth` guard and §1/§6 user type: signed out → `/`; signed in with an account that is
 * not a young person's → "Invalid user type. Redirecting to login.", sign out, login after ~2 s.
 */
export function AuthGuard({ children }: { children: ReactNode }) {
  const account = useAccount();
  if (!account) return <Navigate to="/" replace />;
  if (account.user.user_type.system_name !== YOUNG_PERSON_USER_TYPE) return <InvalidUserType />;
  return children;
}

function InvalidUserType() {
  const navigate = useNavigate();
  const ended = useRef(false);
  // Whose data goes, taken before the server session ends (see signOut).
  const whose = useRef(signedInContext());
  useEffect(() => {
    if (!ended.current) {
      ended.current = true;
      void endServerSession();
    }
    const timer = setTimeout(() => {
      clearLocalSession(whose.current);
      navigate('/', { replace: true });
    }, INVALID_USER_TYPE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [navigate]);
  return (
    <main id="main" tabIndex={-1} className="layout-plain">
      <Notice title="Wrong kind of account" role="alert">
        <p>{messages.invalidUserType}</p>
      </Notice>
    </main>
  );
}
