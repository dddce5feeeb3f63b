import type { Handlers } from '../contract/dispatcher';
import type { StoreChoiceService } from '../settings/store-choice';

export function storeHandlers(choice: StoreChoiceService): Pick<Handlers, 'store.get' | 'store.set' | 'store.test'> {
  return {
    'store.get': () => choice.status(),
    'store.set': (input) => choice.set(input),
    'store.test': (input) => choice.test(input),
  };
}
