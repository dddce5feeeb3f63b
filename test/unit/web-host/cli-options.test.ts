import { describe, expect, it } from 'vitest';
import { readWebHostArgs, webHostUsage } from '../../../src/main/web-host/cli-options';

describe('the web host’s command line', () => {
  it('answers --help and -h with the usage, which names every option', () => {
    expect(readWebHostArgs(['--help'])).toEqual({ kind: 'help' });
    expect(readWebHostArgs(['-h', '--port', '8080'])).toEqual({ kind: 'help' });
    for (const option of ['--port', '--data-dir', '--renderer-dir', '--json', '--help']) expect(webHostUsage).toContain(option);
  });

  it('runs with the options given, a free port by default', () => {
    expect(readWebHostArgs([])).toEqual({ kind: 'run', port: 0, dataDir: undefined, rendererDir: undefined, json: false });
    expect(readWebHostArgs(['--port', '8080', '--data-dir', '/srv/bench', '--json'])).toEqual({ kind: 'run', port: 8080, dataDir: '/srv/bench', rendererDir: undefined, json: true });
  });

  it('refuses a mistyped option or a port that is no port, saying which', () => {
    expect(readWebHostArgs(['--prot', '8080'])).toMatchObject({ kind: 'refused', problem: expect.stringContaining("'--prot'") });
    expect(readWebHostArgs(['--port', '99999'])).toEqual({ kind: 'refused', problem: '--port must be a port number from 0 to 65535, not "99999"' });
    expect(readWebHostArgs(['--port', '80a'])).toMatchObject({ kind: 'refused' });
    expect(readWebHostArgs(['--port', '-1'])).toMatchObject({ kind: 'refused' });
  });
});
