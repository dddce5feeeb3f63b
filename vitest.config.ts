import { defineConfig } from 'vitest/config';

// Two suites: unit (pure logic, fast) and integration (real sockets, files, keychain, CUPS).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          pool: 'forks',
          // A private PostgreSQL server for the run (the shared-store engine's tests).
          globalSetup: ['test/support/postgres-global-setup.ts'],
        },
      },
      {
        // The Windows stage (scripts/test-windows.sh, which prepares Wine and Windows Node first).
        test: {
          name: 'windows',
          include: ['test/windows/**/*.test.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 180_000,
          pool: 'forks',
        },
      },
    ],
  },
});
