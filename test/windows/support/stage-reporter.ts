/**
 * The Windows stage's own log: one line per check with its result and time, to the console and to
 * test-results/windows-stage.log, and a closing count ("Windows stage: 9 passed, 0 failed").
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Reporter, TestCase, TestModule } from 'vitest/node';

export const stageLogPath = 'test-results/windows-stage.log';

export default class StageReporter implements Reporter {
  private passed = 0;
  private failed = 0;
  private readonly started = Date.now();

  constructor() {
    mkdirSync(dirname(stageLogPath), { recursive: true });
    writeFileSync(stageLogPath, `Windows stage, ${new Date().toISOString()}\n`);
  }

  private say(line: string): void {
    process.stdout.write(`${line}\n`);
    appendFileSync(stageLogPath, `${line}\n`);
  }

  onTestCaseResult(testCase: TestCase): void {
    const result = testCase.result();
    const seconds = ((testCase.diagnostic()?.duration ?? 0) / 1000).toFixed(1);
    if (result.state === 'passed') this.passed += 1;
    else if (result.state === 'failed') this.failed += 1;
    const verdict = result.state === 'passed' ? 'PASS' : result.state === 'failed' ? 'FAIL' : 'SKIP';
    this.say(`[windows] ${verdict}  ${testCase.name}  (${seconds} s)`);
    for (const error of result.errors ?? []) this.say(`          ${(error.message ?? '').split('\n').slice(0, 6).join('\n          ')}`);
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    // A module that failed before any check ran (its setup) counts as a failure too.
    for (const module of testModules) {
      for (const error of module.errors()) {
        this.failed += 1;
        this.say(`[windows] FAIL  setup of ${module.moduleId}: ${(error.message ?? '').split('\n')[0] ?? ''}`);
      }
    }
    this.say(
      'Not covered under Wine (docs/windows.md has the real-PC checklist): Electron’s window, installer and updates; direct USB; a vendor spooler driver; SumatraPDF’s PDF printing; Windows’ own Credential Manager and ACLs; Node 24.',
    );
    this.say(`Windows stage: ${this.passed} passed, ${this.failed} failed (${Math.round((Date.now() - this.started) / 1000)} s of checks; log: ${stageLogPath})`);
  }
}
