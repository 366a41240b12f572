import { useCallback, useEffect, useState } from 'react';
import type { DevMail } from '@/contract/app-config';
import { getDevMailbox } from '@/api/dev/get-dev-mailbox';

export type DevMailboxState =
  | { status: 'idle' | 'loading' }
  | { status: 'ready'; mails: DevMail[] }
  | { status: 'error'; message: string };

/** The development mailbox (only asked for when `enabled`), with a refresh. */
export function useDevMailbox(enabled: boolean): { state: DevMailboxState; refresh: () => void } {
  const [state, setState] = useState<DevMailboxState>({ status: 'idle' });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    setState({ status: 'loading' });
    void getDevMailbox().then((result) => {
      if (!live) return;
      setState(result.ok ? { status: 'ready', mails: result.data } : { status: 'error', message: result.message || `Status ${result.status}` });
    });
    return () => {
      live = false;
    };
  }, [enabled, tick]);
  const refresh = useCallback(() => setTick((t) => t + 1), []);
  return { state, refresh };
}
