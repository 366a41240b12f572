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
  const first = useRef(true);

  useEffect(() => {
    document.title = pageTitle(product, name);
  }, [product, name]);

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    window.scrollTo(0, 0);
    const target = document.getElementById('main-heading') ?? document.getElementById('main');
    target?.focus({ preventScroll: true });
  }, [pathname]);

  return null;
}
