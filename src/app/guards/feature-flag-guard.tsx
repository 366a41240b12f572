import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useProductName } from '@/data/app-config-store';
import { useFeatureFlags } from '@/data/session-store';
import { Notice } from '@/components/notice';
import type { RouteHandle } from '../route-handle';

/** SPEC §2 `feature-flag` guard: a switched-off feature gets a friendly page, not an error. */
export function FeatureFlagGuard({ flag, children }: { flag: RouteHandle['flag']; children: ReactNode }) {
  const flags = useFeatureFlags();
  const product = useProductName();
  if (!flag || flags[flag]) return children;
  return (
    <Notice
      title={`This part of ${product} is not switched on for you`}
      actions={
        <Link to="/dashboard" className="button button--primary">
          Go to dashboard
        </Link>
      }
    >
      <p>If you think it should be, ask a carer to switch it on.</p>
    </Notice>
  );
}
