import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { chosenMessages } from '@/contract/messages';
import { useToast } from '@/components/use-toast';
import { finishSetUp } from '../actions/finish-set-up';

/** Reload the account, say so, and go to the dashboard (or to sign-in when no session came of it). */
export function useFinishSetUp(): { finish: () => Promise<void>; finishing: boolean } {
  const toast = useToast();
  const navigate = useNavigate();
  const [finishing, setFinishing] = useState(false);
  const finish = useCallback(async () => {
    setFinishing(true);
    const signedIn = await finishSetUp();
    setFinishing(false);
    toast.success(chosenMessages.mfaEnabled);
    navigate(signedIn ? '/dashboard' : '/', { replace: true });
  }, [navigate, toast]);
  return { finish, finishing };
}
