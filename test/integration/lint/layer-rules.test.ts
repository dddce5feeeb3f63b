import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const fixture = (name: string) => readFileSync(`test/fixtures/lint/${name}`, 'utf8');

/** Lints a fixture as if it lived at `filePath`, with the project's real configuration. */
async function lintAs(name: string, filePath: string) {
  const eslint = new ESLint();
  const [result] = await eslint.lintText(fixture(name), { filePath });
  return (result?.messages ?? []).map((message) => ({ rule: message.ruleId, severity: message.severity, text: message.message }));
}

describe('layer rules', () => {
  const wrong: [string, string, string][] = [
    ['shared-imports-node.ts', 'src/shared/bad.ts', 'no-restricted-imports'],
    ['shared-imports-main.ts', 'src/shared/bad.ts', 'no-restricted-imports'],
    ['shared-uses-dom.ts', 'src/shared/bad.ts', 'no-restricted-globals'],
    ['renderer-imports-main.ts', 'src/renderer/src/bad.ts', 'no-restricted-imports'],
    ['main-imports-electron.ts', 'src/main/bad.ts', 'no-restricted-imports'],
    ['main-imports-electron.ts', 'src/renderer/src/bad.ts', 'no-restricted-imports'],
    ['main-imports-electron.ts', 'src/sandbox/bad.ts', 'no-restricted-imports'],
    ['sandbox-imports-main.ts', 'src/sandbox/bad.ts', 'no-restricted-imports'],
    ['main-imports-store-engine.ts', 'src/main/printing/bad.ts', 'no-restricted-imports'],
    ['main-imports-store-engine.ts', 'src/main/bad.ts', 'no-restricted-imports'],
    ['main-imports-store-engine.ts', 'src/main/electron/bad.ts', 'no-restricted-imports'],
  ];

  it.each(wrong)('%s placed at %s is an error (%s)', async (name, filePath, rule) => {
    const messages = await lintAs(name, filePath);
    expect(messages.filter((m) => m.rule === rule && m.severity === 2).length).toBeGreaterThan(0);
  });

  it('flags each forbidden import of a file, not just the first', async () => {
    const messages = await lintAs('renderer-imports-main.ts', 'src/renderer/src/bad.ts');
    expect(messages.filter((m) => m.rule === 'no-restricted-imports')).toHaveLength(2);
  });

  it('names the store\'s entry for each file of the store imported past it', async () => {
    const messages = await lintAs('main-imports-store-engine.ts', 'src/main/printing/bad.ts');
    expect(messages.filter((m) => m.rule === 'no-restricted-imports').map((m) => m.text)).toEqual([
      expect.stringContaining('src/main/store/index.ts'),
      expect.stringContaining('src/main/store/index.ts'),
    ]);
  });

  it('lets the store\'s own files import its engines', async () => {
    expect(await lintAs('store-imports-its-engine.ts', 'src/main/store/ok.ts')).toEqual([]);
  });

  it('lets the Electron shell import electron and the rest of src/main', async () => {
    expect(await lintAs('electron-shell-allowed.ts', 'src/main/electron/ok.ts')).toEqual([]);
  });

  it('fails the lint command itself, with a non-zero exit', () => {
    const run = spawnSync('npx', ['eslint', '--stdin', '--stdin-filename', 'src/shared/bad.ts'], {
      input: fixture('shared-imports-node.ts'),
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('This layer runs outside Node');
  });
});
