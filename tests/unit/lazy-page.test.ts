/**
 * A route's page chunk is asked for in a task of its own (issue 13, no long task at start): the
 * router's first navigation and the bundler's preload links for the page's chunks were one task.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyPage, setNavigationDestination } from '@/app/lazy-page';

const Page = () => null;

describe('lazyPage', () => {
  it('asks for the chunk only after the task the router asked in has ended, and gives its page', async () => {
    let asked = false;
    const lazy = lazyPage(
      async () => {
        asked = true;
        return { Page };
      },
      (module) => module.Page,
    );
    const loading = lazy();
    for (let i = 0; i < 10; i++) await Promise.resolve(); // the rest of the router's task
    expect(asked).toBe(false);
    await expect(loading).resolves.toEqual({ Component: Page });
    expect(asked).toBe(true);
  });

  describe('a chunk that fails to load', () => {
    afterEach(() => {
      vi.unstubAllGlobals();
      setNavigationDestination(() => null);
    });

    /** A page at /objectives?tab=1, with the reload guard's session storage. */
    function onThePage() {
      const location = { pathname: '/objectives', search: '?tab=1', hash: '', reload: vi.fn(), assign: vi.fn() };
      const stored = new Map<string, string>();
      vi.stubGlobal('window', { location });
      vi.stubGlobal('sessionStorage', { getItem: (key: string) => stored.get(key) ?? null, setItem: (key: string, value: string) => void stored.set(key, value) });
      return location;
    }
    const failing = () =>
      lazyPage(
        () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
        (module: { Page: () => null }) => module.Page,
      );

    it('reloads at the address being opened: the tap that asked for the page is not lost', async () => {
      const location = onThePage();
      setNavigationDestination(() => '/objectives/log-1');
      void failing()();
      await vi.waitFor(() => expect(location.assign).toHaveBeenCalledWith('/objectives/log-1'));
      expect(location.reload).not.toHaveBeenCalled();
    });

    it('reloads the address it is on when no navigation is in progress (the first load)', async () => {
      const location = onThePage();
      void failing()();
      await vi.waitFor(() => expect(location.reload).toHaveBeenCalledTimes(1));
      expect(location.assign).not.toHaveBeenCalled();
      // At most once in 10 s: the second failure is explained by the route's error page instead.
      await expect(failing()()).rejects.toThrow('Failed to fetch dynamically imported module');
      expect(location.reload).toHaveBeenCalledTimes(1);
    });
  });
});
