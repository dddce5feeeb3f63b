import { basename } from 'node:path';
import { stat } from 'node:fs/promises';
import { StationError } from '../../shared/errors';
import { fileProblem } from '../spreadsheets/spreadsheet-file';
import type { HandlersOf } from '../contract/dispatcher';
import type { EventBus } from '../contract/event-bus';
import type { ManifestImporter, ManifestSource } from '../orders/manifest-import';
import type { PickedFiles } from '../orders/picked-files';
import type { StationSettings } from '../settings/station-settings';
import type { importsCalls } from '../../shared/contract/imports';

export interface ImportsHandlerDeps {
  settings: StationSettings;
  importer: ManifestImporter;
  events: EventBus;
  pickedFiles: PickedFiles;
  /** The desktop app's own file dialog: the chosen path, or null when cancelled. Absent on hosts without one. */
  pickManifestFile?: () => Promise<string | null>;
}

export function importsHandlers(deps: ImportsHandlerDeps): HandlersOf<typeof importsCalls> {
  return {
    'imports.pick': async () => {
      if (!deps.pickManifestFile) {
        throw new StationError('NOT_CONFIGURED', 'This screen has no file dialog: choose the manifest with the upload button, which sends its content.');
      }
      const path = await deps.pickManifestFile();
      if (path === null) return null;
      const info = await stat(path).catch(() => null);
      return { handle: deps.pickedFiles.register(path), fileName: basename(path), sizeBytes: info?.size ?? 0 };
    },
    'imports.recent': ({ limit }) => deps.importer.recent(deps.settings.environment(), limit),
    'imports.manifest': async ({ source, mapping, importId }) => {
      let manifest: ManifestSource;
      if (source.kind === 'picked') {
        const path = deps.pickedFiles.take(source.handle);
        if (path === null) {
          throw fileProblem('choice-expired', '', 'That file choice is no longer valid (each choice imports once, within ten minutes). Choose the file again.');
        }
        manifest = { kind: 'path', path };
      } else if (source.kind === 'content') {
        const bytes = Buffer.from(source.base64, 'base64');
        if (bytes.length === 0) throw fileProblem('empty', source.fileName, `${source.fileName} is empty.`);
        manifest = { kind: 'bytes', fileName: source.fileName, bytes };
      } else {
        // The schema already refuses a path; this keeps the refusal if the schema ever changes.
        throw new StationError('FORBIDDEN', 'The station does not read a file the screen names by its path.');
      }
      return deps.importer.import(deps.settings.environment(), manifest, {
        mapping,
        importId,
        onProgress: (progress) => deps.events.emit('imports.progress', progress),
      });
    },
  };
}
