import { ScaleSettingSchema, SerialProtocolSchema, type ScaleReadingData, type ScaleSetting } from '../../../shared/contract/scales';
import { StationError } from '../../../shared/errors';
import { createLogger } from '../../logging/logger';
import { createScaleService } from '../../scales/scale-service';
import { listHidScales } from '../../scales/hid-scale';
import { listSerialPorts } from '../../scales/serial-ports';
import { expectOnly, numberOption, option } from '../args';
import { exitCodes, UsageError, type CliCommand, type CliContext } from '../command';
import { json } from '../output';

const readOptions = ['device', 'protocol', 'baud', 'data-bits', 'parity', 'timeout', 'hid'] as const;

export const scaleCommand: CliCommand = {
  name: 'scale',
  summary: "List the serial ports and HID scales, or read the bench's scale",
  usage: [
    'scale list [--json]',
    'scale read [--device <path>] [--protocol mt-sics|toledo-continuous] [--json]',
    '  --device      a serial port (/dev/ttyUSB0, COM3) to read instead of the scale set up in Setup',
    '  --hid         vendor:product in hex (0922:8003) of a HID scale to read instead',
    '  --protocol    with --device: mt-sics (default) or toledo-continuous',
    '  --baud        with --device: 9600 by default; --data-bits 8, --parity none|even|odd; --checksum for Toledo',
    '  --timeout     seconds to wait for a stable weight (default 5)',
    '  Prints the stable weight in grams; with --json {"grams":…,"stable":true|false}. Exit 1 when no stable weight came.',
  ].join('\n'),
  valueOptions: [...readOptions],
  async run(context) {
    const [verb, ...rest] = context.args.positionals;
    if (rest.length > 0) throw new UsageError('scale takes no further arguments.');
    if (verb === 'list') return list(context);
    if (verb === 'read') return read(context);
    throw new UsageError(verb === undefined ? 'Say what to do: list or read.' : `Unknown scale command "${verb}".`);
  },
};

async function list(context: CliContext): Promise<number> {
  expectOnly(context.args, { flags: ['json'] });
  const [serialPorts, hidScales] = await Promise.all([listSerialPorts().catch(() => []), listHidScales().catch(() => [])]);
  if (context.args.flags.has('json')) {
    context.print(json({ serialPorts, hidScales }));
    return exitCodes.ok;
  }
  context.print(serialPorts.length === 0 ? 'No serial ports.' : 'Serial ports:');
  for (const port of serialPorts) context.print(`  ${port.path}${port.manufacturer ? `  ${port.manufacturer}` : ''}${port.vendorId ? `  (${port.vendorId}:${port.productId ?? '?'})` : ''}`);
  context.print(hidScales.length === 0 ? 'No HID scales.' : 'HID scales:');
  for (const scale of hidScales) context.print(`  ${hex(scale.vendorId)}:${hex(scale.productId)}  ${[scale.manufacturer, scale.product].filter(Boolean).join(' ')}`);
  return exitCodes.ok;
}

const hex = (value: number) => value.toString(16).padStart(4, '0');

/** The scale named on the command line, or null to use the bench's. */
function settingFromArgs(context: CliContext): ScaleSetting | null {
  const device = option(context.args, 'device');
  const hid = option(context.args, 'hid');
  if (device !== undefined && hid !== undefined) throw new UsageError('Give --device or --hid, not both.');
  if (hid !== undefined) {
    const match = /^([0-9a-f]{4}):([0-9a-f]{4})$/i.exec(hid);
    if (!match) throw new UsageError('--hid is vendor:product in hex, such as 0922:8003.');
    return { kind: 'hid', vendorId: parseInt(match[1]!, 16), productId: parseInt(match[2]!, 16), path: null };
  }
  if (device === undefined) {
    for (const name of ['protocol', 'baud', 'data-bits', 'parity']) if (option(context.args, name) !== undefined) throw new UsageError(`--${name} goes with --device.`);
    return null;
  }
  const protocol = SerialProtocolSchema.safeParse(option(context.args, 'protocol') ?? 'mt-sics');
  if (!protocol.success) throw new UsageError('--protocol is mt-sics or toledo-continuous.');
  const parsed = ScaleSettingSchema.safeParse({
    kind: 'serial',
    path: device,
    protocol: protocol.data,
    baudRate: numberOption(context.args, 'baud') ?? 9600,
    dataBits: numberOption(context.args, 'data-bits') ?? 8,
    parity: option(context.args, 'parity') ?? 'none',
    checksum: context.args.flags.has('checksum'),
  });
  if (!parsed.success) throw new UsageError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
  return parsed.data;
}

async function read(context: CliContext): Promise<number> {
  expectOnly(context.args, { flags: ['json', 'checksum'], options: [...readOptions] });
  const timeoutSeconds = numberOption(context.args, 'timeout') ?? 5;
  if (timeoutSeconds < 1 || timeoutSeconds > 120) throw new UsageError('--timeout is 1 to 120 seconds.');
  const named = settingFromArgs(context);
  let scale;
  if (named) {
    let setting: ScaleSetting | null = named;
    scale = createScaleService({ setting: () => setting, saveSetting: (next) => (setting = next), emit: () => undefined, logger: createLogger((line) => context.warn(line), { level: 'warn' }) });
  } else {
    scale = (await context.openStation()).host.scale;
  }
  try {
    await scale.start();
    const stable = await scale.waitForStable(timeoutSeconds * 1000);
    if (context.args.flags.has('json')) context.print(JSON.stringify({ grams: stable.grams, stable: true }));
    else context.print(`${stable.grams} g${stable.zero ? ' (zero)' : ''}${stable.net ? ` net${stable.tareGrams !== null ? `, tare ${stable.tareGrams} g` : ''}` : ''}`);
    return exitCodes.ok;
  } catch (error) {
    if (!(error instanceof StationError)) throw error;
    const last: ScaleReadingData = scale.current();
    const grams = last.state === 'settling' ? last.grams : null;
    const condition = last.state === 'condition' ? last.condition : last.state === 'settling' ? 'motion' : error.code === 'SCALE_NOT_CONFIGURED' ? 'none' : 'disconnected';
    if (context.args.flags.has('json')) context.print(JSON.stringify({ grams, stable: false, condition }));
    context.warn(`${error.message} [${error.code}]`);
    return exitCodes.failed;
  } finally {
    if (named) await scale.close();
  }
}
