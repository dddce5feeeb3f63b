import type { HandlersOf } from '../contract/dispatcher';
import type { KeyService } from '../keys/key-service';
import type { keysCalls } from '../../shared/contract/keys';

export function keysHandlers(keys: KeyService): HandlersOf<typeof keysCalls> {
  return {
    'keys.status': () => keys.status(),
    'keys.set': ({ environment, key, verify }) => keys.set(environment, key, { verify: verify === true }),
    'keys.verify': ({ environment }) => keys.verify(environment),
    'keys.remove': ({ environment }) => keys.remove(environment),
  };
}
