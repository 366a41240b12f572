/**
 * A route's page chunk is asked for in a task of its own (issue 13, no long task at start): the
 * router's first navigation and the bundler's preload links for the page's chunks were one task.
 */
import { describe, expect, it } from 'vitest';
import { lazyPage } from '@/app/lazy-page';

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
});
