/**
 * Whether an environment is set up enough to print: the Delivery API's address and a key. Asked
 * when a print finds no printer, so the packer hears the first thing missing (the environment's
 * setup) rather than the last (a printer). The embedded sandbox is always set up.
 */
import type { Environment } from '../../shared/contract/app';
import type { KeyedEnvironment } from '../../shared/contract/settings';
import { StationError } from '../../shared/errors';

export interface EnvironmentReadinessDeps {
  apiBaseUrl(environment: KeyedEnvironment): string | null;
  /** The stored key, or null; may throw KEYCHAIN_UNAVAILABLE. */
  readKey(environment: KeyedEnvironment): Promise<unknown>;
}

/** NOT_CONFIGURED (facts: subject "address", "key" or "key-and-address", environment), or null when set up. */
export function environmentReadiness(deps: EnvironmentReadinessDeps): (environment: Environment) => Promise<StationError | null> {
  return async (environment) => {
    if (environment === 'sandbox') return null;
    const address = deps.apiBaseUrl(environment) !== null;
    let key: boolean;
    try {
      key = (await deps.readKey(environment)) !== null;
    } catch (error) {
      // The keychain cannot be asked: a missing address is still certain, and said first.
      if (!(error instanceof StationError)) throw error;
      if (address) return error;
      key = true;
    }
    if (address && key) return null;
    const subject = !address && !key ? 'key-and-address' : !address ? 'address' : 'key';
    const missing = { 'key-and-address': 'neither a Delivery API address nor an API key', address: 'no Delivery API address', key: 'no API key' }[subject];
    return new StationError('NOT_CONFIGURED', `The ${environment} environment has ${missing} yet. A supervisor enters them in Setup.`, undefined, {
      facts: { subject, environment },
    });
  };
}
