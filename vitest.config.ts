import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Four projects: fast node tests (the server's on SQLite), the server's tests again on a real PostgreSQL (issue 15
// §3: the same files, SIFT_TEST_DB=postgres), UI tests on happy-dom, and end-to-end tests in Chromium (one file at a
// time: they start real servers and a real browser).
export default defineConfig({
  plugins: [react()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['tests/{model,streams,worker,server}/**/*.test.ts'],
          // An upper bound only: on 2 cores shared with the PostgreSQL project, a Slack test's first sync can take 30 s.
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'server-postgres',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          // Already on both engines, or no store at all.
          exclude: ['tests/server/{storeRecords,eventLog,leadership,twoServers,layers,errors,serviceWorker}.test.ts'],
          env: { SIFT_TEST_DB: 'postgres' },
          globalSetup: ['tests/server/postgresSetup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'ui',
          environment: 'happy-dom',
          include: ['tests/ui/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/ui/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          fileParallelism: false,
          testTimeout: 90_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
