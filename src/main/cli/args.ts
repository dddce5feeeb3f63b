import { UsageError, type ParsedArgs } from './command';

/**
 * A small, strict argument reader: positionals, `--name value` / `--name=value` for the options a
 * command declares, `--flag` for everything else, and `--` to end options (a scan may start with -).
 */
export function parseArgs(argv: readonly string[], valueOptions: readonly string[] = []): ParsedArgs {
  const positionals: string[] = [];
  const options = new Map<string, string[]>();
  const flags = new Set<string>();
  let onlyPositionals = false;
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] ?? '';
    if (onlyPositionals || !arg.startsWith('--') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    if (arg === '--') {
      onlyPositionals = true;
      continue;
    }
    const equals = arg.indexOf('=');
    const name = arg.slice(2, equals < 0 ? undefined : equals);
    if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new UsageError(`"${arg}" is not an option.`);
    if (valueOptions.includes(name)) {
      const value = equals < 0 ? argv[(index += 1)] : arg.slice(equals + 1);
      if (value === undefined) throw new UsageError(`--${name} needs a value.`);
      options.set(name, [...(options.get(name) ?? []), value]);
    } else {
      if (equals >= 0) throw new UsageError(`--${name} takes no value.`);
      flags.add(name);
    }
  }
  return { positionals, options, flags };
}

export const option = (args: ParsedArgs, name: string): string | undefined => args.options.get(name)?.at(-1);

export function numberOption(args: ParsedArgs, name: string): number | undefined {
  const text = option(args, name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value)) throw new UsageError(`--${name} needs a whole number, got "${text}".`);
  return value;
}

/** Refuses flags and options the command does not know, so a typo is not silently ignored. */
export function expectOnly(args: ParsedArgs, known: { flags?: readonly string[]; options?: readonly string[] }): void {
  for (const flag of args.flags) if (!(known.flags ?? []).includes(flag)) throw new UsageError(`Unknown option --${flag}.`);
  for (const name of args.options.keys()) if (!(known.options ?? []).includes(name)) throw new UsageError(`Unknown option --${name}.`);
}
