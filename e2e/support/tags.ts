/**
 * For a test whose subject does not change with the window's size: the service worker's
 * notifications, sync arriving on an open page, the XSS sweeps (the same components render the
 * same text on both). The phone project skips it (playwright.config.ts), so CI spends its time on
 * what a phone changes: layout, the Menu drawer, touch targets, axe at that width.
 */
export const ONE_VIEWPORT_TAG = '@one-viewport';
export const ONE_VIEWPORT = { tag: ONE_VIEWPORT_TAG } as const;
