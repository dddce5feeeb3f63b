import type {
  DiscoveredPrinterData,
  PrinterAddInput,
  PrinterCheckData,
  PrinterData,
  PrinterSettingsChangeData,
  PrinterSettingsData,
  PrinterStatusData,
  RollFitData,
} from '../../../shared/contract/printers';
import { ROLL_LENGTH_INCHES, rollSentences } from '../../../shared/zebra/roll-and-head';
import { expectOnly, numberOption, option } from '../args';
import { exitCodes, UsageError, type CliCommand, type CliContext } from '../command';
import { json, valueOf } from '../output';
import { printerIdFrom } from './printer-choice';

const addOptions = ['host', 'port', 'queue', 'serial', 'orientation', 'default', 'max-in-buffer'] as const;
const discoverOptions = ['subnet', 'port', 'timeout'] as const;
const settingsOptions = ['darkness', 'speed', 'media-type', 'tracking', 'reprint-after-error', 'operator'] as const;

export const printersCommand: CliCommand = {
  name: 'printers',
  summary: 'List, add, ask and test the printers of the current environment',
  usage: [
    'printers list [--json]',
    'printers add <name> --host <address> [--port <9100>] [options]    a network Zebra (raw TCP)',
    'printers add <name> --queue <os queue> [--pdf] [options]          an OS print queue: raw ZPL, or PDF with --pdf',
    'printers add <name> --usb [--serial <number>] [options]           a Zebra on USB',
    'printers status <printer> [--json]',
    'printers test <printer>',
    'printers settings <printer> [--json]                 darkness, speed, media, label length, reprint after error, counters, roll, printhead',
    'printers settings <printer> [--darkness 0-30] [--speed 1-14] [--media-type direct|transfer] [--tracking gap|mark|continuous]',
    '                  [--reprint-after-error on|off] [--head-cleaned] [--save] [--operator <name>] [--json]',
    '                  changes only what is named, reads it back and journals it; --save makes it the power-on setting (^JUS)',
    'printers settings <printer> --changes [--json]       the journal of settings changed on it',
    'printers calibrate <printer>                         media calibration (~JC); waits until the printer is ready again',
    'printers config-label <printer>                      prints the printer’s configuration label (~WC)',
    'printers discover [--subnet <network>] [--json]    network Zebras (Zebra discovery, UDP 4201) and the OS print queues',
    '  --subnet        the network to ask, such as 192.168.1.0/24 (default: the networks this computer is on)',
    '  --timeout       seconds to collect answers (default 3); --port the discovery port (default 4201)',
    '  --orientation   landscape or portrait: the label orientation this printer is pinned to (default landscape)',
    '  --default       single, bundles or both: make it the default printer for that role',
    '  --max-in-buffer labels allowed in the printer at once (default 3): pause and cancel act within that many',
    '  --no-check      save without asking the printer what it is',
    '  <printer> is a printer id or its name.',
  ].join('\n'),
  valueOptions: [...new Set([...addOptions, ...discoverOptions, ...settingsOptions])],
  async run(context) {
    const [verb, ...rest] = context.args.positionals;
    switch (verb) {
      case 'list':
        return list(context, rest);
      case 'add':
        return add(context, rest);
      case 'status':
        return status(context, rest);
      case 'test':
        return test(context, rest);
      case 'discover':
        return discover(context, rest);
      case 'settings':
        return settingsCommand(context, rest);
      case 'calibrate':
        return calibrate(context, rest);
      case 'config-label':
        return configLabel(context, rest);
      default:
        throw new UsageError(
          verb === undefined ? 'Say what to do: list, add, status, test, discover, settings, calibrate or config-label.' : `Unknown printers command "${verb}".`,
        );
    }
  },
};

async function list(context: CliContext, rest: string[]): Promise<number> {
  expectOnly(context.args, { flags: ['json'] });
  if (rest.length > 0) throw new UsageError('printers list takes no arguments.');
  const station = await context.openStation();
  const result = valueOf<{ printers: PrinterData[] }>(context, await station.dispatcher.dispatch('printers.list', {}, { host: 'web' }));
  if (!result) return exitCodes.failed;
  if (context.args.flags.has('json')) {
    context.print(json(result.printers));
    return exitCodes.ok;
  }
  if (result.printers.length === 0) context.print(`No printers in the ${station.settings.environment()} environment. Add one with: printers add`);
  for (const printer of result.printers) {
    const roles = [printer.defaultForSingle ? 'single labels' : null, printer.defaultForBundles ? 'bundles' : null].filter(Boolean).join(' and ');
    context.print(`${printer.id}  ${printer.name}: ${printer.description}, ${printer.format.toUpperCase()}, ${printer.orientation}${roles ? `, default for ${roles}` : ''}`);
    context.print(`    labels: ${printer.route.message}`);
    for (const warning of printer.options.warnings) context.print(`    warning: ${warning}`);
  }
  return exitCodes.ok;
}

async function add(context: CliContext, rest: string[]): Promise<number> {
  expectOnly(context.args, { flags: ['pdf', 'usb', 'no-check', 'json'], options: [...addOptions] });
  const [name, ...extra] = rest;
  if (name === undefined || extra.length > 0) throw new UsageError('Give the printer one name (quote it if it has spaces).');
  const host = option(context.args, 'host');
  const queue = option(context.args, 'queue');
  const usb = context.args.flags.has('usb');
  if ([host !== undefined, queue !== undefined, usb].filter(Boolean).length !== 1) throw new UsageError('Give exactly one of --host, --queue or --usb.');
  let address: PrinterAddInput['address'];
  if (host !== undefined) address = { kind: 'network-zebra', host, port: numberOption(context.args, 'port') ?? 9100 };
  else if (queue !== undefined) address = { kind: context.args.flags.has('pdf') ? 'os-queue-pdf' : 'os-queue-raw', queue };
  else {
    const serial = option(context.args, 'serial');
    address = { kind: 'usb-zebra', ...(serial !== undefined ? { serialNumber: serial } : {}) };
  }
  const orientation = option(context.args, 'orientation');
  if (orientation !== undefined && orientation !== 'landscape' && orientation !== 'portrait') throw new UsageError('--orientation is landscape or portrait.');
  const role = option(context.args, 'default');
  if (role !== undefined && !['single', 'bundles', 'both'].includes(role)) throw new UsageError('--default is single, bundles or both.');
  const maxInBuffer = numberOption(context.args, 'max-in-buffer');
  const input = {
    name,
    address,
    ...(orientation !== undefined ? { orientation } : {}),
    ...(role === 'single' || role === 'both' ? { defaultForSingle: true } : {}),
    ...(role === 'bundles' || role === 'both' ? { defaultForBundles: true } : {}),
    ...(maxInBuffer !== undefined ? { maxFormatsInBuffer: maxInBuffer } : {}),
    ...(context.args.flags.has('no-check') ? { check: false } : {}),
  };
  const station = await context.openStation();
  const result = valueOf<{ printer: PrinterData; check: PrinterCheckData | null }>(context, await station.dispatcher.dispatch('printers.add', input, { host: 'web' }));
  if (!result) return exitCodes.failed;
  if (context.args.flags.has('json')) {
    context.print(json(result));
    return exitCodes.ok;
  }
  context.print(`Added ${result.printer.name} (${result.printer.id}): ${result.printer.description}.`);
  const check = result.check;
  if (check?.checked) context.print(`  ${check.model ?? 'printer'} ${check.firmware ?? ''}, ${check.dpi ?? '?'} dpi, print width ${check.printWidthDots ?? '?'} dots.`);
  context.print(`  Labels: ${result.printer.route.message}`);
  for (const warning of check?.warnings ?? []) context.warn(`  warning: ${warning.message}`);
  for (const fault of check?.faults ?? []) context.warn(`  now: ${fault.message} ${fault.action}`);
  return exitCodes.ok;
}

async function status(context: CliContext, rest: string[]): Promise<number> {
  expectOnly(context.args, { flags: ['json'] });
  const [given, ...extra] = rest;
  if (given === undefined || extra.length > 0) throw new UsageError('Name one printer (its id or name).');
  const station = await context.openStation();
  const id = await printerIdFrom(station, given);
  const result = valueOf<PrinterStatusData>(context, await station.dispatcher.dispatch('printers.status', { id }, { host: 'web' }));
  if (!result) return exitCodes.failed;
  if (context.args.flags.has('json')) {
    context.print(json(result));
    return exitCodes.ok;
  }
  context.print(`${given}: ${result.state}${result.formatsInBuffer !== null ? `, ${result.formatsInBuffer} label(s) in its buffer` : ''}${statusSource(result)}`);
  for (const fault of result.faults) context.print(`  ${fault.message} ${fault.action}`);
  if (result.roll) printRoll(context, result.roll);
  for (const fault of result.headFaults) context.warn(`  Printhead: ${headFaultWords[fault]}`);
  return result.faults.length === 0 ? exitCodes.ok : exitCodes.failed;
}

/** Where the answer came from, when the printer was not asked (or did not answer). */
function statusSource(result: PrinterStatusData): string {
  const run = result.busyWith;
  switch (result.source) {
    case 'queue':
      return ` (busy with this station's print run${run ? ` ${run.runId}` : ''}: as its queue last saw it, not asked again)`;
    case 'run-elsewhere':
      return ` (busy with print run ${run?.runId ?? '?'} of another station process${run?.processId ? ` (process ${run.processId})` : ''}, which holds its connection: not asked)`;
    case 'printer':
      return result.answered ? '' : ' (no answer)';
  }
}

async function test(context: CliContext, rest: string[]): Promise<number> {
  expectOnly(context.args, {});
  const [given, ...extra] = rest;
  if (given === undefined || extra.length > 0) throw new UsageError('Name one printer (its id or name).');
  const station = await context.openStation();
  const id = await printerIdFrom(station, given);
  const result = valueOf<{ runId: string; entryId: number; barcode: string | null }>(context, await station.dispatcher.dispatch('printers.test', { id }, { host: 'web' }));
  if (!result) return exitCodes.failed;
  context.print(`Test label sent to ${given} (journal entry ${result.entryId}).${result.barcode ? ` Its barcode reads ${result.barcode}.` : ''}`);
  return exitCodes.ok;
}

async function discover(context: CliContext, rest: string[]): Promise<number> {
  expectOnly(context.args, { flags: ['json'], options: [...discoverOptions] });
  if (rest.length > 0) throw new UsageError('printers discover takes no arguments.');
  const subnet = option(context.args, 'subnet');
  const port = numberOption(context.args, 'port');
  const seconds = numberOption(context.args, 'timeout');
  const input = { ...(subnet !== undefined ? { subnet } : {}), ...(port !== undefined ? { port } : {}), ...(seconds !== undefined ? { timeoutMs: seconds * 1000 } : {}) };
  const station = await context.openStation();
  const result = valueOf<{ subnets: string[]; printers: DiscoveredPrinterData[] }>(context, await station.dispatcher.dispatch('printers.discover', input, { host: 'web' }));
  if (!result) return exitCodes.failed;
  if (context.args.flags.has('json')) {
    context.print(json(result));
    return exitCodes.ok;
  }
  context.print(`Searched ${result.subnets.join(', ') || 'no network'}.`);
  if (result.printers.length === 0) context.print('No printers found.');
  for (const printer of result.printers) {
    const added = printer.addedAs ? `  (added: ${printer.addedAs})` : '';
    if (printer.kind === 'network-zebra') {
      context.print(`${printer.host}:${printer.port}  ${printer.name}  ${printer.model ?? 'unknown model'}, ${printer.dpi ? `${printer.dpi} dpi` : 'resolution unknown'}${printer.firmware ? `, ${printer.firmware}` : ''}${added}`);
      context.print(`    add with: printers add '${printer.name}' --host ${printer.host} --port ${printer.port}`);
    } else {
      context.print(`queue ${printer.name}  (${printer.system}, ${printer.state}${printer.isDefault ? ', default' : ''})${added}`);
      context.print(`    add with: printers add '${printer.name}' --queue '${printer.name}'`);
    }
  }
  return exitCodes.ok;
}

/** One printer named by id or name, the only positional argument. */
function onePrinter(rest: string[]): string {
  const [given, ...extra] = rest;
  if (given === undefined || extra.length > 0) throw new UsageError('Name one printer (its id or name).');
  return given;
}

function choice<T extends string>(value: string | undefined, allowed: readonly T[], name: string): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${name} is ${allowed.join(', ')}.`);
  return value as T;
}

function wholeNumber(value: number | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < min || value > max) throw new UsageError(`--${name} is a whole number from ${min} to ${max}.`);
  return value;
}

async function settingsCommand(context: CliContext, rest: string[]): Promise<number> {
  expectOnly(context.args, { flags: ['json', 'save', 'head-cleaned', 'changes'], options: [...settingsOptions] });
  const given = onePrinter(rest);
  const reprint = choice(option(context.args, 'reprint-after-error'), ['on', 'off'] as const, 'reprint-after-error');
  const change = {
    ...optional('darkness', wholeNumber(numberOption(context.args, 'darkness'), 'darkness', 0, 30)),
    ...optional('speed', wholeNumber(numberOption(context.args, 'speed'), 'speed', 1, 14)),
    ...optional('mediaType', choice(option(context.args, 'media-type'), ['direct', 'transfer'] as const, 'media-type')),
    ...optional('tracking', choice(option(context.args, 'tracking'), ['gap', 'mark', 'continuous'] as const, 'tracking')),
    ...optional('reprintAfterError', reprint === undefined ? undefined : reprint === 'on'),
  };
  const save = context.args.flags.has('save');
  const headCleaned = context.args.flags.has('head-cleaned');
  const json = context.args.flags.has('json');
  const station = await context.openStation();
  const id = await printerIdFrom(station, given);
  if (context.args.flags.has('changes')) {
    const result = valueOf<{ changes: { changeId: number; operator: string; stationName: string; at: string; saved: boolean; changes: PrinterSettingsChangeData['changes'] }[] }>(
      context,
      await station.dispatcher.dispatch('printers.settingChanges', { id }, { host: 'web' }),
    );
    if (!result) return exitCodes.failed;
    if (json) context.print(JSON.stringify(result.changes, null, 2));
    else for (const entry of result.changes) context.print(`${entry.at}  ${entry.operator} at ${entry.stationName}${entry.saved ? ' (saved)' : ''}: ${entry.changes.map(changeLine).join('; ')}`);
    return exitCodes.ok;
  }
  const changing = Object.keys(change).length > 0 || save || headCleaned;
  if (!changing) {
    const result = valueOf<PrinterSettingsData>(context, await station.dispatcher.dispatch('printers.settings', { id }, { host: 'web' }));
    if (!result) return exitCodes.failed;
    if (json) context.print(JSON.stringify(result, null, 2));
    else printSettings(context, given, result);
    return exitCodes.ok;
  }
  const operator = option(context.args, 'operator');
  const input = { id, ...change, ...(save ? { save } : {}), ...(headCleaned ? { headCleaned } : {}), ...(operator !== undefined ? { operator } : {}) };
  const result = valueOf<PrinterSettingsChangeData>(context, await station.dispatcher.dispatch('printers.changeSettings', input, { host: 'web' }));
  if (!result) return exitCodes.failed;
  if (json) {
    context.print(JSON.stringify(result, null, 2));
    return exitCodes.ok;
  }
  context.print(`${given}: changed by ${result.operator} at ${result.at} (journal entry ${result.changeId}).`);
  for (const entry of result.changes) context.print(`  ${changeLine(entry)}`);
  context.print(result.saved ? '  Saved as the printer’s power-on settings (^JUS).' : '  Not saved: the printer goes back to its saved settings when it is switched off. Add --save to keep them.');
  return exitCodes.ok;
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

const settingNames: Record<string, string> = {
  darkness: 'darkness',
  speed: 'print speed (in/s)',
  mediaType: 'media type',
  tracking: 'media tracking',
  reprintAfterError: 'reprint after error',
  save: 'saved settings',
  headCleaned: 'inches since the printhead was cleaned',
};

function changeLine(entry: PrinterSettingsChangeData['changes'][number]): string {
  const shown = (value: string | number | null) => (value === null ? '?' : String(value));
  return `${settingNames[entry.setting] ?? entry.setting}: ${shown(entry.before)} → ${shown(entry.after)}  (sent ${JSON.stringify(entry.sent)})`;
}

function printSettings(context: CliContext, given: string, settings: PrinterSettingsData): void {
  const value = (known: string | number | null, unit = '') => (known === null ? 'not reported' : `${known}${unit}`);
  context.print(`${given}:`);
  context.print(`  darkness            ${value(settings.darkness)}`);
  context.print(`  print speed         ${value(settings.speedIps, ' in/s')}`);
  context.print(`  media type          ${settings.mediaType === null ? 'not reported' : settings.mediaType === 'direct' ? 'direct thermal' : 'thermal transfer'}`);
  context.print(`  media tracking      ${value(settings.tracking)}`);
  context.print(`  print width         ${value(settings.printWidthDots, ' dots')}`);
  context.print(`  label length        ${value(settings.labelLengthDots, ' dots')}`);
  context.print(`  reprint after error ${settings.reprintAfterError === 'unknown' ? 'not reported' : settings.reprintAfterError}`);
  context.print(`  label counter       ${value(settings.labelCount)}`);
  context.print(`  printhead           ${value(settings.head.sinceCleanedInches, ' in')} since cleaned, ${value(settings.head.headInches, ' in')} on this printhead`);
  if (settings.fromConfiguration.length > 0) context.print(`  (from the printer’s configuration: ${settings.fromConfiguration.join(', ')})`);
  printRoll(context, settings.roll);
  printHead(context, settings.head);
}

function printRoll(context: CliContext, roll: RollFitData): void {
  if (roll.fits === false) for (const sentence of rollSentences(roll)) context.warn(`  The roll does not fit the label. ${sentence}`);
}

function printHead(context: CliContext, head: PrinterSettingsData['head']): void {
  for (const fault of head.faults) context.warn(`  Printhead: ${headFaultWords[fault]}`);
  if (head.cleanNow) context.warn(`  Clean the printhead now: Zebra recommends it after every roll (${ROLL_LENGTH_INCHES} in here); then: printers settings <printer> --head-cleaned.`);
  if (head.replaceWarning) context.warn('  The printer asks for its printhead to be replaced.');
}

const headFaultWords: Record<PrinterSettingsData['head']['faults'][number], string> = {
  'too-hot': 'too hot; printing waits until it cools down.',
  'too-cold': 'too cold; labels may print light.',
  'element-bad': 'a printhead element is broken; labels may have white lines.',
  'thermistor-open': 'its temperature sensor failed; have it serviced.',
  'not-detected': 'the printer does not detect its printhead; check that it is seated.',
};

async function calibrate(context: CliContext, rest: string[]): Promise<number> {
  expectOnly(context.args, { flags: ['json'] });
  const given = onePrinter(rest);
  const station = await context.openStation();
  const id = await printerIdFrom(station, given);
  context.warn(`Calibrating ${given} (~JC): it feeds a few blank labels…`);
  const result = valueOf<{ labelLengthBefore: number | null; labelLengthAfter: number | null; roll: RollFitData; tookMs: number }>(context, await station.dispatcher.dispatch('printers.calibrate', { id }, { host: 'web' }));
  if (!result) return exitCodes.failed;
  if (context.args.flags.has('json')) {
    context.print(JSON.stringify(result, null, 2));
    return exitCodes.ok;
  }
  context.print(`${given} is calibrated and ready (${(result.tookMs / 1000).toFixed(1)} s); label length ${result.labelLengthBefore ?? '?'} → ${result.labelLengthAfter ?? '?'} dots.`);
  printRoll(context, result.roll);
  return exitCodes.ok;
}

async function configLabel(context: CliContext, rest: string[]): Promise<number> {
  expectOnly(context.args, {});
  const given = onePrinter(rest);
  const station = await context.openStation();
  const id = await printerIdFrom(station, given);
  const result = valueOf<{ sent: string }>(context, await station.dispatcher.dispatch('printers.configLabel', { id }, { host: 'web' }));
  if (!result) return exitCodes.failed;
  context.print(`${given} is printing its configuration label (${result.sent}).`);
  return exitCodes.ok;
}
