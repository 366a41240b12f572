import { messages } from '@/contract/messages';
import { useOnlineStatus } from '@/data/use-online-status';

/** "You are currently offline", announced politely; the live region stays so changes are read out. */
export function OfflineBanner() {
  const online = useOnlineStatus();
  return (
    <div role="status" className={online ? 'offline-banner offline-banner--hidden' : 'offline-banner'}>
      {online ? null : messages.offline}
    </div>
  );
}
