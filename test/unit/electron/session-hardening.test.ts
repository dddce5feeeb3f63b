import { describe, expect, it } from 'vitest';
import { hardenSession, isAllowedRequestUrl, type HardenableSession } from '../../../src/main/electron/session-hardening';
import { FakeEvent, memoryLogger } from './fakes';

// Every permission name Electron 45's Session handlers can be asked about.
const permissions = [
  'ar', 'automatic-fullscreen', 'background-fetch', 'background-sync', 'captured-surface-control', 'clipboard-read',
  'clipboard-sanitized-write', 'deprecated-sync-clipboard-read', 'display-capture', 'fileSystem', 'fullscreen', 'geolocation',
  'geolocation-approximate', 'hand-tracking', 'hid', 'idle-detection', 'keyboardLock', 'local-fonts', 'local-network',
  'local-network-access', 'loopback-network', 'media', 'mediaKeySystem', 'midi', 'midiSysex', 'nfc', 'notifications',
  'openExternal', 'payment-handler', 'periodic-background-sync', 'persistent-storage', 'pointerLock', 'screen-wake-lock',
  'sensors', 'serial', 'smart-card', 'speaker-selection', 'storage-access', 'system-wake-lock', 'top-level-storage-access',
  'usb', 'vr', 'web-app-installation', 'web-printing', 'window-management', 'unknown',
];

type Handler = (...args: never[]) => unknown;

class FakeSession {
  handlers: Record<string, Handler | null> = {};
  listeners: Record<string, Handler> = {};
  spellChecker: boolean | null = null;
  beforeRequest: Handler | null = null;
  setPermissionRequestHandler(handler: Handler | null) {
    this.handlers.request = handler;
  }
  setPermissionCheckHandler(handler: Handler | null) {
    this.handlers.check = handler;
  }
  setDevicePermissionHandler(handler: Handler | null) {
    this.handlers.device = handler;
  }
  setDisplayMediaRequestHandler(handler: Handler | null) {
    this.handlers.displayMedia = handler;
  }
  setSpellCheckerEnabled(enabled: boolean) {
    this.spellChecker = enabled;
  }
  on(event: string, listener: Handler) {
    this.listeners[event] = listener;
    return this;
  }
  webRequest = {
    onBeforeRequest: (listener: Handler) => {
      this.beforeRequest = listener;
    },
  };
}

function hardened() {
  const session = new FakeSession();
  const { logger, lines } = memoryLogger();
  hardenSession(session as unknown as HardenableSession, logger);
  return { session, lines };
}

const call = (handler: Handler | null | undefined, ...args: unknown[]) => (handler as unknown as (...a: unknown[]) => unknown)(...args);
const contents = { getURL: () => 'app://station/index.html' };

describe('the hardened session', () => {
  it('denies every permission request', () => {
    const { session } = hardened();
    for (const permission of permissions) {
      const answers: boolean[] = [];
      call(session.handlers.request, contents, permission, (granted: boolean) => answers.push(granted), {});
      expect(answers, permission).toEqual([false]);
    }
  });

  it('answers every permission check with no, even from the app itself', () => {
    const { session } = hardened();
    for (const permission of permissions) {
      expect(call(session.handlers.check, contents, permission, 'app://station', {}), permission).toBe(false);
    }
  });

  it('grants no device (USB, HID, serial) and no screen capture to the page', () => {
    const { session } = hardened();
    for (const deviceType of ['usb', 'hid', 'serial']) {
      expect(call(session.handlers.device, { deviceType, origin: 'app://station', device: {} })).toBe(false);
    }
    const streams: unknown[] = [];
    call(session.handlers.displayMedia, {}, (value: unknown) => streams.push(value));
    expect(streams).toEqual([null]);
  });

  it('turns the spellchecker off and cancels downloads', () => {
    const { session, lines } = hardened();
    expect(session.spellChecker).toBe(false);
    const event = new FakeEvent();
    call(session.listeners['will-download'], event, { getURL: () => 'https://example.com/x.exe' });
    expect(event.defaultPrevented).toBe(true);
    expect(lines.join('\n')).toContain('download refused');
  });

  it('cancels every request that would leave the app and lets the app load its own files', () => {
    const { session } = hardened();
    const verdict = (url: string) => {
      const answers: { cancel: boolean }[] = [];
      call(session.beforeRequest, { url, resourceType: 'script' }, (response: { cancel: boolean }) => answers.push(response));
      return answers[0]?.cancel;
    };
    expect(verdict('app://station/assets/index.js')).toBe(false);
    expect(verdict('data:image/png;base64,AAAA')).toBe(false);
    expect(verdict('blob:app://station/1234')).toBe(false);
    for (const url of ['https://example.com/x.js', 'http://127.0.0.1:9100/', 'file:///etc/passwd', 'ws://127.0.0.1:1/', 'ftp://x/', 'not a url']) {
      expect(verdict(url), url).toBe(true);
    }
    expect(isAllowedRequestUrl('chrome://settings')).toBe(false);
  });
});
