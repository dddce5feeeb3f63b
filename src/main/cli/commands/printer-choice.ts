import type { Station } from '../../composition';
import { UsageError } from '../command';

/** A printer named on the command line, by id or by name, in the current environment. */
export async function printerIdFrom(station: Station, given: string | undefined): Promise<string | undefined> {
  if (given === undefined) return undefined;
  const environment = station.settings.environment();
  const printer = await station.services.printing.printers.find(environment, given);
  if (!printer) {
    const known = (await station.services.printing.printers.list(environment)).map((entry) => `${entry.name} (${entry.id})`);
    throw new UsageError(`There is no printer "${given}" in the ${environment} environment.${known.length > 0 ? ` Printers: ${known.join(', ')}.` : ' Add one with: printers add'}`);
  }
  return printer.id;
}
