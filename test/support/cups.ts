import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { waitUntil } from './wait-until';

/**
 * A private CUPS scheduler for tests: its own config, spool and state in a temp folder, listening
 * only on a Unix socket there, run in the foreground (`cupsd -f -c … -s …`). lp and lpstat reach
 * it through CUPS_SERVER=<socket>, so the machine's own CUPS (if any) is never touched. cupsd needs
 * root; when it cannot start, startPrivateCups throws (tests fail, they do not skip).
 */

const run = promisify(execFile);

export interface PrivateCups {
  /** The Unix socket the scheduler listens on. */
  socketPath: string;
  /** Environment for lp, lpstat and lpadmin: CUPS_SERVER and the C locale. */
  env: Record<string, string>;
  /** A raw queue (no filters) that forwards jobs to a TCP port on 127.0.0.1. */
  addRawQueue(name: string, port: number): Promise<void>;
  /** A queue with the Generic PDF printer driver (cups-filters): it takes PDFs and sends PDF to the port. */
  addPdfQueue(name: string, port: number): Promise<void>;
  /** Runs a CUPS admin command (lpadmin, cupsdisable, cupsreject …) against this scheduler. */
  admin(command: string, args: string[]): Promise<{ stdout: string; stderr: string }>;
  /** The scheduler's error log, for failure messages. */
  errorLog(): Promise<string>;
  stop(): Promise<void>;
}

// snmp=false: otherwise the socket backend first asks the "printer" for SNMP status and waits
// seconds for an answer a test socket never gives.
const socketUri = (port: number): string => `socket://127.0.0.1:${port}/?snmp=false`;

export const GENERIC_PDF_PPD = '/usr/share/ppd/cupsfilters/Generic-PDF_Printer-PDF.ppd';
const START_TIMEOUT_MS = 15_000;

export async function startPrivateCups(): Promise<PrivateCups> {
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    throw new Error('The CUPS tests start their own cupsd, which needs root: run the integration tests as root (CI does).');
  }
  const root = await mkdtemp(join(tmpdir(), 'station-cups-'));
  // cupsd drops to user lp for filters and backends; they must be able to reach the spool below.
  await chmod(root, 0o755);
  // cupsd creates its spool, cache and state folders but insists that TempDir exists.
  await mkdir(join(root, 'tmp'), { mode: 0o755 });
  const socketPath = join(root, 'cups.sock');
  const filesConf = join(root, 'cups-files.conf');
  const cupsdConf = join(root, 'cupsd.conf');
  await writeFile(
    filesConf,
    [
      `ServerRoot ${root}`,
      `RequestRoot ${join(root, 'spool')}`,
      `CacheDir ${join(root, 'cache')}`,
      `StateDir ${join(root, 'state')}`,
      `TempDir ${join(root, 'tmp')}`,
      `ErrorLog ${join(root, 'error_log')}`,
      `AccessLog ${join(root, 'access_log')}`,
      `PageLog ${join(root, 'page_log')}`,
      'SystemGroup root',
      'User lp',
      'Group lp',
      'FileDevice No',
      '',
    ].join('\n'),
  );
  await writeFile(
    cupsdConf,
    [
      `Listen ${socketPath}`,
      'Browsing No',
      'BrowseLocalProtocols none',
      'WebInterface No',
      'LogLevel warn',
      'DefaultAuthType None',
      // Jobs should not linger in the history of a throwaway scheduler.
      'PreserveJobHistory No',
      '<Location />',
      '  Order allow,deny',
      '  Allow all',
      '</Location>',
      '<Policy default>',
      '  JobPrivateAccess all',
      '  JobPrivateValues none',
      '  SubscriptionPrivateAccess all',
      '  SubscriptionPrivateValues none',
      '  <Limit All>',
      '    Order allow,deny',
      '    Allow all',
      '  </Limit>',
      '</Policy>',
      '',
    ].join('\n'),
  );

  const env = { CUPS_SERVER: socketPath, LANG: 'C', LC_ALL: 'C' };
  let output = '';
  let child: ChildProcess;
  try {
    child = spawn('cupsd', ['-f', '-c', cupsdConf, '-s', filesConf], { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw new Error('cupsd could not be started: install the Debian package cups-daemon', { cause: error });
  }
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let spawnError: Error | null = null;
  child.once('error', (error) => (spawnError = error));

  const readLog = async (): Promise<string> => readFile(join(root, 'error_log'), 'utf8').catch(() => '');
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(killer);
    }
    await rm(root, { recursive: true, force: true });
  };

  // Until the scheduler answers, or has ended: either way the wait is over, and cupsd's log says why.
  const schedulerAnswers = () =>
    run('lpstat', ['-r'], { env: { ...process.env, ...env } }).then(
      (result) => /scheduler is running/i.test(result.stdout),
      () => false,
    );
  const answered = await waitUntil(async () => Boolean(spawnError) || child.exitCode !== null || (await schedulerAnswers()), 'cupsd to answer', START_TIMEOUT_MS, 50).then(
    () => !spawnError && child.exitCode === null,
    () => null,
  );
  if (answered !== true) {
    const log = await readLog();
    await stop();
    const why = answered === null ? `did not answer within ${START_TIMEOUT_MS} ms` : `did not start: ${String(spawnError ?? `exit code ${child.exitCode}`)}`;
    throw new Error(`cupsd ${why}\n${output}\n${log}`);
  }

  const admin = async (command: string, args: string[]) => {
    try {
      return await run(command, args, { env: { ...process.env, ...env } });
    } catch (error) {
      const failed = error as { stderr?: string };
      throw new Error(`${command} ${args.join(' ')} failed: ${failed.stderr ?? String(error)}`, { cause: error });
    }
  };

  return {
    socketPath,
    env,
    // `-m raw` is deprecated in CUPS 2.4 (it warns) but still makes a queue that passes bytes untouched.
    addRawQueue: async (name, port) => void (await admin('lpadmin', ['-p', name, '-E', '-v', socketUri(port), '-m', 'raw'])),
    addPdfQueue: async (name, port) => void (await admin('lpadmin', ['-p', name, '-E', '-v', socketUri(port), '-P', GENERIC_PDF_PPD])),
    admin,
    errorLog: readLog,
    stop,
  };
}

export interface CapturedConnection {
  bytes: Buffer;
  /** The peer closed its side: the whole job has arrived. */
  ended: boolean;
}

/** A plain TCP sink on 127.0.0.1 that records what each connection sent (a stand-in printer for PDFs). */
export interface CaptureServer {
  port: number;
  connections(): CapturedConnection[];
  /** Resolves once `count` connections have sent everything and closed their side. */
  waitForJobs(count: number, timeoutMs?: number): Promise<CapturedConnection[]>;
  stop(): Promise<void>;
}

export async function startCaptureServer(): Promise<CaptureServer> {
  const records: CapturedConnection[] = [];
  const sockets = new Set<net.Socket>();
  const waiters = new Set<() => void>();
  const notify = (): void => {
    for (const waiter of [...waiters]) waiter();
  };
  const server = net.createServer({ allowHalfOpen: true }, (socket) => {
    const record: CapturedConnection = { bytes: Buffer.alloc(0), ended: false };
    records.push(record);
    sockets.add(socket);
    socket.on('data', (chunk: Buffer) => {
      record.bytes = Buffer.concat([record.bytes, chunk]);
    });
    socket.on('end', () => {
      record.ended = true;
      socket.end();
      notify();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port: 0 }, resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    connections: () => records.map((record) => ({ ...record })),
    waitForJobs(count, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const done = records.filter((record) => record.ended);
          if (done.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(done.map((record) => ({ ...record })));
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`Only ${records.filter((record) => record.ended).length} of ${count} jobs arrived in ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
