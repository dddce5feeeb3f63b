import { describe, expect, it } from 'vitest';
import { StationError } from '../../../src/shared/errors';
import { environmentReadiness } from '../../../src/main/settings/environment-readiness';

const readiness = (address: string | null, key: () => Promise<unknown>) => environmentReadiness({ apiBaseUrl: () => address, readKey: key });

describe('whether an environment is set up to print', () => {
  it('says what is missing: the address, the key or both; the sandbox always is', async () => {
    expect((await readiness(null, async () => null)('test'))?.toData()).toMatchObject({ code: 'NOT_CONFIGURED', facts: { subject: 'key-and-address', environment: 'test' } });
    expect((await readiness(null, async () => ({ key: 'k' }))('live'))?.toData()).toMatchObject({ facts: { subject: 'address', environment: 'live' } });
    expect((await readiness('http://127.0.0.1:9/api', async () => null)('test'))?.toData()).toMatchObject({ facts: { subject: 'key' } });
    expect(await readiness('http://127.0.0.1:9/api', async () => ({ key: 'k' }))('test')).toBeNull();
    expect(await readiness(null, async () => null)('sandbox')).toBeNull();
  });

  it('still names a missing address when the keychain cannot be asked, and the keychain when only it is in doubt', async () => {
    const locked = async () => {
      throw new StationError('KEYCHAIN_UNAVAILABLE', 'no keychain');
    };
    expect((await readiness(null, locked)('test'))?.toData()).toMatchObject({ code: 'NOT_CONFIGURED', facts: { subject: 'address' } });
    expect((await readiness('http://127.0.0.1:9/api', locked)('test'))?.code).toBe('KEYCHAIN_UNAVAILABLE');
  });
});
