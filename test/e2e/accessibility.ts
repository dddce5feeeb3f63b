/**
 * The screens' accessibility as axe-core checks it (its Playwright integration): the WCAG 2.0 and
 * 2.1 A and AA rules, over the page as it stands, an open dialog included. What fails a test:
 * every serious or critical violation, and every text whose colour contrast axe could not decide.
 *
 * Axe reads the colours behind a text from what is drawn at its place, so it cannot decide for
 * text scrolled out of view inside a scroll area (History's rows, the scan screen's side column):
 * it calls that "needs review". Those texts are checked again with the window made tall enough
 * for every scroll area to show them (the colours do not change with the height). Nor can it for
 * text in a modal dialog: it lays the page out as if the dialog's top layer were not there, so a
 * paragraph's lines seem to lie over different parts of the page behind. Text in an open dialog
 * is measured against the dialog's own solid colours instead (layout-support's contrastOf), to
 * the same thresholds. What is still undecided then, or fails, is a problem — never a person's
 * check left open.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { contrastOf } from './screens/layout-support';

const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const failingImpacts = new Set(['serious', 'critical']);
/** Tall enough for every scroll area of a screen to show all it holds. */
const tallHeight = 8000;

type Result = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

const lines = (result: Result, what: string) => result.nodes.map((node) => `${what} at ${node.target.join(' ')}: ${firstLine(node.failureSummary)}`);

/** One line per element that fails: the rule, its impact, the element and why. */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(wcagTags).analyze();
  const problems = results.violations.filter((violation) => failingImpacts.has(violation.impact ?? '')).flatMap((violation) => lines(violation, `${violation.id} (${violation.impact})`));
  const undecided = results.incomplete.filter((result) => result.id === 'color-contrast' && result.nodes.length > 0);
  if (undecided.length === 0) return problems;

  const size = page.viewportSize();
  if (!size) throw new Error('the page has no viewport size to check contrast at');
  await page.setViewportSize({ width: size.width, height: tallHeight });
  try {
    const targets = undecided.flatMap((result) => result.nodes.map((node) => node.target.join(' ')));
    const again = await new AxeBuilder({ page }).include(targets).withRules(['color-contrast']).analyze();
    problems.push(...again.violations.flatMap((violation) => lines(violation, `color-contrast (${violation.impact})`)));
    for (const result of again.incomplete.filter((each) => each.id === 'color-contrast')) {
      for (const node of result.nodes) {
        const element = page.locator(node.target.join(' ')).first();
        const inDialog = await element.evaluate((found) => found.closest('dialog[open]') !== null);
        if (!inDialog) {
          problems.push(`color-contrast undecided at ${node.target.join(' ')}: ${firstLine(node.failureSummary)}`);
          continue;
        }
        const ratio = await contrastOf(element);
        const needed = await element.evaluate((found) => {
          // In the page: its window's computed style (these tests are typed without the DOM's types).
          const style = (globalThis as unknown as { getComputedStyle(element: unknown): { fontSize: string; fontWeight: string } }).getComputedStyle(found);
          const size = parseFloat(style.fontSize);
          return size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700) ? 3 : 4.5;
        });
        if (ratio < needed) problems.push(`color-contrast in a dialog at ${node.target.join(' ')}: ${ratio.toFixed(2)}:1, needs ${needed}:1`);
      }
    }
  } finally {
    await page.setViewportSize(size);
  }
  return problems;
}

const firstLine = (summary: string | undefined) =>
  (summary ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^Fix (any|all) of the following:$/.test(line))
    .join('; ');
