import { describe, expect, it } from 'vitest';
import { isAllowedExternalUrl } from '../../../src/main/electron/external-links';
import { hardenWebContents, type HardenableWebContents } from '../../../src/main/electron/web-contents-hardening';
import { FakeEvent, FakeWebContents, memoryLogger } from './fakes';

function hardened(allowedHosts: string[] = ['track.example.com']) {
  const contents = new FakeWebContents();
  const opened: string[] = [];
  const { logger, lines } = memoryLogger();
  hardenWebContents(contents as unknown as HardenableWebContents, { allowedHosts, openExternal: (url) => opened.push(url) }, logger);
  return { contents, opened, lines };
}

describe('navigation and new windows', () => {
  it('prevents every navigation of the page, to the app or elsewhere', () => {
    const { contents, opened } = hardened();
    for (const url of ['https://evil.example.net/', 'app://station/other.html', 'file:///etc/passwd', 'javascript:alert(1)']) {
      const event = new FakeEvent();
      contents.emit('will-navigate', event, url);
      expect(event.defaultPrevented, url).toBe(true);
    }
    expect(opened).toEqual([]);
  });

  it('sends a navigation to an allowed https host to the system browser instead', () => {
    const { contents, opened } = hardened();
    const event = new FakeEvent();
    contents.emit('will-navigate', event, 'https://track.example.com/p/123');
    expect(event.defaultPrevented).toBe(true);
    expect(opened).toEqual(['https://track.example.com/p/123']);
  });

  it('denies every new window and opens only allowed links outside', () => {
    const { contents, opened, lines } = hardened();
    expect(contents.windowOpenHandler?.({ url: 'https://evil.example.net/' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler?.({ url: 'https://track.example.com/p/1' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler?.({ url: 'app://station/index.html' })).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://track.example.com/p/1']);
    expect(lines.join('\n')).toContain('new window refused');
  });

  it('refuses frame navigations and redirects that leave the app, and every webview', () => {
    const { contents } = hardened();
    const frame = new FakeEvent('https://evil.example.net/');
    contents.emit('will-frame-navigate', frame);
    expect(frame.defaultPrevented).toBe(true);
    const ownFrame = new FakeEvent('app://station/index.html');
    contents.emit('will-frame-navigate', ownFrame);
    expect(ownFrame.defaultPrevented).toBe(false);
    const redirect = new FakeEvent();
    contents.emit('will-redirect', redirect, 'https://evil.example.net/');
    expect(redirect.defaultPrevented).toBe(true);
    const webview = new FakeEvent();
    contents.emit('will-attach-webview', webview, {}, { src: 'app://station/index.html' });
    expect(webview.defaultPrevented).toBe(true);
  });

  it('picks no Bluetooth device for the page', () => {
    const { contents } = hardened();
    const event = new FakeEvent();
    const chosen: string[] = [];
    contents.emit('select-bluetooth-device', event, [{ deviceId: 'printer-1' }], (id: string) => chosen.push(id));
    expect(event.defaultPrevented).toBe(true);
    expect(chosen).toEqual(['']);
  });
});

describe('the external link allow-list', () => {
  const hosts = ['track.example.com', '*.carrier.example'];

  it('accepts https links to listed hosts and their listed subdomains only', () => {
    expect(isAllowedExternalUrl('https://track.example.com/x', hosts)).toBe(true);
    expect(isAllowedExternalUrl('https://TRACK.example.com/x', hosts)).toBe(true);
    expect(isAllowedExternalUrl('https://eu.carrier.example/t/1', hosts)).toBe(true);
    expect(isAllowedExternalUrl('https://carrier.example/', hosts)).toBe(false);
    expect(isAllowedExternalUrl('https://track.example.com.evil.net/', hosts)).toBe(false);
    expect(isAllowedExternalUrl('https://eviltrack.example.com/', hosts)).toBe(false);
    expect(isAllowedExternalUrl('https://xcarrier.example/', hosts)).toBe(false);
  });

  it('refuses other schemes, credentials in the URL and garbage', () => {
    expect(isAllowedExternalUrl('http://track.example.com/', hosts)).toBe(false);
    expect(isAllowedExternalUrl('file:///C:/Windows/System32/calc.exe', hosts)).toBe(false);
    expect(isAllowedExternalUrl('smb://track.example.com/share', hosts)).toBe(false);
    expect(isAllowedExternalUrl('https://user:pw@track.example.com/', hosts)).toBe(false);
    expect(isAllowedExternalUrl('not a url', hosts)).toBe(false);
    expect(isAllowedExternalUrl('https://track.example.com/', [])).toBe(false);
  });
});
