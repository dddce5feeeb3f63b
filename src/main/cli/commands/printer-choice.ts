import type { StationCalls } from '../station-calls';
import { UsageError } from '../command';

/**
 * A printer named on the command line, by id or by its name (any case, when one printer has it),
 * among the current environment's printers as the screen's printer list shows them.
 */
export async function printerIdFrom(calls: StationCalls, given: string): Promise<string>;
export async function printerIdFrom(calls: StationCalls, given: string | undefined): Promise<string | undefined>;
export async function printerIdFrom(calls: StationCalls, given: string | undefined): Promise<string | undefined> {
  if (given === undefined) return undefined;
  const listed = await calls.result('printers.list', {});
  if (!listed.ok) throw new UsageError(`${listed.error.message} [${listed.error.code}]`);
  const { printers } = listed.value;
  const wanted = given.trim().toLowerCase();
  const named = printers.filter((printer) => printer.name.toLowerCase() === wanted);
  const printer = printers.find((entry) => entry.id === given) ?? (named.length === 1 ? named[0] : undefined);
  if (printer) return printer.id;
  const info = await calls.result('app.info', {});
  const environment = info.ok ? info.value.environment : 'current';
  const known = printers.map((entry) => `${entry.name} (${entry.id})`);
  throw new UsageError(`There is no printer "${given}" in the ${environment} environment.${known.length > 0 ? ` Printers: ${known.join(', ')}.` : ' Add one with: printers add'}`);
}
