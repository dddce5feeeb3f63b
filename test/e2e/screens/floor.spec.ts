/**
 * The lead's Floor screen with a warehouse behind it: ten bench processes (each a whole station
 * started as the app starts, with its own virtual Zebra) and the lead's own station, served by the
 * web host, all on one PostgreSQL store of this file's own. The lead, at 1024×768, sees every bench
 * with who is signed in; a bench whose Zebra runs out of paper mid-run comes first within 2 s; a
 * filter by fault shows it alone; the lead pauses another bench's run (it stops there, and that
 * bench records who paused it); a second lead acting on the same run first makes the lead's own
 * action be refused with who was first; a bench killed turns "not answering since"; the screen
 * fits in English, Dutch, German and Polish.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { composeStation, type Station } from '../../../src/main/composition';
import { createLogger } from '../../../src/main/logging/logger';
import { PostgresEngine } from '../../../src/main/store/engine/postgres-engine';
import { startWebHost, type RunningWebHost } from '../../../src/main/web-host/server';
import { keptSessionKey } from '../../../src/main/web-host/session-key';
import type { FloorCommandData, FloorListData } from '../../../src/shared/contract/floor';
import type { RunSummaryData } from '../../../src/shared/contract/printing';
import type { RunningSandbox } from '../../../src/sandbox';
import { VirtualZebra } from '../../../src/sandbox/printer';
import { startFleet, seedDraftOrders, type Fleet, type FleetStore } from '../../support/bench-fleet';
import { buildChildScripts, type ChildScripts } from '../../support/child-scripts';
import { ownPostgres } from '../../support/postgres-server';
import { memoryKeyStore } from '../../support/station';
import { bundlesWithLabels, startTestSandbox, stationOrders, type TodaysOrder } from '../../integration/printing-queue/support';
import { expect, test } from '@playwright/test';
import { unfitOnScreen } from './screen-fit';
import { openStation, screenshotDir } from './station-page';

const postgres = ownPostgres(test);
const silentAfterMs = 4_000;
let children: ChildScripts | null = null;

test.beforeAll(async () => {
  // The benches are processes of their own, bundled once for this file (as the integration run does).
  children = await buildChildScripts();
});
test.afterAll(() => children?.remove());

/** The lead's own bench: a station on the same store, started as `npm run web` starts one, served by the web host. */
async function leadStation(store: PostgresEngine, sandbox: RunningSandbox, zebraPort: number): Promise<{ station: Station; host: RunningWebHost; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'station-e2e-lead-'));
  const environment = sandbox.environments.test;
  const station = await composeStation({
    dataDir,
    host: 'web',
    version: '0.0.0-e2e',
    logger: createLogger(() => undefined),
    keyStore: memoryKeyStore({ test: { key: environment.companies[0]?.apiKey ?? '', address: environment.baseUrl } }),
    store,
    floor: { silentAfterMs, reporter: { heartbeatMs: 1_000 } },
  });
  station.settings.setApiBaseUrl('test', environment.baseUrl);
  station.settings.setEnvironment('test');
  station.settings.setStationName('Lead desk');
  await station.start({ webhooks: false });
  // The lead's desk prints too: its own Zebra for scans and runs.
  const added = await station.dispatcher.dispatch(
    'printers.add',
    { name: 'Lead Zebra', address: { kind: 'network-zebra', host: '127.0.0.1', port: zebraPort }, orientation: 'landscape', defaultForSingle: true, defaultForBundles: true, check: false },
    { host: 'web' },
  );
  if (!added.ok) throw new Error(`the lead's printer: ${added.error.code}`);
  const host = await startWebHost({ station, rendererDir: resolve('out/renderer'), port: 0, sessionKey: keptSessionKey(dataDir), handoverDir: join(dataDir, 'handover') });
  return { station, host, dataDir };
}

const row = (page: Page, bench: string) => page.locator(`[data-testid="floor-bench"][data-bench="${bench}"]`);

async function fits(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${screenshotDir}/floor-${name}-1024x768.png` });
  expect(await unfitOnScreen(page), `the Floor screen cut or out of view: ${name}`).toEqual([]);
}

test('the lead sees ten benches live on the Floor screen and acts on them, in four languages at 1024×768', async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1024, height: 768 });
  const { info } = postgres.database();
  let sandbox: RunningSandbox | null = null;
  let fleet: Fleet | null = null;
  let engine: PostgresEngine | null = null;
  let lead: Awaited<ReturnType<typeof leadStation>> | null = null;
  let leadZebra: VirtualZebra | null = null;
  try {
    sandbox = await startTestSandbox({ orders: 400 });
    const orders = (await stationOrders(sandbox)).filter((order: TodaysOrder) => order.zplAvailable && order.status === 'draft');
    const store: FleetStore = { kind: 'postgres', connection: { host: '127.0.0.1', port: info.port, user: info.user, password: info.password, database: info.database } };
    await seedDraftOrders(store, orders);
    fleet = await startFleet({
      benches: 10,
      store,
      baseUrl: sandbox.environments.test.baseUrl,
      apiKey: sandbox.environments.test.companies[0]?.apiKey ?? '',
      zebra: { labelsPerSecond: 100 },
      floor: { silentAfterMs, heartbeatMs: 1_000, printerCheckMs: 1_000 },
    });
    engine = await PostgresEngine.open({ host: '127.0.0.1', port: info.port, user: info.user, password: info.password, database: info.database, tls: 'disable', applicationName: 'lead desk' });
    leadZebra = new VirtualZebra({ labelsPerSecond: 100, name: 'Lead Zebra' });
    lead = await leadStation(engine, sandbox, await leadZebra.start({ host: '127.0.0.1', port: 0 }));
    const used = new Set<string>();
    const startRun = async (bench: number, labels: number): Promise<RunSummaryData> => {
      const { bundleIds } = bundlesWithLabels(orders, labels, used);
      for (const id of bundleIds) used.add(id);
      const answer = await fleet?.call(bench, 'printing.printBundles', { bundleIds, printerId: fleet.benches[bench]?.printerId() });
      if (!answer?.ok) throw new Error(`a run at bench ${bench + 1}: ${answer?.ok === false ? answer.code : 'no answer'}`);
      return answer.value as RunSummaryData;
    };

    await openStation(page, { url: lead.host.url, launchUrl: lead.host.launchUrl, dataDir: lead.dataDir });
    await page.getByTestId('operator-prompt').getByTestId('operator-name').fill('Anna');
    await page.getByTestId('operator-prompt').getByTestId('operator-name').press('Enter');
    await expect(page.getByTestId('operator-prompt')).toHaveCount(0);
    await page.keyboard.press('Alt+6');
    await expect(page.getByTestId('nav-floor')).toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId('nav-floor')).toContainText('Alt+6');

    // Every bench, with who is signed in at each.
    await expect(page.getByTestId('floor-bench')).toHaveCount(11, { timeout: 20_000 });
    for (const bench of fleet.benches) await expect(row(page, bench.name).getByTestId('floor-bench-operator')).toHaveText(`Packer ${bench.index + 1} signed in`);
    await expect(row(page, 'Lead desk')).toContainText('this bench');
    await expect(page.getByTestId('floor-summary')).toHaveText('11 benches · 0 need you');
    await fits(page, 'all-well-en');
    // Eleven printers in the top bar (each bench's and the lead desk's): the lead desk's own chip
    // and one for the other ten, which opens Printers.
    await expect(page.getByTestId('printer-status').locator('.printer-chip')).toHaveCount(2);
    await expect(page.getByTestId('printer-more').locator('.printer-chip-name')).toHaveText('+10 more');
    await page.getByTestId('printer-more').click();
    await expect(page.getByTestId('nav-printers')).toHaveAttribute('aria-current', 'page');
    await page.keyboard.press('Alt+6');

    // Paper out at bench 4, mid-run: first on the floor within 2 s.
    const zebra4 = fleet.benches[3]?.zebra;
    if (!zebra4) throw new Error('no bench 4');
    zebra4.setLabelsPerSecond(5);
    await startRun(3, 40);
    await zebra4.waitForLabels(2, 20_000);
    await expect(row(page, 'Bench 4').getByTestId('floor-run')).toBeVisible();
    const paperOutAt = Date.now();
    await zebra4.setPaperOut(true);
    await expect(row(page, 'Bench 4').getByTestId('floor-bench-state')).toHaveText('Out of labels', { timeout: 2_000 });
    console.log(`floor screen: a paper-out at bench 4 shown after ${Date.now() - paperOutAt} ms`);
    await expect(page.getByTestId('floor-bench').first()).toHaveAttribute('data-bench', 'Bench 4');
    await expect(row(page, 'Bench 4').getByTestId('floor-run-state')).toHaveText('Out of labels');
    await page.getByTestId('floor-filter-fault').selectOption('paper-out');
    await expect(page.getByTestId('floor-bench')).toHaveCount(1);
    await fits(page, 'paper-out-filtered-en');
    await page.getByTestId('floor-filter-fault').selectOption('');
    await expect(page.getByTestId('floor-bench')).toHaveCount(11);

    // The lead pauses bench 6's run from here: it stops there, and bench 6 records who paused it.
    const zebra6 = fleet.benches[5]?.zebra;
    if (!zebra6) throw new Error('no bench 6');
    zebra6.setLabelsPerSecond(8);
    const run6 = await startRun(5, 40);
    await zebra6.waitForLabels(2, 20_000);
    const bench6 = row(page, 'Bench 6');
    await bench6.getByTestId('floor-run-pause').click();
    await expect(page.getByTestId('confirm-dialog')).toContainText('Pause the run at Bench 6?');
    await fits(page, 'confirm-pause-en');
    const confirmedAt = Date.now();
    await page.getByTestId('confirm-yes').click();
    // The answer comes once bench 6 applied it (this machine runs twelve stations and a browser at once).
    await expect(page.getByTestId('floor-action-answer')).toHaveText(/^Paused at Bench 6 \(\d\d:\d\d\)\.$/, { timeout: 20_000 });
    console.log(`floor screen: the pause at bench 6 answered after ${Date.now() - confirmedAt} ms`);
    await expect(bench6.getByTestId('floor-run-state')).toHaveText(/^paused by Anna at Lead desk \(\d\d:\d\d\)$/);
    const runs6 = await fleet.call(5, 'printing.runs', { unfinished: true });
    const atBench6 = runs6.ok ? (runs6.value as { runs: RunSummaryData[] }).runs.find((run) => run.runId === run6.runId) : undefined;
    expect(atBench6?.pauseReason).toMatchObject({ by: 'user', lead: { operator: 'Anna', benchName: 'Lead desk' } });

    // Anna opens Cancel on what she sees; meanwhile the lead at bench 2 resumes that run first.
    await bench6.getByTestId('floor-run-cancel').click();
    await expect(page.getByTestId('confirm-dialog')).toContainText('Cancel the run at Bench 6?');
    const floorAt2 = await fleet.call(1, 'floor.list', {});
    const seen = floorAt2.ok ? (floorAt2.value as FloorListData).benches.find((bench) => bench.stationName === 'Bench 6')?.runs[0]?.lastAction?.commandId : undefined;
    const resumed = await fleet.call(1, 'floor.act', { action: 'resume', benchId: (floorAt2.ok ? (floorAt2.value as FloorListData).benches.find((bench) => bench.stationName === 'Bench 6')?.benchId : '') ?? '', runId: run6.runId, seen });
    expect(resumed.ok ? (resumed.value as FloorCommandData).state : resumed.code).toBe('done');
    await page.getByTestId('confirm-yes').click();
    await expect(page.getByTestId('floor-action-error')).toHaveAttribute('data-code', 'FLOOR_ACTED_FIRST', { timeout: 20_000 });
    await expect(page.getByTestId('floor-action-error-title')).toHaveText(/^Packer 2 at Bench 2 acted on this first \(\d\d:\d\d\)$/);
    await expect(bench6.getByTestId('floor-run-state')).toHaveText('printing');

    // A lead at bench 1 pauses the run this desk started on its own Shift start: this screen says who, from where.
    leadZebra.setLabelsPerSecond(3);
    const { bundleIds } = bundlesWithLabels(orders, 20, used);
    for (const id of bundleIds) used.add(id);
    await page.keyboard.press('F2');
    for (const bundleId of bundleIds) await page.getByTestId(`bundle-${bundleId}`).locator('input').check({ timeout: 20_000 });
    await page.getByTestId('run-start').click();
    await expect(page.getByTestId('run-panel')).toHaveAttribute('data-state', 'running', { timeout: 20_000 });
    await leadZebra.waitForLabels(1, 20_000);
    const floorAt1 = await fleet.call(0, 'floor.list', {});
    const desk = floorAt1.ok ? (floorAt1.value as FloorListData).benches.find((bench) => bench.stationName === 'Lead desk') : undefined;
    const deskRun = desk?.runs[0];
    const pausedHere = await fleet.call(0, 'floor.act', { action: 'pause', benchId: desk?.benchId, runId: deskRun?.runId, seen: deskRun?.lastAction?.commandId ?? 0 });
    expect(pausedHere.ok ? (pausedHere.value as FloorCommandData).state : pausedHere.code).toBe('done');
    await expect(page.getByTestId('run-pause-reason')).toContainText('Paused by Packer 1 at Bench 1');
    await expect(page.getByTestId('notices')).toContainText(`Packer 1 at Bench 1 paused a run of this bench (${deskRun?.runId.slice(0, 8)})`);
    await page.screenshot({ path: `${screenshotDir}/floor-paused-here-1024x768.png` });
    await page.keyboard.press('Alt+6');

    // Bench 9 is killed: "not answering since" once the stated silence has passed, and first.
    const killedAt = Date.now();
    await fleet.kill(8);
    await expect(row(page, 'Bench 9').getByTestId('floor-bench-state')).toHaveText(/^Not answering since \d\d:\d\d$/, { timeout: silentAfterMs + 3_000 });
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(silentAfterMs - 1_000);
    // Its printer as the bench last told it, not as if it were known now.
    await expect(row(page, 'Bench 9').getByTestId('floor-printer')).toHaveText('Bench 9 Zebra: ready when last heard');
    await expect(page.getByTestId('floor-bench').first()).toHaveAttribute('data-bench', 'Bench 9');
    await fits(page, 'faults-en');

    // The same floor in Dutch, German and Polish.
    const words: Record<string, RegExp> = { nl: /^Antwoordt niet sinds \d\d:\d\d$/, de: /^Antwortet seit \d\d:\d\d nicht$/, pl: /^Nie odpowiada od \d\d:\d\d$/ };
    for (const [language, silent] of Object.entries(words)) {
      await page.keyboard.press('F4');
      await page.getByTestId('setting-language').selectOption(language);
      await page.keyboard.press('Alt+6');
      await expect(row(page, 'Bench 9').getByTestId('floor-bench-state')).toHaveText(silent);
      await fits(page, `faults-${language}`);
      // Bench 4's run waits for paper: its Cancel asks first; and the form that sends a run to a bench.
      await row(page, 'Bench 4').getByTestId('floor-run-cancel').click();
      await expect(page.getByTestId('confirm-dialog')).toBeVisible();
      await fits(page, `confirm-cancel-${language}`);
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('confirm-dialog')).toHaveCount(0);
      await row(page, 'Bench 1').getByTestId('floor-send-bundles').click();
      await expect(page.getByTestId('floor-bundle-ids')).toBeVisible();
      await fits(page, `send-bundles-${language}`);
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('confirm-dialog')).toHaveCount(0);
    }
    zebra4.setLabelsPerSecond(100);
    zebra6.setLabelsPerSecond(100);
    leadZebra.setLabelsPerSecond(100);
  } finally {
    await lead?.host.close();
    await lead?.station.close();
    await fleet?.close();
    await engine?.close();
    await sandbox?.close();
    await leadZebra?.stop();
    if (lead) rmSync(lead.dataDir, { recursive: true, force: true });
  }
});
