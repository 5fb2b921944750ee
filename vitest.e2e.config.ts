import { defineConfig } from 'vitest/config';

// End-to-end: the real `pipedejavu serve` driven in Chromium, one file at a time (each starts a
// server and a browser, and a profile takes the machine's CPUs).
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
    globalSetup: ['test/global-setup.ts'],
  },
});
