import type { Handlers } from '../contract/dispatcher';
import type { KeyService } from '../keys/key-service';

export function keysHandlers(keys: KeyService): Pick<Handlers, 'keys.status' | 'keys.set' | 'keys.verify' | 'keys.remove'> {
  return {
    'keys.status': () => keys.status(),
    'keys.set': ({ environment, key, verify }) => keys.set(environment, key, { verify: verify === true }),
    'keys.verify': ({ environment }) => keys.verify(environment),
    'keys.remove': ({ environment }) => keys.remove(environment),
  };
}
