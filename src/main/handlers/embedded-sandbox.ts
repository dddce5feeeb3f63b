import { StationError } from '../../shared/errors';
import { zplBarcodeData } from '../../shared/zebra/zpl-document';
import type { HandlersOf } from '../contract/dispatcher';
import type { EmbeddedSandbox } from '../embedded-sandbox';
import type { StationSettings } from '../settings/station-settings';
import type { sandboxCalls } from '../../shared/contract/embedded-sandbox';

export interface SandboxHandlerDeps {
  settings: StationSettings;
  sandbox: EmbeddedSandbox;
}

export function sandboxHandlers(deps: SandboxHandlerDeps): HandlersOf<typeof sandboxCalls> {
  return {
    'sandbox.printedLabels': async ({ limit }, { session }) => {
      if (deps.settings.environment() !== 'sandbox') {
        throw new StationError('NOT_CONFIGURED', 'The station is not working on the embedded sandbox, so there is no virtual printer to show. Switch to the sandbox environment in Setup.');
      }
      await session.ready();
      const printers = await deps.sandbox.printers();
      if (printers.length === 0) throw new StationError('NOT_CONFIGURED', 'The embedded sandbox runs without a virtual printer.');
      const labels = await deps.sandbox.printedLabels(0);
      return { labels: labels.slice(-(limit ?? 20)).reverse().map((label) => ({ ...label, barcode: zplBarcodeData(label.zpl) })) };
    },
  };
}
