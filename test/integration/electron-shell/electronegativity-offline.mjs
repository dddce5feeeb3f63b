// Runs Electronegativity (Doyensec's Electron misconfiguration scanner) on one folder and prints
// its findings as JSON. The scan runs offline: the scanner's only HTTP client (got, used for
// translations and Electron's release list) is replaced by one that refuses, and any TCP
// connection to a host other than this machine is refused too, so no test traffic leaves it.
import { createRequire } from 'node:module';
import net from 'node:net';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(...args) {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const options = typeof first === 'object' && first !== null ? first : { port: first, host: args[1] };
  const host = options.host ?? 'localhost';
  if (options.path === undefined && !['localhost', '127.0.0.1', '::1'].includes(host)) {
    process.nextTick(() => this.destroy(new Error(`offline scan: no connection to ${host}`)));
    return this;
  }
  return connect.apply(this, args);
};

const scannerDir = dirname(require.resolve('@doyensec/electronegativity/package.json'));
const scannerRequire = createRequire(join(scannerDir, 'dist', 'runner.js'));
const gotPath = scannerRequire.resolve('got');
const refuse = () => Promise.reject(new Error('offline scan'));
require('node:module')._cache[gotPath] = { id: gotPath, filename: gotPath, loaded: true, exports: refuse, children: [], paths: [] };

const run = scannerRequire('./runner.js');
const input = process.argv[2];
const originalLog = console.log;
console.log = (...parts) => process.stderr.write(`${parts.join(' ')}\n`); // keep stdout for the JSON
const result = await run({
  input,
  isRelative: true,
  electronVersionOverride: process.argv[3] ?? '45.4.1',
  // Needs Electron's release list from the internet; the version is pinned in package.json instead.
  excludeFromScan: ['AvailableSecurityFixesGlobalCheck'],
});
console.log = originalLog;
process.stdout.write(
  JSON.stringify({
    checks: result.globalChecks + result.atomicChecks,
    errors: result.errors.map((error) => ({ file: error.file, message: error.message, tolerable: error.tolerable })),
    issues: result.issues.map((issue) => ({
      id: issue.id,
      severity: issue.severity.name,
      confidence: issue.confidence.name,
      file: issue.file,
      line: issue.location?.line ?? 0,
      sample: String(issue.sample ?? '').slice(0, 160),
    })),
  }),
);
