import type { HandlersOf } from '../contract/dispatcher';
import type { LocalOnlyPrinting } from '../printing/offline/local-only-printing';
import type { StationSettings } from '../settings/station-settings';
import type { StoreChoiceService } from '../store';
import type { storeCalls } from '../../shared/contract/store';


export function storeHandlers(choice: StoreChoiceService, localOnly: LocalOnlyPrinting, settings: StationSettings): HandlersOf<typeof storeCalls> {
  return {
    'store.get': () => choice.status(),
    'store.set': (input) => choice.set(input),
    'store.test': (input) => choice.test(input),
    'store.allowLocalPrinting': (input) => localOnly.allow(input),
    'store.endLocalPrinting': () => localOnly.end(),
    'store.offlineReport': ({ limit }) => localOnly.report(settings.environment(), limit),
  };
}
