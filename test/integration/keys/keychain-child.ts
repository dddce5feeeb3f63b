/**
 * Child process for the refusal test: builds the station with the real OS keychain and tries to
 * store a key through the contract, printing the answers as JSON lines.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { composeStation } from '../../../src/main/composition';
import { createLogger } from '../../../src/main/logging/logger';

const dataDir = mkdtempSync(join(tmpdir(), 'station-keychain-child-'));
const station = await composeStation({ dataDir, host: 'web', version: '0', logger: createLogger(() => undefined), keychainService: 'packing-station-refusal-test' });
try {
  const context = { host: 'web' as const };
  await station.dispatcher.dispatch('settings.set', { apiBaseUrls: { test: 'https://test.delivery.example' } }, context);
  process.stdout.write(`${JSON.stringify(await station.dispatcher.dispatch('keys.set', { environment: 'test', key: 'child-key-0123456789' }, context))}\n`);
  process.stdout.write(`${JSON.stringify(await station.dispatcher.dispatch('keys.status', {}, context))}\n`);
  process.stdout.write(`${JSON.stringify(await station.dispatcher.dispatch('app.info', {}, context))}\n`);
} finally {
  await station.close();
  rmSync(dataDir, { recursive: true, force: true });
}
