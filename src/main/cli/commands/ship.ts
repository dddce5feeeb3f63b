/**
 * Shipping from a terminal, on the same calls as the screen: import orders to ship, ship one, the
 * address and postal-code checks, coverage, the pickup-point search, and a lead settling parcels
 * whose creation outcome is unknown.
 */
import { isAbsolute, resolve } from 'node:path';
import type { CallInput, CallName, CallOutput } from '../../../shared/contract';
import { expectOnly, numberOption, option } from '../args';
import { exitCodes, UsageError, type CliCommand, type CliContext } from '../command';
import { json } from '../output';
import { openCalls, stationCalls } from '../station-calls';
import { printerIdFrom } from './printer-choice';

async function callStation<K extends CallName>(context: CliContext, name: K, input: CallInput<K>): Promise<CallOutput<K> | null> {
  return (await openCalls(context)).call(name, input);
}

function required(context: CliContext, name: string): string {
  const value = option(context.args, name);
  if (value === undefined || value.trim() === '') throw new UsageError(`--${name} is needed.`);
  return value;
}

const addressOptions = ['street', 'number', 'suffix', 'postal-code', 'city', 'country'] as const;

function addressFrom(context: CliContext) {
  return {
    street: required(context, 'street'),
    houseNumber: required(context, 'number'),
    suffix: option(context.args, 'suffix') ?? '',
    postalCode: required(context, 'postal-code'),
    ...(option(context.args, 'city') !== undefined ? { city: option(context.args, 'city') } : {}),
    countryCode: required(context, 'country').toUpperCase(),
  };
}

function oneLocation(context: CliContext): string {
  const [locationId, ...rest] = context.args.positionals;
  if (locationId === undefined || rest.length > 0) throw new UsageError('Give exactly one location id.');
  return locationId;
}

export const shipCommand: CliCommand = {
  name: 'ship',
  summary: 'Create an order to ship at the service (one order per parcel, a bundle for several) and print its labels',
  usage: [
    'ship <orderRef> [--parcels N] [--pudo ID] [--printer <id|name>] [--accept-corrected-address] [--confirm-live N] [--json]',
    '  --parcels                    how many parcels (default: the order\'s row, or 1)',
    '  --pudo                       deliver to this pickup point (its pudoId from pickup-points)',
    '  --accept-corrected-address   ship to the address as the service corrected it',
    '  --confirm-live               in live: the number of orders you agree to create (real couriers come)',
    '  --json                       the outcome as JSON',
  ].join('\n'),
  valueOptions: ['parcels', 'pudo', 'printer', 'confirm-live'],
  async run(context) {
    expectOnly(context.args, { flags: ['json', 'accept-corrected-address'], options: ['parcels', 'pudo', 'printer', 'confirm-live'] });
    const [orderRef, ...rest] = context.args.positionals;
    if (orderRef === undefined || rest.length > 0) throw new UsageError('Give exactly one order reference.');
    const printerId = await printerIdFrom(await openCalls(context), option(context.args, 'printer'));
    const parcels = numberOption(context.args, 'parcels');
    const confirmLive = numberOption(context.args, 'confirm-live');
    const pudoId = option(context.args, 'pudo');
    const outcome = await callStation(context, 'shipping.ship', {
      orderRef,
      ...(parcels !== undefined ? { parcels } : {}),
      ...(pudoId !== undefined ? { pudoId } : {}),
      ...(printerId !== undefined ? { printerId } : {}),
      ...(confirmLive !== undefined ? { confirmLive } : {}),
      ...(context.args.flags.has('accept-corrected-address') ? { acceptCorrectedAddress: true } : {}),
    });
    if (!outcome) return exitCodes.failed;
    if (context.args.flags.has('json')) {
      context.print(json(outcome));
      return outcome.outcome === 'shipped' && outcome.parcels.every((parcel) => parcel.printed !== 'failed') ? exitCodes.ok : exitCodes.failed;
    }
    if (outcome.outcome === 'confirm-address') {
      context.warn(`The service corrected the address of ${orderRef}; nothing was created:`);
      for (const difference of outcome.differences) context.warn(`  ${difference.field}: "${difference.sent}" → "${difference.resolved}"`);
      context.warn('Ship it to the corrected address with --accept-corrected-address.');
      return exitCodes.failed;
    }
    if (outcome.outcome === 'confirm-live') {
      context.warn(`LIVE: this creates ${outcome.toCreate} real order${outcome.toCreate === 1 ? '' : 's'} and a courier will come. Nothing was created; repeat with --confirm-live ${outcome.toCreate}.`);
      return exitCodes.failed;
    }
    for (const parcel of outcome.parcels) {
      const what = parcel.createdNow ? 'created' : 'created earlier';
      const printed = parcel.printed === 'printed' ? 'label printed' : parcel.printed === 'duplicate' ? 'label printed before (not again)' : `label NOT printed: ${parcel.printProblem ?? ''}`;
      context.print(`Parcel ${parcel.parcel} of ${parcel.parcelCount}: order ${parcel.orderId}, barcode ${parcel.barcode ?? '-'}, ${what}; ${printed}.`);
    }
    return outcome.parcels.every((parcel) => parcel.printed !== 'failed') ? exitCodes.ok : exitCodes.failed;
  },
};

export const importToShipCommand: CliCommand = {
  name: 'import-to-ship',
  summary: 'Import orders to ship from the shop\'s CSV/XLSX export (spreadsheet-upload column names)',
  usage: 'import-to-ship <file> [--json]\n  --json   the report (new, updated and rejected rows with reasons) as JSON',
  async run(context) {
    expectOnly(context.args, { flags: ['json'] });
    const [file, ...rest] = context.args.positionals;
    if (file === undefined || rest.length > 0) throw new UsageError('Give exactly one file.');
    const path = isAbsolute(file) ? file : resolve(file);
    // The person at the terminal named the file: it is picked for them, as the desktop app's file dialog would.
    const station = await context.openStation();
    const report = await stationCalls(context, station).call('shipping.import', { source: { kind: 'picked', handle: station.host.pickFile(path) } });
    if (!report) return exitCodes.failed;
    if (context.args.flags.has('json')) {
      context.print(json(report));
      return report.rejectedRows === 0 ? exitCodes.ok : exitCodes.failed;
    }
    context.print(`${report.fileName}: ${report.newRows} new, ${report.updatedRows} updated, ${report.rejectedRows} rejected.`);
    for (const row of report.rows) if (row.outcome === 'rejected') context.warn(`  row ${row.row}${row.orderRef ? ` (${row.orderRef})` : ''}: ${row.reason ?? ''}`);
    return report.rejectedRows === 0 ? exitCodes.ok : exitCodes.failed;
  },
};

export const checkAddressCommand: CliCommand = {
  name: 'check-address',
  summary: 'Ask the service whether an address can be delivered from a location (and how it reads it)',
  usage: [
    'check-address <locationId> --street S --number N [--suffix X] --postal-code P [--city C] --country CC [--pickup-point] [--signature] [--not-at-neighbour] [--json]',
  ].join('\n'),
  valueOptions: addressOptions,
  async run(context) {
    expectOnly(context.args, { flags: ['json', 'pickup-point', 'signature', 'not-at-neighbour'], options: addressOptions });
    const locationId = oneLocation(context);
    const flags = context.args.flags;
    const answer = await callStation(context, 'shipping.checkAddress', {
      locationId,
      request: {
        deliveryAddress: addressFrom(context),
        ...(flags.has('pickup-point') ? { pickupPoint: true } : {}),
        ...(flags.has('signature') ? { signature: true } : {}),
        ...(flags.has('not-at-neighbour') ? { notAtNeighbour: true } : {}),
      },
    });
    if (!answer) return exitCodes.failed;
    if (flags.has('json')) context.print(json(answer));
    else {
      const resolved = answer.resolvedAddress;
      context.print(answer.deliverable ? 'Deliverable.' : `NOT deliverable: ${answer.reason ?? 'no reason given'}.`);
      const missing = Object.entries(answer.missingCapabilities ?? {}).filter(([, lacking]) => lacking).map(([name]) => name);
      if (missing.length > 0) context.print(`  missing: ${missing.join(', ')}`);
      context.print(`  read as: ${resolved.street} ${resolved.houseNumber}${resolved.suffix ? ` ${resolved.suffix}` : ''}, ${resolved.postalCode} ${resolved.city}, ${resolved.countryCode}`);
    }
    return answer.deliverable ? exitCodes.ok : exitCodes.failed;
  },
};

export const checkPostalCodeCommand: CliCommand = {
  name: 'check-postal-code',
  summary: 'Ask the service whether a postal code area is served from a location',
  usage: 'check-postal-code <locationId> --postal-code P --country CC [--json]',
  valueOptions: ['postal-code', 'country'],
  async run(context) {
    expectOnly(context.args, { flags: ['json'], options: ['postal-code', 'country'] });
    const locationId = oneLocation(context);
    const answer = await callStation(context, 'shipping.checkPostalCode', {
      locationId,
      request: { postalCode: required(context, 'postal-code'), countryCode: required(context, 'country').toUpperCase() },
    });
    if (!answer) return exitCodes.failed;
    if (context.args.flags.has('json')) context.print(json(answer));
    else context.print(answer.deliverable ? 'The area is served (the address check gives the final answer).' : `NOT served: ${answer.reason ?? 'no reason given'}.`);
    return answer.deliverable ? exitCodes.ok : exitCodes.failed;
  },
};

export const coverageCommand: CliCommand = {
  name: 'coverage',
  summary: 'The postal codes a location delivers to (changes over time; the address check is the final answer)',
  usage: 'coverage <locationId> [--json]',
  async run(context) {
    expectOnly(context.args, { flags: ['json'] });
    const locationId = oneLocation(context);
    const answer = await callStation(context, 'shipping.coverage', { locationId, refresh: true });
    if (!answer) return exitCodes.failed;
    if (context.args.flags.has('json')) {
      context.print(json(answer));
      return exitCodes.ok;
    }
    context.print(`Coverage of location ${locationId}, fetched ${answer.fetchedAt}:`);
    for (const [country, codes] of Object.entries(answer.coverage)) context.print(`  ${country}: ${codes.join(', ')}`);
    return exitCodes.ok;
  },
};

export const pickupPointsCommand: CliCommand = {
  name: 'pickup-points',
  summary: 'Pickup points near an address or a coordinate, nearest first',
  usage: [
    'pickup-points (--country CC --postal-code P | --lat N --lng N) [--type PARCEL_LOCKER|PICKUP_DROPOFF_POINT|MAILBOX_POBOX ...] [--max N] [--max-km N] [--json]',
  ].join('\n'),
  valueOptions: ['country', 'postal-code', 'lat', 'lng', 'type', 'max', 'max-km'],
  async run(context) {
    expectOnly(context.args, { flags: ['json'], options: ['country', 'postal-code', 'lat', 'lng', 'type', 'max', 'max-km'] });
    if (context.args.positionals.length > 0) throw new UsageError('pickup-points takes only options.');
    const decimal = (name: string) => {
      const text = option(context.args, name);
      if (text === undefined) return undefined;
      const value = Number(text);
      if (text.trim() === '' || !Number.isFinite(value)) throw new UsageError(`--${name} needs a number, got "${text}".`);
      return value;
    };
    const max = numberOption(context.args, 'max');
    const query = {
      ...(option(context.args, 'country') !== undefined ? { countryCode: option(context.args, 'country')!.toUpperCase() } : {}),
      ...(option(context.args, 'postal-code') !== undefined ? { postalCode: option(context.args, 'postal-code') } : {}),
      ...(decimal('lat') !== undefined ? { lat: decimal('lat') } : {}),
      ...(decimal('lng') !== undefined ? { lng: decimal('lng') } : {}),
      ...(max !== undefined ? { maxResults: max } : {}),
      ...(decimal('max-km') !== undefined ? { maxDistanceKm: decimal('max-km') } : {}),
      // As typed at the terminal: the contract's schema refuses a type it does not know (INVALID_INPUT).
      ...(context.args.options.has('type') ? { types: context.args.options.get('type') as CallInput<'shipping.pickupPoints'>['types'] } : {}),
    };
    const answer = await callStation(context, 'shipping.pickupPoints', query);
    if (!answer) return exitCodes.failed;
    if (context.args.flags.has('json')) {
      context.print(json(answer));
      return exitCodes.ok;
    }
    if (answer.points.length === 0) {
      context.print('No pickup points here: ship to the home address.');
      return exitCodes.ok;
    }
    for (const point of answer.points) {
      const km = point.distanceMeters === undefined ? '' : `${(point.distanceMeters / 1000).toFixed(1)} km  `;
      context.print(`${km}${point.type}  ${point.name}  ${point.pudoId}`);
    }
    if (answer.totalFound > answer.points.length) context.print(`(${answer.totalFound} found; --max shows more)`);
    return exitCodes.ok;
  },
};

export const creationsCommand: CliCommand = {
  name: 'creations',
  summary: 'Parcels whose creation outcome is unknown; a lead settles one with --decide',
  usage: [
    'creations [--json]',
    'creations --decide <orderRef> --parcel N (--exists <orderId> | --not-created) --operator NAME --reason TEXT',
  ].join('\n'),
  valueOptions: ['decide', 'parcel', 'exists', 'operator', 'reason'],
  async run(context) {
    expectOnly(context.args, { flags: ['json', 'not-created'], options: ['decide', 'parcel', 'exists', 'operator', 'reason'] });
    const orderRef = option(context.args, 'decide');
    if (orderRef !== undefined) {
      const orderId = option(context.args, 'exists');
      if ((orderId === undefined) === !context.args.flags.has('not-created')) throw new UsageError('Say either --exists <orderId> or --not-created.');
      const entry = await callStation(context, 'shipping.decide', {
        orderRef,
        parcel: numberOption(context.args, 'parcel') ?? 1,
        exists: orderId !== undefined,
        ...(orderId !== undefined ? { orderId } : {}),
        operator: required(context, 'operator'),
        reason: required(context, 'reason'),
      });
      if (!entry) return exitCodes.failed;
      context.print(context.args.flags.has('json') ? json(entry) : `Parcel ${entry.parcel} of ${entry.orderRef} is now ${entry.state} (${entry.reason ?? ''}).`);
      return exitCodes.ok;
    }
    const entries = await callStation(context, 'shipping.unknown', {});
    if (!entries) return exitCodes.failed;
    if (context.args.flags.has('json')) context.print(json(entries));
    else if (entries.length === 0) context.print('No parcel has an unknown creation outcome.');
    else for (const entry of entries) context.print(`${entry.orderRef} parcel ${entry.parcel} of ${entry.parcelCount} (sent as ${entry.serviceRef}), since ${entry.updatedAt}: ${entry.reason ?? ''}`);
    return exitCodes.ok;
  },
};
