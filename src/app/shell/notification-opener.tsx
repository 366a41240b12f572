import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { isPushUrl, OPEN_SCREEN_MESSAGE } from '@/contract/push-notice';

/**
 * A notification click on a Hearth window that is already open (sw/push.ts): the worker asks this
 * page to show the screen, and the router goes there without reloading the app (the replica, a
 * draft being written, the scroll of other screens stay). The answer on the message's port tells
 * the worker it need not navigate the window itself.
 */
export function NotificationOpener() {
  const navigate = useNavigate();
  useEffect(() => {
    const container = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
    if (!container) return;
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { type?: unknown; url?: unknown } | null;
      if (data?.type !== OPEN_SCREEN_MESSAGE || typeof data.url !== 'string') return;
      let target: URL;
      try {
        target = new URL(data.url, window.location.origin);
      } catch {
        return;
      }
      if (target.origin !== window.location.origin || !isPushUrl(target.pathname)) return;
      navigate(`${target.pathname}${target.search}`);
      event.ports[0]?.postMessage({ opened: true });
    };
    container.addEventListener('message', onMessage);
    return () => container.removeEventListener('message', onMessage);
  }, [navigate]);
  return null;
}
