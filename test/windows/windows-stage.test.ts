/**
 * The Windows stage: the built station (out/) on Windows Node under Wine, through its own entry
 * points — the command line (out/main/cli.js) and the web host (out/main/web.js) — as a bench PC
 * would run it. Around it, on Linux: the sandbox (the Delivery API), a private CUPS holding a raw
 * queue that Wine's print spooler shows as a Windows printer, and virtual Zebras on loopback.
 *
 * The checks are the steps of setting up and using one bench, in order: each starts Windows Node
 * afresh on the state the step before left (a bench's data folder and keychain), which is what a
 * second start on Windows has to read back. scripts/test-windows.sh prepares Wine, Windows Node and
 * the Windows node_modules; docs/windows.md lists what this proves and what only a real PC can.
 */
import Database from 'libsql';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox';
import type { VirtualZebra } from '../../src/sandbox/printer';
import { startPrivateCups, type PrivateCups } from '../support/cups';
import { waitUntil } from '../support/wait-until';
import { barcodeOfZpl, bundlesWithLabels, controlCall, startTestSandbox, startZebra, stationOrders, type TodaysOrder } from '../integration/printing-queue/support';
import { createWindowsNode, windowsPath, type WindowsNode, type WindowsRun } from './support/windows-node';
import { freshPrefix, type RunPrefix } from './support/wine-prefix';

const cache = process.env.WINDOWS_STAGE_CACHE ?? '';
const nodeExe = process.env.WINDOWS_STAGE_NODE ?? '';
const wine = process.env.WINDOWS_STAGE_WINE ?? '';
const wineserver = process.env.WINDOWS_STAGE_WINESERVER ?? '';
if (!cache || !nodeExe || !wine || !wineserver) throw new Error('Run the Windows stage with `npm run test:windows` (scripts/test-windows.sh prepares Wine and Windows Node).');

const runDir = join(cache, 'run');
const appDir = join(cache, 'app');
const spoolerQueue = 'Bench Zebra (spooler)';
const cupsQueue = 'WinZebra';
const product = 'Packing Station';
const wineShim = join(__dirname, 'wine-shims', 'keepalive-after-connect.cjs');

const ok = (run: WindowsRun, what: string): WindowsRun => {
  if (run.code !== 0) throw new Error(`${what} exited with ${String(run.code)}\n--- stdout\n${run.stdout.slice(-3000)}\n--- stderr\n${run.stderr.slice(-3000)}`);
  return run;
};

describe.sequential('the station on Windows (Windows Node under Wine)', () => {
  let prefix: RunPrefix;
  let windows: WindowsNode;
  let sandbox: RunningSandbox;
  let cups: PrivateCups;
  let spoolerZebra: VirtualZebra;
  let benchZebra: VirtualZebra;
  let benchZebraPort: number;
  let orders: TodaysOrder[];
  let singles: TodaysOrder[];
  let run: { bundleIds: string[]; orders: TodaysOrder[] };
  let apiKey: string;
  let dataDir: string;
  const keyFree: string[] = [];

  const journal = () => {
    const db = new Database(join(dataDir, 'station.db'), { readonly: true });
    try {
      return db.prepare('SELECT id, order_id AS orderId, state, run_id AS runId FROM print_journal ORDER BY id').all() as { id: number; orderId: string; state: string; runId: string | null }[];
    } finally {
      db.close();
    }
  };

  beforeAll(async () => {
    rmSync(runDir, { recursive: true, force: true });
    mkdirSync(join(runDir, 'output'), { recursive: true });
    prefix = freshPrefix(join(cache, 'prefix-template'), join(runDir, 'prefix'), wineserver);
    sandbox = await startTestSandbox({ orders: 300 });
    orders = (await stationOrders(sandbox)).filter((order) => order.zplAvailable);
    // Two drafts for the single scans, and a 16-label bundle run apart from them.
    singles = orders.filter((order) => order.status === 'draft').slice(0, 2);
    run = bundlesWithLabels(orders, 16, new Set(singles.map((order) => order.bundleId)));
    apiKey = sandbox.environments.test.companies[0]?.apiKey ?? '';
    const spooler = await startZebra();
    spoolerZebra = spooler.zebra;
    const spoolerPort = spooler.port;
    cups = await startPrivateCups();
    await cups.addRawQueue(cupsQueue, spoolerPort);
    // The bench's network Zebra prints one label a second until the kill, so the run is surely still going when it lands.
    ({ zebra: benchZebra, port: benchZebraPort } = await startZebra({ labelsPerSecond: 1 }));
    windows = createWindowsNode({ wine, prefix: prefix.path, nodeExe, appDir, logDir: join(runDir, 'output'), env: { CUPS_SERVER: cups.socketPath }, preload: [wineShim] });
    dataDir = join(prefix.appDataLinux(), product);
  }, 120_000);

  afterAll(async () => {
    await prefix?.remove();
    await cups?.stop();
    await spoolerZebra?.stop();
    await benchZebra?.stop();
    await sandbox?.close();
  }, 60_000);

  it('Windows Node starts under Wine and says it is on win32', async () => {
    const probe = ok(await windows.run(['-p', 'JSON.stringify({ platform: process.platform, version: process.version, appData: process.env.APPDATA })'], { label: 'probe' }), 'node -p');
    const said = JSON.parse(probe.stdout) as { platform: string; version: string; appData: string };
    expect(said.platform).toBe('win32');
    expect(said.version).toMatch(/^v22\./);
    expect(said.appData).toMatch(/^C:\\users\\[^\\]+\\AppData\\Roaming$/i);
  });

  it('first start: the data folder is made under %APPDATA% with the settings in its SQLite store', async () => {
    expect(existsSync(dataDir)).toBe(false);
    const first = ok(
      await windows.cli(['settings', 'set', '--env', 'test', '--api-url-test', sandbox.environments.test.baseUrl, '--station-name', 'Bench W1', '--operator', 'Wiktoria']),
      'settings set',
    );
    keyFree.push(first.stdout, first.stderr);
    expect(existsSync(join(dataDir, 'station.db'))).toBe(true);
    const db = new Database(join(dataDir, 'station.db'), { readonly: true });
    const rows = db.prepare('SELECT count(*) AS n FROM settings').get() as { n: number };
    db.close();
    expect(rows.n).toBeGreaterThan(0);
  });

  it('second start: the settings are read back, and the start changes no file permission and refuses nothing', async () => {
    const before = statSync(dataDir);
    const second = ok(await windows.cli(['--verbose', 'settings']), 'settings');
    keyFree.push(second.stdout, second.stderr);
    expect(second.stdout).toContain('Bench W1');
    expect(second.stdout).toContain('Wiktoria');
    expect(second.stdout).toContain(sandbox.environments.test.baseUrl);
    expect(second.stdout).toMatch(/environment\W+test/i);
    // Windows has no 0700/0600: the profile's ACL keeps %APPDATA% the user's, and the station
    // leaves it alone — no "narrowed" at any start, no read-only file, the folder's own entry untouched.
    expect(second.stderr).not.toMatch(/permissions narrowed/);
    expect(statSync(dataDir).mode).toBe(before.mode);
    for (const name of readdirSync(dataDir)) expect(statSync(join(dataDir, name)).mode & 0o200, `${name} is writable by its owner`).toBe(0o200);
  });

  it('the API key goes to Windows Credential Manager: keys set, keys verify against the sandbox, the key in no file', async () => {
    const set = ok(await windows.cli(['keys', 'set', '--env', 'test', '--verify'], { stdin: `${apiKey}\n` }), 'keys set');
    keyFree.push(set.stdout, set.stderr);
    expect(set.stdout).toContain('The test key is stored in the OS keychain.');
    expect(set.stdout).toContain('The Delivery API accepted the test key.');
    // A new process reads it back from Credential Manager and the sandbox accepts it.
    const verify = ok(await windows.cli(['keys', 'verify', '--env', 'test']), 'keys verify');
    keyFree.push(verify.stdout, verify.stderr);
    expect(verify.stdout).toContain('The Delivery API accepted the test key.');
    // Neither the station's data folder, nor the Windows registry files, nor anything printed holds it.
    const needles = [Buffer.from(apiKey, 'utf8'), Buffer.from(apiKey, 'utf16le')];
    const files = [...filesUnder(dataDir), ...['system.reg', 'user.reg', 'userdef.reg'].map((name) => join(prefix.path, name)), ...filesUnder(join(runDir, 'output'))];
    expect(files.length).toBeGreaterThan(5);
    const holding = files.filter((file) => {
      const bytes = readFileSync(file);
      return needles.some((needle) => bytes.includes(needle));
    });
    expect(holding).toEqual([]);
    expect(keyFree.some((text) => text.includes(apiKey))).toBe(false);
  });

  it('a manifest import (its parsing worker) teaches the order index the day’s orders', async () => {
    const lines = ['orderId,orderRef,barcode,bundleId,status', ...orders.map((order) => [order.orderId, order.orderRef, order.barcode, order.bundleId, order.status].join(','))];
    writeFileSync(join(runDir, 'orders.csv'), `${lines.join('\r\n')}\r\n`);
    const imported = ok(await windows.cli(['import', windowsPath(join(runDir, 'orders.csv'))]), 'import');
    expect(imported.stdout).toMatch(new RegExp(`\\b${orders.length}\\b`));
  });

  it('printers add: a Windows spooler queue (Wine shows the CUPS raw queue as a Windows printer)', async () => {
    const added = ok(await windows.cli(['printers', 'add', spoolerQueue, '--queue', cupsQueue, '--default', 'both']), 'printers add');
    expect(added.stdout).toContain(`Added ${spoolerQueue}`);
    expect(added.stdout).toContain(`print queue "${cupsQueue}"`);
    expect(added.stdout).toContain('The service’s ZPL as it is');
  });

  it('print through the Windows spooler: the label’s bytes arrive unchanged at the Zebra behind the queue; the journal says sent', async () => {
    const order = singles[0] as TodaysOrder;
    const label = readFileSync(join(__dirname, '..', 'fixtures', 'zpl', 'dhl-logo-download.zpl'));
    await controlCall(sandbox, `/environments/test/orders/${encodeURIComponent(order.orderId)}/label`, { method: 'PUT', body: { format: 'zpl', base64: label.toString('base64') } });
    const printed = ok(await windows.cli(['print', order.orderRef]), 'print');
    expect(printed.stdout).toContain(`Printed ${order.orderRef} on ${spoolerQueue}`);
    expect(printed.stderr).toContain('the journal keeps the label as sent, not printed');
    const arrived = () => Buffer.concat(spoolerZebra.received().map((connection) => connection.bytes));
    await waitUntil(() => arrived().length >= label.length, 'the label at the Zebra behind the CUPS queue', 60_000, 100);
    expect(arrived().equals(label)).toBe(true);
    expect(journal().filter((entry) => entry.orderId === order.orderId).map((entry) => entry.state)).toEqual(['sent']);
  });

  it('the Windows PDF route without SumatraPDF: a PDF printer is refused with what to install, nothing saved', async () => {
    const refused = await windows.cli(['printers', 'add', 'Bench PDF', '--queue', cupsQueue, '--pdf']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('PDF printers on Windows need SumatraPDF, and it was not found.');
    expect(refused.stderr).toContain('[NOT_CONFIGURED]');
    const db = new Database(join(dataDir, 'station.db'), { readonly: true });
    const names = (db.prepare('SELECT name FROM printers').all() as { name: string }[]).map((row) => row.name);
    db.close();
    expect(names).not.toContain('Bench PDF');
  });

  it('a 16-label bundle run killed with taskkill /F and resumed: no label printed twice', async () => {
    ok(await windows.cli(['printers', 'add', 'Bench Net Zebra', '--host', '127.0.0.1', '--port', String(benchZebraPort)]), 'printers add --host');
    const barcodes = () => benchZebra.printed().map((label) => barcodeOfZpl(label.zpl));
    const first = windows.start(['out\\main\\cli.js', 'print-bundles', ...run.bundleIds, '--printer', 'Bench Net Zebra'], { label: 'print-bundles-killed' });
    await waitUntil(() => benchZebra.printed().length >= 3 || first.exitCode() !== undefined, 'three labels of the run printed', 120_000, 50);
    const killed = await windows.windowsCommand('taskkill', ['/F', '/IM', 'node.exe']);
    expect(killed.code).toBe(0);
    await first.exited;
    const atKill = benchZebra.printed().length;
    expect(atKill).toBeGreaterThanOrEqual(3);
    expect(atKill).toBeLessThan(run.orders.length);
    benchZebra.setLabelsPerSecond(50);

    const resumed = ok(await windows.cli(['print-bundles', '--resume']), 'print-bundles --resume');
    expect(resumed.stdout + resumed.stderr).not.toMatch(/no unfinished run/i);
    const entries = journal().filter((entry) => run.orders.some((order) => order.orderId === entry.orderId));
    const uncertain = new Set(entries.filter((entry) => entry.state === 'uncertain').map((entry) => entry.orderId));
    await waitUntil(() => benchZebra.printed().length >= run.orders.length - uncertain.size, 'the rest of the run printed', 60_000, 100);
    const printedBarcodes = barcodes();
    for (const order of run.orders) {
      const times = printedBarcodes.filter((barcode) => barcode === order.barcode).length;
      if (uncertain.has(order.orderId)) expect(times, `${order.orderRef} (uncertain)`).toBeLessThanOrEqual(1);
      else expect(times, order.orderRef).toBe(1);
    }
    // One journal entry per label of the run, whatever the kill cut.
    expect(new Set(entries.map((entry) => entry.orderId)).size).toBe(entries.length);
    expect(entries.length).toBe(run.orders.length);
  });

  it('the web host on Windows serves the screen to Chromium: a scan prints through the spooler', async () => {
    const order = singles[1] as TodaysOrder;
    const host = windows.start(['out\\main\\web.js', '--json'], { label: 'web-host' });
    let browser: Browser | null = null;
    try {
      const match = await host.waitForOutput(/^(\{.*"launchUrl".*\})$/m, 'the web host’s address');
      const { launchUrl } = JSON.parse(match[1] ?? '') as { launchUrl: string };
      browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      // The slowest scanner timing Setup allows (200 ms between keys), so a browser stalled
      // by a loaded machine between two typed keys still reads one scan; scan timing is not what this checks.
      await page.addInitScript({ content: `localStorage.setItem('station.preferences.v1', JSON.stringify({ scanGapMs: 200 }));` });
      await page.goto(launchUrl);
      await page.locator('html[data-scan-ready="true"]').waitFor({ timeout: 60_000 });
      await page.getByTestId('app-info').waitFor({ timeout: 60_000 });
      expect(await page.getByTestId('station-name').textContent()).toBe('Bench W1');
      await page.getByTestId('nav-history').focus();
      await page.keyboard.type(order.orderRef, { delay: 5 });
      await page.keyboard.press('Enter');
      await page.locator('[data-testid="scan-result"][data-state="printed"]').waitFor({ timeout: 60_000 });
      expect(await page.getByTestId('result-order').textContent()).toBe(order.orderRef);
      expect(await page.getByTestId('result-unconfirmed').textContent()).toContain('Sent to the print queue');
      mkdirSync('test-results/screens', { recursive: true });
      await page.screenshot({ path: 'test-results/screens/windows-web-host-scan.png' });
      await waitUntil(() => spoolerZebra.printed().some((label) => barcodeOfZpl(label.zpl) === order.barcode), 'the scanned label at the Zebra', 60_000, 100);
      // The Printers screen lists the Windows printers the spooler has (EnumPrintersW through Wine).
      await page.keyboard.press('F3');
      await page.getByTestId('printer-kind-os-queue-raw').check();
      await page.locator(`[data-testid="printer-queue"] option[value="${cupsQueue}"]`).waitFor({ state: 'attached', timeout: 60_000 });
    } finally {
      await browser?.close();
      await windows.windowsCommand('taskkill', ['/F', '/IM', 'node.exe']);
      await host.exited;
    }
  });

});

function filesUnder(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return entry.isFile() ? [path] : [];
  });
}
