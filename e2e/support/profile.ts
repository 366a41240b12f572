import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, test, type BrowserContext, type Page } from '@playwright/test';

/**
 * A browser profile on disk for one test. Playwright's usual contexts are off the record, and there
 * Chromium installs nothing ("in-incognito") and refuses push subscriptions at once ("Registration
 * failed - permission denied"); a real profile behaves as a person's browser does.
 */
export async function withProfile<T>(run: (context: BrowserContext, page: Page) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-profile-'));
  const use = test.info().project.use;
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: (use.launchOptions?.args as string[] | undefined) ?? ['--no-sandbox', '--disable-gpu'],
    baseURL: use.baseURL,
    viewport: use.viewport ?? { width: 1280, height: 800 },
  });
  try {
    return await run(context, context.pages()[0] ?? (await context.newPage()));
  } finally {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
