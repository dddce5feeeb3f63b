/**
 * What a CLI command is: a name, a line for the help, its usage, and a run function that gets
 * parsed arguments and the terminal. Commands build the station through `context.openStation()`,
 * the same composition root as the app, and make their calls through the contract (station-calls.ts).
 */
import type { Station, StationOptions } from '../composition';
import type { StrayErrors } from '../logging/stray-errors';

export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?(mode: boolean): unknown };
}

export interface ParsedArgs {
  positionals: string[];
  /** `--name value` and `--name=value`; a flag given twice keeps every value. */
  options: Map<string, string[]>;
  /** `--name` without a value. */
  flags: Set<string>;
}

export interface CliContext {
  io: CliIo;
  args: ParsedArgs;
  /** Builds the station over the data folder (from --data-dir or the default). Closed by the CLI after the command. */
  openStation(overrides?: Partial<StationOptions>): Promise<Station>;
  /** Resolves on Ctrl+C or SIGTERM, for commands that serve until stopped. */
  stopped(): Promise<void>;
  print(line: string): void;
  warn(line: string): void;
  /** The process environment (a service account's store password may come from it). */
  env: NodeJS.ProcessEnv;
  /** The OS keychain service the station's secrets are filed under. */
  keychainService: string;
  /** Runs `close` once the command ended and the station it built was closed (a store it opened, for example). */
  afterStation(close: () => Promise<void>): void;
  /**
   * For a command that serves until stopped: an error nobody caught is logged with its stack and
   * counted, and the process goes on. Undefined where the CLI runs inside another program (tests).
   */
  keepServingAfterStrayErrors(): StrayErrors | undefined;
}

export interface CliCommand {
  name: string;
  summary: string;
  usage: string;
  /** Options that take a value; anything else starting with -- is a flag. */
  valueOptions?: readonly string[];
  run(context: CliContext): Promise<number>;
}

/** Exit codes: 0 done, 1 the station said no (the message says why), 2 the command line was wrong. */
/** `unsettled`: a print left the printer with the label but without its proof (a wait limit, Ctrl+C). */
export const exitCodes = { ok: 0, failed: 1, usage: 2, unsettled: 3 } as const;

export class UsageError extends Error {}
