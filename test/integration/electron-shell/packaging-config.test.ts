import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { appId } from '../../../src/main/electron/app-identity';

const projectDir = resolve(import.meta.dirname, '../../..');
const require = createRequire(import.meta.url);
// electron-builder's own loader, schema validation and glob matcher: what `npm run dist` runs.
const builderRequire = createRequire(require.resolve('app-builder-lib/package.json'));
const { getConfig, validateConfiguration } = builderRequire('./out/util/config/config') as {
  getConfig(projectDir: string, configPath: string | null, configFromOptions: null): Promise<Record<string, unknown>>;
  validateConfiguration(config: unknown, logger: unknown): Promise<void>;
};
const { DebugLogger } = builderRequire('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
const { minimatch } = builderRequire('minimatch') as { minimatch(path: string, pattern: string, options: { dot: boolean }): boolean };

type Config = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- electron-builder's config is untyped here
let config: Config;

beforeAll(async () => {
  config = (await getConfig(projectDir, join(projectDir, 'electron-builder.yml'), null)) as Config;
});

const pngSize = (file: string) => {
  const bytes = readFileSync(file);
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
};

const nodeBinaries = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && !entry.isSymbolicLink()) return nodeBinaries(path);
    return entry.name.endsWith('.node') ? [path] : [];
  });

describe('electron-builder.yml', () => {
  it("passes electron-builder's own schema validation", async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('names the app as the shell does', () => {
    const pkg = JSON.parse(readFileSync(join(projectDir, 'package.json'), 'utf8')) as { productName: string; main: string };
    expect(config.appId).toBe(appId);
    expect(config.productName).toBe(pkg.productName);
    const files = (config.files as { filter: string[] }[]).flatMap((entry) => entry.filter);
    expect(files).toContain('out/**');
    expect(minimatch(pkg.main, 'out/**', { dot: true })).toBe(true);
  });

  it('flips the fuses: no run-as-node, NODE_OPTIONS or inspect; encrypted cookies; app only from an integrity-checked asar', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      loadBrowserProcessSpecificV8Snapshot: false,
      grantFileProtocolExtraPrivileges: false,
    });
    expect(config.asar).toBe(true);
  });

  it('builds an NSIS installer that offers a per-machine install, a hardened-runtime dmg (and the zip macOS updates use), an AppImage and a deb', () => {
    expect(config.win.target.map((target: { target: string }) => target.target)).toEqual(['nsis']);
    expect(config.nsis).toMatchObject({ oneClick: false, perMachine: false, selectPerMachineByDefault: true, allowElevation: true });
    expect(config.mac.target.map((target: { target: string }) => target.target)).toEqual(['dmg', 'zip']);
    expect(config.mac).toMatchObject({ hardenedRuntime: true, entitlements: 'resources/entitlements.mac.plist' });
    expect(config.linux.target.map((target: { target: string }) => target.target)).toEqual(['AppImage', 'deb']);
    expect(config.deb.depends).toContain('libsecret-1-0');
  });

  it('unpacks every native module binary installed here, and the packages that load them, from the asar', () => {
    const unpacked = (path: string) => (config.asarUnpack as string[]).some((pattern) => minimatch(path, pattern, { dot: true }));
    const binaries = nodeBinaries(join(projectDir, 'node_modules')).map((file) => relative(projectDir, file).split('\\').join('/'));
    for (const name of ['@libsql/', '@napi-rs/keyring', '@napi-rs/canvas', '@node-usb/', '@koromix/']) {
      expect(binaries.some((file) => file.startsWith(`node_modules/${name}`)), `${name} has a binary here`).toBe(true);
    }
    for (const file of binaries) expect(unpacked(file), file).toBe(true);
    for (const loader of ['libsql', '@napi-rs/keyring', '@napi-rs/canvas', 'usb', 'koffi']) {
      expect(unpacked(`node_modules/${loader}/package.json`), loader).toBe(true);
    }
    expect(config.npmRebuild).toBe(false);
  });

  it('has the icons electron-builder derives every platform icon from', () => {
    const main = pngSize(join(projectDir, 'resources/icon.png'));
    expect(main.width).toBeGreaterThanOrEqual(512);
    expect(main.height).toBe(main.width);
    const linux = readdirSync(join(projectDir, config.linux.icon as string));
    expect(linux).toContain('256x256.png');
    for (const name of linux) {
      const size = Number(name.split('x')[0]);
      expect(pngSize(join(projectDir, config.linux.icon as string, name)), name).toEqual({ width: size, height: size });
    }
  });

  it('gives the hardened runtime only the JIT entitlement', () => {
    const entitlements = readFileSync(join(projectDir, 'resources/entitlements.mac.plist'), 'utf8');
    expect(entitlements).toContain('com.apple.security.cs.allow-jit');
    expect(entitlements).not.toContain('disable-library-validation');
    expect(entitlements).not.toContain('allow-dyld-environment-variables');
    expect(existsSync(join(projectDir, 'resources/icon.svg')) && statSync(join(projectDir, 'resources/icon.svg')).size > 0).toBe(true);
  });
});
