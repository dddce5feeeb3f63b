import type { WebPreferences } from 'electron';

/**
 * The station window's webPreferences, every security-relevant one spelled out rather than left
 * to a default that a future Electron might change: the page is sandboxed, isolated from the
 * preload, without Node, with the same-origin policy on, no mixed content, no experimental or
 * extra Blink features, no <webview>, and no spellchecker (it would download dictionaries).
 */
export function secureWebPreferences(preloadPath: string, options: { devTools: boolean }): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    plugins: false,
    enableWebSQL: false,
    spellcheck: false,
    safeDialogs: true,
    // Middle-click (auxclick) would otherwise try to open links in a new window.
    disableBlinkFeatures: 'Auxclick',
    devTools: options.devTools,
  };
}
