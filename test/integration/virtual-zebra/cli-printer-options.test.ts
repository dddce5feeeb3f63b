// The sandbox command line's printer options reach the virtual printers: what they answer over
// the wire is what the command line asked for.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { connect, quotedValue } from './raw-client';
import { childScript } from '../../support/child-scripts';

function runCli(args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [childScript('src/sandbox/cli.ts'), ...args], { cwd: process.cwd(), stdio: 'pipe' });
}

function firstLine(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`exited with ${code} before printing`)));
  });
}

const exited = (child: ChildProcessWithoutNullStreams) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

describe('sandbox CLI printer options', () => {
  it('starts printers with the given resolution, head width, model, serials, counter and buffer', async () => {
    const child = runCli([
      '--orders', '5', '--pickup-points', '100', '--printers', '2',
      '--printer-dpi', '300', '--printer-width', '1248', '--printer-model', 'ZT411-300dpi',
      '--printer-serial', 'ZT411A0001', '--printer-serial', 'ZT411A0002',
      '--printer-odometer', '12345', '--printer-buffer', '4096',
    ]);
    try {
      const description = JSON.parse(await firstLine(child));
      const answers = [];
      for (const { port } of description.printers as { port: number }[]) {
        const client = await connect(port);
        const ask = async (name: string) => (await client.ask(`! U1 getvar "${name}"\r\n`, quotedValue)).slice(1, -1);
        answers.push({
          hi: await client.ask('~HI', (reply) => reply.endsWith('\x03\r\n')),
          dpi: await ask('head.resolution.in_dpi'),
          width: await ask('ezpl.print_width'),
          serial: await ask('device.unique_id'),
          odometer: await ask('odometer.total_label_count'),
        });
        await client.close();
      }
      expect(answers).toEqual([
        { hi: '\x02ZT411-300dpi,V84.20.18Z,12,8176KB\x03\r\n', dpi: '300', width: '1248', serial: 'ZT411A0001', odometer: '12345' },
        { hi: '\x02ZT411-300dpi,V84.20.18Z,12,8176KB\x03\r\n', dpi: '300', width: '1248', serial: 'ZT411A0002', odometer: '12345' },
      ]);
      const control = await fetch(`${description.control.baseUrl}/printers/0`, { headers: { authorization: `Bearer ${description.control.token}` } });
      expect(((await control.json()) as { receiveBufferBytes: number }).receiveBufferBytes).toBe(4096);
    } finally {
      child.kill('SIGTERM');
      await exited(child);
    }
  });

  it('refuses a resolution out of range, naming the option', async () => {
    const child = runCli(['--printer-dpi', '42']);
    const stderr: Buffer[] = [];
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    expect(await exited(child)).toBe(2);
    expect(Buffer.concat(stderr).toString()).toContain('printerDpi');
  });
});
