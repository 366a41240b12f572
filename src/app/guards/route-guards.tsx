import { Outlet, useMatches } from 'react-router-dom';
import { leafHandle } from '../route-handle';
import { FeatureFlagGuard } from './feature-flag-guard';
import { OfflineGuard } from './offline-guard';

/** Applies the page's `flag` and `offline` guards from its route handle (inside the auth guard). */
export function RouteGuards() {
  const handle = leafHandle(useMatches());
  return (
    <FeatureFlagGuard flag={handle.flag}>
      <OfflineGuard worksOffline={handle.offline === true}>
        <Outlet />
      </OfflineGuard>
    </FeatureFlagGuard>
  );
}
