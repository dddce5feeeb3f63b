import { defineConfig } from 'vitest/config';

// Two suites: unit (pure logic, fast) and integration (real sockets, files, keychain, CUPS).
// Neither keeps state in modules (the composition root wires everything), so a worker runs file
// after file without being started again; most integration time is waiting on sockets, printers
// and timers, so three of its files run at a time on a 2-core machine.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          isolate: false,
          maxWorkers: 2,
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
          isolate: false,
          maxWorkers: 3,
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
          // One Windows Node under Wine at a time: each is a whole Windows process tree.
          maxWorkers: 1,
        },
      },
    ],
  },
});
