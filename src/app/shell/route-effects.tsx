import { useEffect, useRef } from 'react';
import { useLocation, useMatches } from 'react-router-dom';
import { useProductName } from '@/data/app-config-store';
import { pageTitle } from '@/lib/page-title';
import { leafHandle } from '../route-handle';

/**
 * Page title ("Hearth - Dashboard", just "Hearth" on home), and on each new path: scroll to the top
 * and move focus to the page's h1 so screen readers hear where they are.
 */
export function RouteEffects() {
  const product = useProductName();
  const matches = useMatches();
  const { pathname } = useLocation();
  const name = leafHandle(matches).name;
  // The path focus was last handled for: the first path is the page the person opened (focus stays
  // where the browser put it), and an effect run again for the same path (StrictMode's mount check)
  // must not move focus away from where they have since put it.
  const handledPath = useRef(pathname);

  useEffect(() => {
    document.title = pageTitle(product, name);
  }, [product, name]);

  useEffect(() => {
    if (handledPath.current === pathname) return;
    handledPath.current = pathname;
    window.scrollTo(0, 0);
    const target = document.getElementById('main-heading') ?? document.getElementById('main');
    target?.focus({ preventScroll: true });
  }, [pathname]);

  return null;
}
