import { defineConfig, devices } from '@playwright/test';
import { ONE_VIEWPORT_TAG } from './e2e/support/tags';

/** End-to-end against the built PWA and the real server on a fresh embedded database. */
const port = Number(process.env.E2E_PORT ?? 8181);
export const baseURL = `http://localhost:${port}`;
/** A fresh database per run; per port, so two runs on one machine do not delete each other's. */
const dataDir = `.e2e-data-${port}`;

const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/e2e',
  // The one wait budget of e2e: CI runs right after a session on a machine that may be busy, where
  // a sign-in or the first sync can take well over 10 s. A poll returns as soon as its state is reached.
  timeout: 90_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  // An action whose element never comes (a wrong role, a missing button) fails in a minute, not at the
  // end of a long test's budget.
  use: { baseURL, trace: 'retain-on-failure', launchOptions: chromium, actionTimeout: 60_000, navigationTimeout: 60_000 },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, launchOptions: chromium }, testIgnore: /two-factor-enable/ },
    // The chaos slice (e2e/chaos.spec.ts) runs on desktop only: on a phone it would exercise the same code paths for twice the CI time.
    // Tests tagged ONE_VIEWPORT (e2e/support/tags.ts) check what a window's size cannot change, so they run on desktop only.
    { name: 'phone', use: { ...devices['Pixel 5'], launchOptions: chromium }, testIgnore: /two-factor-enable|chaos/, grepInvert: new RegExp(ONE_VIEWPORT_TAG) },
    // Turns two-factor on for jamie, so it runs after every test that signs jamie in with a password.
    { name: 'two-factor-enable', use: { ...devices['Desktop Chrome'], launchOptions: chromium }, testMatch: /two-factor-enable/, dependencies: ['desktop', 'phone'] },
  ],
  webServer: {
    command: `rm -rf ${dataDir} && tsx server/main.ts`,
    url: `${baseURL}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      STATIC_DIR: 'dist',
      LOG_LEVEL: 'warn',
    },
  },
});
