import { resolve } from 'node:path';
import { manifestFieldNames } from '../../../shared/contract/imports';
import { expectOnly } from '../args';
import { exitCodes, UsageError, type CliCommand } from '../command';
import { json } from '../output';
import { stationCalls } from '../station-calls';

const shownErrors = 20;
const count = (n: number, noun: string) => `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`;

export const importCommand: CliCommand = {
  name: 'import',
  summary: 'Import a manifest (CSV or XLSX) into the order index of the current environment',
  usage: `import <file> [--map field=Column]... [--json]\n  --map     which column holds a field (${manifestFieldNames.join(', ')}), e.g. --map orderId="Shipment no"\n  --json    the report as JSON`,
  valueOptions: ['map'],
  async run(context) {
    expectOnly(context.args, { flags: ['json'], options: ['map'] });
    const [file, ...rest] = context.args.positionals;
    if (file === undefined || rest.length > 0) throw new UsageError('Give exactly one file.');
    const mapping: Record<string, string> = {};
    for (const pair of context.args.options.get('map') ?? []) {
      const equals = pair.indexOf('=');
      const field = pair.slice(0, equals);
      if (equals < 1 || !(manifestFieldNames as readonly string[]).includes(field)) {
        throw new UsageError(`--map ${pair}: write field=Column, with field one of ${manifestFieldNames.join(', ')}.`);
      }
      mapping[field] = pair.slice(equals + 1);
    }

    const station = await context.openStation();
    const calls = stationCalls(context, station);
    const interactive = context.io.stderr.isTTY === true;
    let lastLine = 0;
    const unsubscribe = calls.on('imports.progress', (progress) => {
      const percent = progress.totalBytes > 0 ? Math.min(100, Math.round((progress.bytesRead / progress.totalBytes) * 100)) : 0;
      const line = `Read ${progress.rowsRead.toLocaleString('en')} rows (${percent}%), ${progress.failed.toLocaleString('en')} with errors`;
      if (interactive) context.io.stderr.write(`\r${line}${progress.done ? '\n' : ''}`);
      else if (progress.done || Date.now() - lastLine > 1000) {
        lastLine = Date.now();
        context.warn(line);
      }
    });
    try {
      // The path was typed by the user at this terminal: the CLI picks it as the app's file dialog would.
      const source = { kind: 'picked' as const, handle: station.host.pickFile(resolve(file)) };
      const report = await calls.call('imports.manifest', { source, ...(Object.keys(mapping).length > 0 ? { mapping } : {}) });
      if (!report) return exitCodes.failed;
      if (context.args.flags.has('json')) {
        context.print(json(report));
        return exitCodes.ok;
      }
      context.print(
        `${report.fileName}: ${count(report.rowsRead, 'row')} read, ${count(report.inserted, 'new order')}, ${report.updated} updated, ${report.failed} with errors (${report.environment}, ${(report.durationMs / 1000).toFixed(1)} s).`,
      );
      for (const error of report.errors.slice(0, shownErrors)) context.print(`  row ${error.row}: ${error.message}`);
      if (report.failed > shownErrors) context.print(`  … and ${report.failed - shownErrors} more rows with errors (--json lists ${report.errors.length}).`);
      return exitCodes.ok;
    } finally {
      unsubscribe();
    }
  },
};
