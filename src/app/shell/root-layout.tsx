import { Outlet } from 'react-router-dom';
import { LoadingBar } from './loading-bar';
import { NotificationOpener } from './notification-opener';
import { OfflineBanner } from './offline-banner';
import { RouteEffects } from './route-effects';
import { SessionToastBridge } from './session-toast-bridge';
import { UpdateBanner } from './update-banner';

/** Around every screen: skip link, loading bar, offline banner, update banner, titles and focus, the 419 toast, notification clicks. */
export function RootLayout() {
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to main content
      </a>
      <LoadingBar />
      <OfflineBanner />
      <UpdateBanner />
      <RouteEffects />
      <SessionToastBridge />
      <NotificationOpener />
      <Outlet />
    </>
  );
}

export function PageLoading() {
  return (
    <p className="page-loading" role="status">
      Loading…
    </p>
  );
}
