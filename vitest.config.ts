import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

// Unit tests (pure logic, fast), integration tests (real sockets, files, the OS keychain, CUPS,
// PostgreSQL) and the Windows stage, one group after the other. No test keeps state in modules
// (the composition root wires everything), so a worker runs file after file without being started
// again; most integration time is waiting on sockets, printers and timers, so three of its files
// run at a time on a 2-core machine.
const integration = {
  include: ['test/integration/**/*.test.ts'],
  environment: 'node',
  testTimeout: 60_000,
  hookTimeout: 60_000,
  pool: 'forks',
  // A private PostgreSQL server for the run (the shared-store engine's tests), and the programs
  // tests start as processes of their own, bundled once (test/support/child-scripts.ts).
  globalSetup: ['test/support/postgres-global-setup.ts', 'test/support/child-scripts-global-setup.ts'],
} satisfies TestProjectInlineConfiguration['test'];
// The files about the OS keychain itself. In one clean-clone run, with three files at a time, two
// of them found the run's Secret Service without its default collection for a moment while other
// files used it too; afterwards, on their own, nothing else touches it.
const keychainFiles = [
  'test/integration/keys/keychain.test.ts',
  'test/integration/keys/verify.test.ts',
  'test/integration/store-engine/store-password.test.ts',
  'test/integration/web-host/key-binding.test.ts',
];
const runAlone = ['test/integration/warehouse/**/*.test.ts', 'test/integration/printing-queue/fault-matrix.test.ts', ...keychainFiles];

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
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...integration,
          name: 'integration',
          exclude: runAlone,
          isolate: false,
          maxWorkers: 3,
          sequence: { groupOrder: 1 },
        },
      },
      {
        // Afterwards, on their own: the ten-bench warehouse (ten station processes and PostgreSQL
        // load both cores), the fault matrix (its printers answer within the station's real time
        // limits, which a starved process would miss) and the keychain's files (above).
        test: {
          ...integration,
          name: 'integration-alone',
          include: runAlone,
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
      {
        // Every parser of outside data under generated and mutated inputs (fast-check): a fixed
        // seed and number of runs here, more runs from a fresh seed with `npm run fuzz:long`
        // (test/fuzz/budget.ts). Some properties serve real sockets (the webhook receiver, the web host).
        test: {
          name: 'fuzz',
          include: ['test/fuzz/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 60_000,
          pool: 'forks',
          maxWorkers: 2,
          sequence: { groupOrder: 4 },
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
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
