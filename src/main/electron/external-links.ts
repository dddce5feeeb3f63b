/**
 * Which links may leave the app for the system browser: https only, no credentials in the URL,
 * and a host on the allow-list (an exact host, or `*.example.com` for its subdomains). Everything
 * else is refused, so a compromised page cannot make the OS open a file, a custom handler or an
 * arbitrary site.
 */
export function isAllowedExternalUrl(url: string, allowedHosts: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' || parsed.username !== '' || parsed.password !== '') return false;
  const host = parsed.hostname.toLowerCase();
  return allowedHosts.some((entry) => {
    const allowed = entry.trim().toLowerCase();
    if (allowed.startsWith('*.')) {
      const suffix = allowed.slice(1);
      return host.endsWith(suffix) && host.length > suffix.length;
    }
    return allowed !== '' && host === allowed;
  });
}
