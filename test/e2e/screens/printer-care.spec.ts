/**
 * A lead looks after the bench's Zebra on the Printers screen at 1024×768, in English and in
 * Dutch: its settings read from the printer, darkness and speed changed (only those, shown before
 * → after, the printer's own values changed and kept only when saved), calibration, the
 * configuration label, printhead care; a roll shorter than the A6 label named at add, on the card
 * and before a shift-start run (which starts only when the lead says so), a printhead fault named,
 * and the settings refused while a run holds the printer.
 */
import type { Page } from '@playwright/test';
import type { VirtualZebra } from '../../../src/sandbox/printer/virtual-zebra';
import { addVirtualZebra, expect, test } from './bench-fixture';
import { chooseLanguageBeforeStart } from './layout-support';
import { openStation, screenshotDir, smallTargets } from './station-page';

test.use({ viewport: { width: 1024, height: 768 } });

const card = (page: Page, name: string) => page.locator('[data-testid^="printer-card-"]', { has: page.getByRole('heading', { name, exact: true }) });
/** The Bench Zebra's printer id, read from its card. */
async function benchZebraId(page: Page): Promise<string> {
  const testId = await card(page, 'Bench Zebra').getAttribute('data-testid');
  if (!testId) throw new Error('no Bench Zebra card');
  return testId.slice('printer-card-'.length);
}
const received = (zebra: VirtualZebra): string => zebra.received().map((connection) => connection.bytes.toString('latin1')).join('');

async function signIn(page: Page, name: string): Promise<void> {
  await page.getByTestId('operator-name').fill(name);
  await page.getByTestId('operator-sign-in').click();
  await expect(page.getByTestId('operator-prompt')).toHaveCount(0);
}

async function fitsTheScreen(page: Page): Promise<void> {
  expect(await smallTargets(page)).toEqual([]);
  expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
  expect(await page.evaluate("document.getElementById('main').scrollWidth <= document.getElementById('main').clientWidth")).toBe(true);
}

/** What the lead reads and presses, in each language. */
const words = {
  en: {
    open: 'Printer settings and care',
    width: '832 dots (104 mm)',
    length: '1184 dots (148 mm)',
    sinceCleaned: '3,000 in, about 505 A6 labels',
    wear: '120,000 in (3,048 m of labels)',
    cleanNow: 'Time to clean the printhead.',
    change: 'Change on the printer',
    changedBy: /Changed by Anna de Vries at \d\d:\d\d, as the printer now reports:/,
    darkness: 'Darkness: 15 → 22',
    speed: 'Print speed: 4 in/s → 3 in/s',
    notSaved: 'Not saved: the printer goes back to its saved settings when switched off.',
    saved: 'Saved: the printer starts with these settings when switched on.',
    history: /Anna de Vries on Packing bench: Darkness: 22 → 24 \(saved\)/,
    calibrating: 'Calibrating: the printer feeds a few blank labels and measures them…',
    calibrated: /Calibrated in \d+(\.\d)? s\. Label length 1184 dots \(148 mm\) → 1184 dots \(148 mm\)\.$/,
    configSent: 'The printer is printing its configuration label.',
    cleaned: 'I cleaned the printhead',
    cleanedDone: 'Noted: the printhead’s cleaning counter starts again.',
    sinceCleanedAfter: '0 in, about 0 A6 labels',
  },
  nl: {
    open: 'Printerinstellingen en onderhoud',
    width: '832 punten (104 mm)',
    length: '1184 punten (148 mm)',
    sinceCleaned: '3.000 inch, ongeveer 505 A6-etiketten',
    wear: '120.000 inch (3.048 m etiketten)',
    cleanNow: 'Tijd om de printkop te reinigen.',
    change: 'Wijzigen op de printer',
    changedBy: /Gewijzigd door Anna de Vries om \d\d:\d\d, zoals de printer nu doorgeeft:/,
    darkness: 'Donkerte: 15 → 22',
    speed: 'Printsnelheid: 4 inch/s → 3 inch/s',
    notSaved: 'Niet opgeslagen: de printer gaat terug naar zijn opgeslagen instellingen als hij uit wordt gezet.',
    saved: 'Opgeslagen: de printer start met deze instellingen als hij aan wordt gezet.',
    history: /Anna de Vries op Packing bench: Donkerte: 22 → 24 \(opgeslagen\)/,
    calibrating: 'Bezig met kalibreren: de printer voert een paar lege etiketten door en meet ze…',
    calibrated: /Gekalibreerd in \d+(\.\d)? s\. Labellengte 1184 punten \(148 mm\) → 1184 punten \(148 mm\)\.$/,
    configSent: 'De printer print zijn configuratielabel.',
    cleaned: 'Ik heb de printkop gereinigd',
    cleanedDone: 'Genoteerd: de reinigingsteller van de printkop begint opnieuw.',
    sinceCleanedAfter: '0 inch, ongeveer 0 A6-etiketten',
  },
} as const;

test.describe('a Zebra due for a printhead cleaning', () => {
  // Slow enough that the calibration's progress can be seen: two blank labels take a second.
  test.use({ zebraOptions: { labelsPerSecond: 2, headCleanInchesStart: 3000, headNewInchesStart: 120_000 } });

  for (const language of ['en', 'nl'] as const) {
    test(`${language}: the lead reads the settings, changes darkness and speed, saves on purpose, calibrates, prints the configuration label and notes the printhead cleaned`, async ({ page, webHost, zebra }) => {
      test.setTimeout(90_000);
      const say = words[language];
      await chooseLanguageBeforeStart(page, language);
      await openStation(page, webHost);
      await signIn(page, 'Anna de Vries');
      await addVirtualZebra(page, zebra, 'Bench Zebra', { anyLanguage: true });
      const id = await benchZebraId(page);

      // Closed, the card is as before; open, the settings as the printer reports them.
      await expect(page.getByTestId(`printer-settings-panel-${id}`)).toHaveCount(0);
      await card(page, 'Bench Zebra').getByRole('button', { name: say.open }).click();
      await expect(page.getByTestId(`printer-darkness-${id}`)).toHaveValue('15', { timeout: 20_000 });
      await expect(page.getByTestId(`printer-speed-${id}`)).toHaveValue('4');
      await expect(page.getByTestId(`printer-media-type-${id}`)).toHaveValue('transfer');
      await expect(page.getByTestId(`printer-tracking-${id}`)).toHaveValue('gap');
      await expect(page.getByTestId(`printer-reprint-${id}`)).toHaveValue('on');
      await expect(page.getByTestId(`printer-print-width-${id}`)).toHaveText(say.width);
      await expect(page.getByTestId(`printer-label-length-${id}`)).toHaveText(say.length);
      await expect(page.getByTestId(`printhead-since-cleaned-${id}`)).toHaveText(say.sinceCleaned);
      await expect(page.getByTestId(`printhead-wear-${id}`)).toHaveText(say.wear);
      await expect(page.getByTestId(`printhead-clean-now-${id}`)).toContainText(say.cleanNow);
      await fitsTheScreen(page);
      await page.screenshot({ path: `${screenshotDir}/printer-settings-${language}-1024x768.png` });

      // Darkness and speed only: before → after as the printer reports it, not saved.
      const change = card(page, 'Bench Zebra').getByRole('button', { name: say.change });
      await expect(change).toBeDisabled();
      await page.getByTestId(`printer-darkness-${id}`).selectOption('22');
      await page.getByTestId(`printer-speed-${id}`).selectOption('3');
      await change.click();
      const changed = page.getByTestId(`printer-settings-changed-${id}`);
      await expect(changed.locator('p').first()).toHaveText(say.changedBy, { timeout: 20_000 });
      await expect(changed.locator('li')).toHaveText([say.darkness, say.speed]);
      await expect(changed).toContainText(say.notSaved);
      expect(zebra.state().settings).toMatchObject({ darkness: 22, speedIps: 3, printMethod: 'thermal transfer', mediaTracking: 'gap' });
      expect(zebra.state().savedSettings).toMatchObject({ darkness: 15, speedIps: 4 });
      expect(received(zebra)).toContain('~SD22');
      expect(received(zebra)).toContain('^XA^PR3^XZ');
      expect(received(zebra)).not.toMatch(/\^MT|\^MN|\^JZ|\^JUS/);

      // Saved only when ticked.
      await page.getByTestId(`printer-darkness-${id}`).selectOption('24');
      await page.getByTestId(`printer-settings-save-${id}`).check();
      await change.click();
      await expect(changed).toContainText(say.saved, { timeout: 20_000 });
      expect(zebra.state().savedSettings.darkness).toBe(24);
      expect(zebra.configurationCommands().map((command) => command.command)).toEqual(['^JUS']);
      await expect(page.getByTestId(`printer-settings-history-${id}`)).toContainText(say.history);

      // Calibration: its progress while the printer feeds, then what it measured.
      await page.getByTestId(`printer-calibrate-${id}`).click();
      await expect(page.getByTestId(`printer-calibrating-${id}`)).toHaveText(say.calibrating);
      await expect(page.getByTestId(`printer-calibrated-${id}`)).toHaveText(say.calibrated, { timeout: 30_000 });
      expect(received(zebra)).toContain('~JC');

      // The configuration label comes out of the printer.
      await page.getByTestId(`printer-config-label-${id}`).click();
      await expect(page.getByTestId(`printer-config-label-sent-${id}`)).toHaveText(say.configSent, { timeout: 20_000 });
      const [configuration] = await zebra.waitForLabels(1, 20_000);
      expect(configuration?.zpl).toContain('PRINT SPEED');
      expect(configuration?.zpl).toContain('DARKNESS');

      // Cleaned: the printer's counter starts again, and the reminder goes.
      await card(page, 'Bench Zebra').getByRole('button', { name: say.cleaned }).click();
      await expect(page.getByTestId(`printhead-cleaned-done-${id}`)).toHaveText(say.cleanedDone, { timeout: 20_000 });
      await expect(page.getByTestId(`printhead-since-cleaned-${id}`)).toHaveText(say.sinceCleanedAfter);
      await expect(page.getByTestId(`printhead-clean-now-${id}`)).toHaveCount(0);
      expect(zebra.state().mediaInches.sinceHeadCleaned).toBe(0);
      expect(received(zebra)).toContain('setvar "odometer.headclean" "0"');
    });
  }
});

const shortRollWords = {
  en: {
    atAdd: 'The labels on this roll are 100 mm long; the A6 label needs 148 mm, so each label would run over two.',
    onCard: 'This roll is shorter than the A6 label: its labels are 100 mm long and the label needs 148 mm, so each label would run over two. Load A6 labels (105 × 148 mm) and calibrate.',
    headCold: 'Printhead too cold: labels may print light until it warms up.',
    refusedTitle: 'The roll in Bench Zebra does not fit the label',
    startAnyway: 'Start the run anyway on this roll',
    open: 'Printer settings and care',
    inUseTitle: 'This printer is printing now',
    inUseRun: /^Print run \S+ is using it\.$/,
  },
  nl: {
    atAdd: 'De etiketten op deze rol zijn 100 mm lang; het A6-etiket heeft 148 mm nodig, dus elk etiket loopt over twee etiketten.',
    onCard: 'Deze rol is korter dan het A6-etiket: de etiketten zijn 100 mm lang en het etiket heeft 148 mm nodig, dus elk etiket loopt over twee etiketten. Plaats A6-etiketten (105 × 148 mm) en kalibreer.',
    headCold: 'Printkop te koud: etiketten kunnen licht printen tot hij warm is.',
    refusedTitle: 'De rol in Bench Zebra past niet bij het etiket',
    startAnyway: 'De run toch starten op deze rol',
    open: 'Printerinstellingen en onderhoud',
    inUseTitle: 'Deze printer is nu aan het printen',
    inUseRun: /^Printrun \S+ gebruikt hem\.$/,
  },
} as const;

test.describe('a Zebra holding a 100 × 100 mm roll', () => {
  test.use({ zebraOptions: { labelLengthDots: 800 } });

  for (const language of ['en', 'nl'] as const) {
    test(`${language}: the short roll is named at add, on the card and before a shift-start run, a cold printhead is named, and settings wait for the run`, async ({ page, webHost, zebra }) => {
      test.setTimeout(120_000);
      const say = shortRollWords[language];
      await chooseLanguageBeforeStart(page, language);
      await openStation(page, webHost);
      await addVirtualZebra(page, zebra, 'Bench Zebra', { anyLanguage: true });
      const id = await benchZebraId(page);

      // At add, and on the card from then on.
      await expect(page.getByTestId('add-printer').getByTestId('printer-check')).toContainText(say.atAdd);
      await expect(page.getByTestId(`printer-roll-warning-${id}`)).toHaveText(say.onCard, { timeout: 20_000 });
      await expect(page.getByTestId(`printer-head-fault-${id}`)).toHaveCount(0);

      // A printhead fault is named on the card the next time the screen asks the printer.
      await zebra.setFaults({ headTooCold: true });
      await page.keyboard.press('F1');
      await page.keyboard.press('F3');
      await expect(page.getByTestId(`printer-head-fault-${id}`)).toHaveText(say.headCold, { timeout: 20_000 });
      await expect(page.getByTestId(`printer-roll-warning-${id}`)).toHaveText(say.onCard);
      await fitsTheScreen(page);

      // Before the run: refused with what is wrong, until the lead starts it anyway.
      await page.keyboard.press('F2');
      await page.getByTestId('bundle-choices').locator('input').first().check({ timeout: 20_000 });
      await page.getByTestId('run-start').click();
      await expect(page.getByTestId('run-error-title')).toHaveText(say.refusedTitle, { timeout: 20_000 });
      await expect(page.getByTestId('run-roll-refused')).toContainText(say.onCard);
      expect(zebra.stats().formatsReceived, 'nothing was printed').toBe(0);
      await zebra.setPaused(true);
      await page.getByRole('button', { name: say.startAnyway }).click();
      await expect(page.getByTestId('run-panel')).toBeVisible({ timeout: 20_000 });

      // The paused printer holds the run's labels: its settings wait, and the screen says for which run.
      await page.keyboard.press('F3');
      await card(page, 'Bench Zebra').getByRole('button', { name: say.open }).click();
      await expect(page.getByTestId(`printer-settings-error-${id}`)).toContainText(say.inUseTitle, { timeout: 20_000 });
      await expect(page.getByTestId(`printer-in-use-run-${id}`)).toHaveText(say.inUseRun);
      expect(received(zebra)).not.toContain('print.tone');
      await fitsTheScreen(page);
    });
  }
});
