/**
 * The web host's command line, read before anything starts: `--help` answers with the usage, and a
 * mistyped option or port is refused with what was wrong and the usage, never a bare "Unknown
 * option" from the argument parser.
 */
import { parseArgs } from 'node:util';
import { errorText } from '../../shared/error-text';

export const webHostUsage = [
  'Usage: node out/main/web.js [options]   (or: npm run web -- [options])',
  '',
  'Serves the Packing Station screen to a browser on this computer (127.0.0.1 only) and prints the link',
  'that opens it.',
  '',
  'Options:',
  '  --port <number>          the port to listen on (default: a free one)',
  '  --data-dir <folder>      where the station keeps its database, settings and handover lists',
  '                           (default: the user\'s application data folder)',
  '  --renderer-dir <folder>  the built screen to serve (default: out/renderer beside this file)',
  '  --json                   first print one JSON line { url, launchUrl, environment, dataDir } for scripts',
  '  -h, --help               show this help and exit',
  '',
].join('\n');

export type WebHostCommand =
  | { kind: 'help' }
  | { kind: 'refused'; problem: string }
  | { kind: 'run'; port: number; dataDir: string | undefined; rendererDir: string | undefined; json: boolean };

export function readWebHostArgs(args: readonly string[]): WebHostCommand {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        port: { type: 'string', default: '0' },
        'data-dir': { type: 'string' },
        'renderer-dir': { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (error) {
    // The parser's own sentence names the option ("Unknown option '--prot'"); the usage says what there is.
    return { kind: 'refused', problem: errorText(error) };
  }
  if (values.help) return { kind: 'help' };
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port > 65535) return { kind: 'refused', problem: `--port must be a port number from 0 to 65535, not "${values.port}"` };
  return { kind: 'run', port, dataDir: values['data-dir'], rendererDir: values['renderer-dir'], json: values.json };
}
