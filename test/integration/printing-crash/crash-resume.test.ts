/**
 * The crash test: the station's core runs in a child process (test/support/child-scripts.ts) printing a 500-label bundle
 * run to a virtual Zebra, and is killed with SIGKILL at random moments, at least ten times while
 * the run is going on. Each new life finds the unfinished run in the journal and resumes it. In
 * the end the printer's own record holds every label of the run, none twice, except labels the
 * journal marked uncertain (those were being sent at a kill: at most once).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/main/store/database';
import type { RunningSandbox } from '../../../src/sandbox';
import type { VirtualZebra } from '../../../src/sandbox/printer';
import { barcodeOfZpl, bundlesWithLabels, startTestSandbox, startZebra, stationOrders } from '../printing-queue/support';
import { childScript } from '../../support/child-scripts';

const LABELS = 500;
const KILLS_DURING_RUN = 10;

/** The CLI in a process of its own, on the same data folder (as a person would run it next to the app). */
function runCliProcess(dataDir: string, args: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const cli = spawn(process.execPath, [childScript('src/main/cli/index.ts'), '--data-dir', dataDir, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    cli.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    cli.on('exit', (code) => resolve({ code, stdout }));
  });
}

interface Life {
  lines: string[];
  stderr: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
}

function startLife(config: unknown): { done: Promise<Life>; kill(): void; waitForLine(prefix: string): Promise<boolean> } {
  const child = spawn(process.execPath, [childScript('test/integration/printing-crash/station-child.ts'), JSON.stringify(config)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const life: Life = { lines: [], stderr: '', exitCode: null, signal: null };
  const listeners = new Set<() => void>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    life.lines.push(line);
    for (const listener of [...listeners]) listener();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    life.stderr += chunk.toString('utf8');
  });
  const done = new Promise<Life>((resolve) => {
    child.on('exit', (code, signal) => {
      life.exitCode = code;
      life.signal = signal;
      for (const listener of [...listeners]) listener();
      resolve(life);
    });
  });
  return {
    done,
    kill: () => child.kill('SIGKILL'),
    // Resolves true when a line with the prefix arrives, false when the process ends first.
    waitForLine: (prefix) =>
      new Promise((resolve) => {
        const check = (): void => {
          if (life.lines.some((line) => line.startsWith(prefix))) finish(true);
          else if (life.exitCode !== null || life.signal !== null) finish(false);
        };
        const finish = (value: boolean): void => {
          listeners.delete(check);
          resolve(value);
        };
        listeners.add(check);
        check();
      }),
  };
}

/** Time is the input: kills land at random moments of a life. */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Whether a promise has settled by now: it answers before the event loop's next timers turn, or it has not. */
const settledNow = (promise: Promise<unknown>) => Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 0))]);

describe('crash and resume', () => {
  let sandbox: RunningSandbox;
  let zebra: VirtualZebra;
  let dataDir: string;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ orders: 1600 });
    dataDir = mkdtempSync(join(tmpdir(), 'station-crash-'));
  });

  afterAll(async () => {
    await zebra?.stop();
    await sandbox?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it(`a ${LABELS}-label run killed at random moments and resumed prints every label once, except uncertain ones`, { timeout: 240_000 }, async () => {
    const picked = bundlesWithLabels(await stationOrders(sandbox), LABELS);
    const started = await startZebra({ labelsPerSecond: 60 });
    zebra = started.zebra;
    const config = {
      dataDir,
      baseUrl: sandbox.environments.test.baseUrl,
      apiKey: sandbox.environments.test.companies[0]?.apiKey ?? '',
      printerPort: started.port,
      bundleIds: picked.bundleIds,
      orders: picked.orders.map(({ orderId, orderRef, barcode, bundleId, status }) => ({ orderId, orderRef, barcode, bundleId, status })),
    };

    let killsDuringRun = 0;
    let killsAtStart = 0;
    let checkedSharing = false;
    const lives: Life[] = [];
    for (let attempt = 0; attempt < 40; attempt++) {
      const life = startLife(config);
      if (killsDuringRun < KILLS_DURING_RUN) {
        if (attempt % 4 === 3) {
          // Now and then a kill while the station is still starting up.
          await sleep(200 + Math.random() * 1200);
          life.kill();
          const ended = await life.done;
          if (ended.signal === 'SIGKILL') killsAtStart += 1;
          lives.push(ended);
          continue;
        }
        const running = await life.waitForLine('running');
        if (running && !checkedSharing) {
          // The CLI opening the same database while the station prints must not touch the live run.
          checkedSharing = true;
          const listed = await runCliProcess(dataDir, ['printers', 'list']);
          expect(listed.code).toBe(0);
          expect(listed.stdout).toContain('Crash Zebra');
          const db = openDatabase(join(dataDir, 'station.db'));
          const runState = db.prepare("SELECT state, pause_reason FROM print_runs WHERE environment = 'test'").all();
          const cut = db.prepare("SELECT count(*) AS n FROM print_journal WHERE state = 'uncertain'").get() as { n: number };
          db.close();
          const stillRunning = !(await settledNow(life.done));
          if (stillRunning) {
            expect(runState).toEqual([{ state: 'running', pause_reason: null }]);
            expect(cut.n).toBe(0);
          }
        }
        if (running) {
          await sleep(30 + Math.random() * 700);
          if (!(await settledNow(life.done))) {
            life.kill();
            const ended = await life.done;
            if (ended.signal === 'SIGKILL' && !ended.lines.some((line) => line.startsWith('finished'))) killsDuringRun += 1;
            lives.push(ended);
            continue;
          }
        }
        lives.push(await life.done);
      } else {
        lives.push(await life.done);
      }
      const last = lives.at(-1) as Life;
      if (last.exitCode !== 0) throw new Error(`a life of the station failed: ${last.stderr.slice(-2000)}`);
      if (last.lines.some((line) => line.startsWith('finished') || line.startsWith('nothing-to-do'))) break;
    }
    expect(killsDuringRun, 'kills while the run was going on').toBeGreaterThanOrEqual(KILLS_DURING_RUN);
    expect(lives.at(-1)?.lines.some((line) => line.startsWith('finished'))).toBe(true);

    // The journal, read straight from the station's database file.
    const db = openDatabase(join(dataDir, 'station.db'));
    const rows = db.prepare("SELECT order_id, state, reason FROM print_journal WHERE environment = 'test' ORDER BY position").all() as {
      order_id: string;
      state: string;
      reason: string | null;
    }[];
    const runs = db.prepare("SELECT state FROM print_runs WHERE environment = 'test'").all() as { state: string }[];
    db.close();
    expect(runs).toEqual([{ state: 'finished' }]);
    expect(rows).toHaveLength(LABELS);
    const barcodeOf = new Map(picked.orders.map((order) => [order.orderId, order.barcode]));
    expect(new Set(rows.map((row) => row.order_id)).size).toBe(LABELS);

    // What the printer printed, by parcel barcode.
    const printed = new Map<string, number>();
    for (const label of zebra.printed()) {
      const barcode = barcodeOfZpl(label.zpl) ?? '(none)';
      printed.set(barcode, (printed.get(barcode) ?? 0) + 1);
    }
    const runBarcodes = new Set(barcodeOf.values());
    for (const barcode of printed.keys()) expect(runBarcodes.has(barcode), `printed a label not in the run: ${barcode}`).toBe(true);
    const uncertain = rows.filter((row) => row.state === 'uncertain');
    for (const row of rows) {
      const count = printed.get(barcodeOf.get(row.order_id) ?? '') ?? 0;
      if (row.state === 'uncertain') {
        expect(count, `uncertain ${row.order_id}`).toBeLessThanOrEqual(1);
      } else {
        expect(row.state).toBe('printed');
        expect(count, `${row.order_id} printed ${count} times`).toBe(1);
      }
    }
    // At most one label can be on the wire when a kill lands.
    expect(uncertain.length).toBeLessThanOrEqual(killsDuringRun + killsAtStart);
    console.info(
      `crash test: ${lives.length} lives, ${killsDuringRun} kills during the run, ${killsAtStart} at start-up, ${uncertain.length} uncertain labels, ${zebra.printed().length} labels printed`,
    );
  });
});
