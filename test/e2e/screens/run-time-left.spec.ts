/**
 * A run's time left (issue 39, item 17), in English and Dutch at 1024×768: on the sandbox's
 * virtual Zebra, which prints a label a second as a real one does, the estimate shown early in the
 * run follows the printer's measured pace (the labels it says it printed), not the pace labels
 * leave the station for its buffer: the run then takes about as long as it said.
 */
import { expect, test } from './bench-fixture';
import { chooseLanguageBeforeStart } from './layout-support';
import { openStation } from './station-page';

test.use({ viewport: { width: 1024, height: 768 } });

/** Seconds in "about 1 min 05 s left" / "nog ongeveer 38 s". */
function secondsIn(text: string): number {
  const minutes = /(\d+) min/.exec(text);
  const seconds = /(\d+) s\b/.exec(text);
  return (minutes ? Number(minutes[1]) * 60 : 0) + (seconds ? Number(seconds[1]) : 0);
}

for (const language of ['en', 'nl'] as const) {
  test(`in "${language}": the time left early in a run is about the time the run then takes`, async ({ page, webHost, sandboxOrders }) => {
    test.setTimeout(120_000);
    await chooseLanguageBeforeStart(page, language);
    await openStation(page, webHost);
    // Today's two biggest bundles of drafts: some seventeen labels, as many seconds on the sandbox's printer.
    const drafts = new Map<string, number>();
    for (const order of sandboxOrders) if (order.status === 'draft') drafts.set(order.bundleId, (drafts.get(order.bundleId) ?? 0) + 1);
    const biggest = [...drafts].sort(([a, sizeA], [b, sizeB]) => sizeB - sizeA || a.localeCompare(b)).slice(0, 2);
    const labels = biggest.reduce((sum, [, size]) => sum + size, 0);
    expect(labels).toBeGreaterThanOrEqual(12);
    await page.keyboard.press('F2');
    for (const [bundleId] of biggest) await page.getByTestId(`bundle-${bundleId}`).locator('input').check({ timeout: 20_000 });
    await page.getByTestId('run-start').click();

    const left = page.getByTestId('run-time-left');
    await expect(left).toBeVisible({ timeout: 30_000 });
    const said = secondsIn((await left.textContent()) ?? '');
    const saidAt = Date.now();
    await expect(page.getByTestId('run-panel')).toHaveAttribute('data-state', 'finished', { timeout: 90_000 });
    const took = (Date.now() - saidAt) / 1000;
    // Early in the run, with most labels still to come out of the printer.
    expect(took).toBeGreaterThan(labels / 2);
    expect(said, `said ${said} s, took ${took.toFixed(1)} s`).toBeGreaterThanOrEqual(took * 0.6);
    expect(said, `said ${said} s, took ${took.toFixed(1)} s`).toBeLessThanOrEqual(took * 1.5 + 2);
  });
}
