/**
 * The scan leaves the page first: between the scanner's Enter and the call that prints, the page
 * asks nothing else and changes nothing on screen. Watched on the page's own WebSocket (every call
 * frame it sends, in order) and its DOM (the first change after the Enter, and which calls had left
 * by then), as a packer scans three slips in a row on the embedded sandbox. Before the Enter, the
 * scanner's first keys tell the station once that a scan is coming (printing.prepare). And the
 * outcome is drawn alone: what stands beside it (the cue, the last labels, the where button)
 * changes right after, in drawings of its own.
 */
import { draftOrder, expect, test } from './bench-fixture';
import { openStation, scanLikeAScanner } from './station-page';

/** Installed before the screen's own code: its keydown listener runs before the screen's. */
const probe = `(() => {
  const probe = { afterEnter: false, sends: [], firstChange: null, enters: 0, everyCall: [], workingShown: false };
  window.__scanOrder = probe;
  addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    probe.enters += 1;
    probe.afterEnter = true;
    probe.sends = [];
    probe.firstChange = null;
    probe.workingShown = false;
  }, { capture: true });
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    try {
      const message = JSON.parse(String(data));
      if (message.type === 'call') {
        probe.everyCall.push({ name: message.name, entersBefore: probe.enters });
        if (probe.afterEnter) probe.sends.push({ name: message.name, input: message.input });
      }
    } catch {}
    return send.call(this, data);
  };
  new MutationObserver(() => {
    if (probe.afterEnter && probe.firstChange === null) probe.firstChange = { callsOut: probe.sends.map((call) => call.name) };
    // A scan slower than the screen's patience shows "working" first: a panel of its own.
    if (probe.afterEnter && document.querySelector('[data-testid="scan-result"]')?.getAttribute('data-state') === 'working') probe.workingShown = true;
  }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
})();`;

interface Probe {
  sends: { name: string; input: unknown }[];
  /** Every call the page sent, with how many Enters had been pressed before it. */
  everyCall: { name: string; entersBefore: number }[];
  firstChange: { callsOut: string[] } | null;
  /** Whether the "working" panel came up between the Enter and the outcome (a slow scan on a busy machine). */
  workingShown: boolean;
}

test('the scan’s one call leaves before anything else is asked or drawn, and the outcome follows', async ({ page, webHost, sandboxOrders }) => {
  await page.addInitScript({ content: probe });
  await openStation(page, webHost);
  for (const nth of [0, 1, 2]) {
    const order = draftOrder(sandboxOrders, nth);
    await scanLikeAScanner(page, order.orderRef);
    await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
    await expect(page.getByTestId('result-order')).toHaveText(order.orderRef);
    const samePanel = await page.getByTestId('scan-result').evaluate((panel) => {
      const seen = (panel as unknown as { seenBefore?: boolean }).seenBefore === true;
      (panel as unknown as { seenBefore?: boolean }).seenBefore = true;
      return seen;
    });
    const seen = (await page.evaluate(() => (globalThis as unknown as { __scanOrder: Probe }).__scanOrder)) as Probe;
    // A printed label straight after a printed label is drawn over the same panel, where only its
    // words change; one that showed "working" first (a scan slower than 150 ms) is a panel of its own.
    expect(samePanel).toBe(nth > 0 && !seen.workingShown);
    // The first call after the Enter is the scan itself: no ship check or anything else before it.
    expect(seen.sends[0]).toEqual({ name: 'printing.scan', input: { scan: order.orderRef } });
    expect(seen.sends.map((call) => call.name)).not.toContain('shipping.toShip');
    // The screen's first change after the Enter came once the call was on its way.
    expect(seen.firstChange?.callsOut[0]).toBe('printing.scan');
    // Its keys had told the station a scan was coming, once, before its Enter.
    expect(seen.everyCall.filter((call) => call.name === 'printing.prepare').map((call) => call.entersBefore)).toEqual([0, 1, 2].slice(0, nth + 1));
  }
  await expect(page.getByTestId('recent-0')).toContainText(draftOrder(sandboxOrders, 2).orderRef);
});

/**
 * Notes, at the first change of the DOM that shows the awaited order's outcome, what stands beside
 * it: whether the scanner's "reading…" cue is up, which order the last labels start with, and
 * whether the "Where is it?" button is there.
 */
const besideTheOutcome = `(() => {
  const seen = { awaited: null, atOutcome: null };
  window.__besideTheOutcome = seen;
  new MutationObserver(() => {
    if (seen.awaited === null || seen.atOutcome !== null) return;
    if (document.querySelector('[data-testid="result-order"]')?.textContent !== seen.awaited) return;
    seen.atOutcome = {
      cue: document.querySelector('[data-testid="scan-cue"]') !== null,
      firstRecent: document.querySelector('[data-testid="recent-0"] .recent-ref')?.textContent ?? null,
      where: document.querySelector('[data-testid="scan-where"]') !== null,
    };
  }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
})();`;

interface Beside {
  awaited: string | null;
  atOutcome: { cue: boolean; firstRecent: string | null; where: boolean } | null;
}

test('a scan’s outcome is drawn alone: the reading cue, the last labels and the where button change right after it', async ({ page, webHost, sandboxOrders }) => {
  await page.addInitScript({ content: besideTheOutcome });
  // A scanner's gap of 200 ms: the test looks at the cue between the last key and the Enter.
  await openStation(page, webHost, { scannerGapMs: 200 });
  let before: string | null = null;
  for (const nth of [0, 1]) {
    const order = draftOrder(sandboxOrders, nth);
    await page.evaluate((awaited) => Object.assign((globalThis as unknown as { __besideTheOutcome: Beside }).__besideTheOutcome, { awaited, atOutcome: null }), order.orderRef);
    await page.keyboard.type(order.orderRef, { delay: 5 });
    await expect(page.getByTestId('scan-cue')).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('result-order')).toHaveText(order.orderRef, { timeout: 20_000 });
    const beside = (await page.evaluate(() => (globalThis as unknown as { __besideTheOutcome: Beside }).__besideTheOutcome)) as Beside;
    // When the outcome first shows, what is beside it is still as it was at the Enter…
    expect(beside.atOutcome).toEqual({ cue: true, firstRecent: before, where: nth > 0 });
    // …and it follows at once.
    await expect(page.getByTestId('scan-cue')).toHaveCount(0);
    await expect(page.getByTestId('recent-0')).toContainText(order.orderRef);
    await expect(page.getByTestId('scan-where')).toBeVisible();
    before = order.orderRef;
  }
});
