import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appSchemePrivileges, isAppUrl, resolveAppPath } from '../../../src/main/electron/app-protocol';

const root = resolve('/srv/app/out/renderer');

describe('app:// URLs to files', () => {
  it('maps the app root and its assets into the renderer folder', () => {
    expect(resolveAppPath(root, 'app://station/')).toBe(join(root, 'index.html'));
    expect(resolveAppPath(root, 'app://station/index.html')).toBe(join(root, 'index.html'));
    expect(resolveAppPath(root, 'app://station/assets/index-abc.js?v=1#x')).toBe(join(root, 'assets', 'index-abc.js'));
    expect(resolveAppPath(root, 'app://station/assets/a%20b.png')).toBe(join(root, 'assets', 'a b.png'));
  });

  it('never resolves outside the folder, however the path is spelled', () => {
    for (const url of [
      'app://station/../../etc/passwd',
      'app://station/%2e%2e/%2e%2e/etc/passwd',
      'app://station/assets/%2e%2e%2f%2e%2e%2fetc/passwd',
      'app://station/..%2f..%2fetc%2fpasswd',
      'app://station/..%5c..%5cwindows%5cwin.ini',
      'app://station/assets\\..\\..\\secret',
      'app://station/%00index.html',
      'app://station/%E0%A4%A',
      'app://station/./index.html/../../x',
    ]) {
      const file = resolveAppPath(root, url);
      if (file !== null) expect(file.startsWith(root + '/'), `${url} → ${file}`).toBe(true);
    }
    // The URL parser folds encoded dot segments at the root, so this one stays inside the folder.
    expect(resolveAppPath(root, 'app://station/%2e%2e/%2e%2e/etc/passwd')).toBe(join(root, 'etc', 'passwd'));
    expect(resolveAppPath(root, 'app://station/..%2f..%2fetc%2fpasswd')).toBeNull();
  });

  it('serves nothing for another host or scheme', () => {
    expect(resolveAppPath(root, 'app://other/index.html')).toBeNull();
    expect(resolveAppPath(root, 'file:///srv/app/out/renderer/index.html')).toBeNull();
    expect(resolveAppPath(root, 'https://station/index.html')).toBeNull();
    expect(isAppUrl('app://station:8080/')).toBe(false);
  });

  it('is a standard, secure scheme that bypasses nothing', () => {
    expect(appSchemePrivileges).toEqual({
      standard: true,
      secure: true,
      supportFetchAPI: true,
      codeCache: true,
      bypassCSP: false,
      allowServiceWorkers: false,
      corsEnabled: false,
      stream: false,
    });
  });
});
