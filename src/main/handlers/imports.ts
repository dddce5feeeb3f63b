import { isAbsolute } from 'node:path';
import { StationError } from '../../shared/errors';
import type { Handlers } from '../contract/dispatcher';
import type { EventBus } from '../contract/event-bus';
import type { ManifestImporter, ManifestSource } from '../orders/manifest-import';
import type { StationSettings } from '../settings/station-settings';

export interface ImportsHandlerDeps {
  settings: StationSettings;
  importer: ManifestImporter;
  events: EventBus;
}

export function importsHandlers(deps: ImportsHandlerDeps): Pick<Handlers, 'imports.manifest'> {
  return {
    'imports.manifest': async ({ source, mapping, importId }) => {
      let manifest: ManifestSource;
      if (source.kind === 'path') {
        if (!isAbsolute(source.path)) throw new StationError('IMPORT_FAILED', `Give the manifest's full path (got "${source.path.slice(0, 200)}").`);
        manifest = { kind: 'path', path: source.path };
      } else {
        const bytes = Buffer.from(source.base64, 'base64');
        if (bytes.length === 0) throw new StationError('IMPORT_FAILED', `${source.fileName} is empty.`);
        manifest = { kind: 'bytes', fileName: source.fileName, bytes };
      }
      return deps.importer.import(deps.settings.environment(), manifest, {
        mapping,
        importId,
        onProgress: (progress) => deps.events.emit('imports.progress', progress),
      });
    },
  };
}
