import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useOnlineStatus } from '@/data/use-online-status';
import { Notice } from '@/components/notice';

/**
 * SPEC §2 `offline` guard. A route marked `offline` works offline; any other page shows
 * "You need to be online for this page" while offline instead of failing.
 */
export function OfflineGuard({ worksOffline, children }: { worksOffline: boolean; children: ReactNode }) {
  const online = useOnlineStatus();
  if (worksOffline || online) return children;
  return (
    <Notice
      title="You need to be online for this page"
      actions={
        <Link to="/dashboard" className="button button--primary">
          Go to dashboard
        </Link>
      }
    >
      <p>Connect to Wi-Fi or mobile data and this page will open. Your dashboard, calendar and objectives still work offline.</p>
    </Notice>
  );
}
