/**
 * The renderer's Content-Security-Policy: only the app's own scripts (plus WebAssembly for the
 * offline label preview), no inline script, no plugins, no framing, no form posts, and network
 * access only to the host's own socket.
 */
export function contentSecurityPolicy(options: { connectSources?: string[] } = {}): string {
  return [
    "default-src 'none'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "worker-src 'self' blob:",
    `connect-src 'self'${options.connectSources?.length ? ` ${options.connectSources.join(' ')}` : ''}`,
    "media-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
