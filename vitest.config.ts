import { fileURLToPath, URL } from 'node:url';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { HOOK_TIMEOUT_MS, TEST_TIMEOUT_MS } from './tests/support/timeouts';

const alias = { '@': fileURLToPath(new URL('./src', import.meta.url)) };

export default defineConfig({
  test: {
    // These machines have two cores; each server test file boots its own embedded database.
    maxWorkers: 2,
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts', 'tests/unit/**/*.test.ts', 'tests/lint/**/*.test.ts', 'tests/build/**/*.test.ts'],
          testTimeout: TEST_TIMEOUT_MS,
          hookTimeout: HOOK_TIMEOUT_MS,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'data',
          environment: 'node',
          include: ['tests/data/**/*.test.ts'],
          setupFiles: ['tests/data/setup.ts'],
          testTimeout: TEST_TIMEOUT_MS,
          hookTimeout: HOOK_TIMEOUT_MS,
        },
      },
      {
        plugins: [react()],
        resolve: { alias },
        define: { __BUILD_ID__: '"test-build"', __APP_VERSION__: '"0.0.0-test"' },
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['tests/web/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/web/setup.ts'],
          testTimeout: TEST_TIMEOUT_MS,
          hookTimeout: HOOK_TIMEOUT_MS,
        },
      },
    ],
  },
});
