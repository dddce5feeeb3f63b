// SumatraPDF is a Windows program, so a shell script stands in for it here: a real process that
// receives the real arguments and the real temporary PDF, and records both.
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterEach, describe, expect, it } from 'vitest';
import { createCommandRunner } from '../../../src/main/printing/transports/command-runner';
import { PrinterTransportError } from '../../../src/main/printing/transports/transport';
import { createSumatraPdfTransport, sumatraCandidates } from '../../../src/main/printing/transports/windows-pdf';

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

async function standIn(body: string): Promise<{ path: string; capture: string; temp: string }> {
  const folder = await mkdtemp(join(tmpdir(), 'sumatra-stand-in-'));
  folders.push(folder);
  const capture = join(folder, 'capture');
  const temp = join(folder, 'temp');
  await Promise.all([mkdir(capture), mkdir(temp)]);
  const path = join(folder, 'SumatraPDF.sh');
  await writeFile(path, `#!/bin/sh\n${body.replaceAll('$CAPTURE', capture)}\n`);
  await chmod(path, 0o755);
  return { path, capture, temp };
}

const RECORD = 'for arg in "$@"; do printf "%s\\n" "$arg"; done > "$CAPTURE/args"\nfor last in "$@"; do :; done\ncp "$last" "$CAPTURE/printed.pdf"';

async function pdf(): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  document.addPage([298, 420]).drawText('A6 label');
  return document.save();
}

describe('PDF printing on Windows through SumatraPDF (stand-in process)', () => {
  it('runs -print-to with the printer, fit scaling and a temporary PDF it removes afterwards', async () => {
    const sumatra = await standIn(`${RECORD}\nexit 0`);
    const transport = createSumatraPdfTransport({
      printerName: 'ZDesigner ZD421-203dpi',
      sumatraPath: sumatra.path,
      runner: createCommandRunner(),
      tempDir: sumatra.temp,
    });
    const document = await pdf();
    const result = await transport.send(document, { jobName: 'Bundle B-7' });

    expect(result).toEqual({ bytesWritten: document.byteLength, confirmed: false });
    const args = (await readFile(join(sumatra.capture, 'args'), 'utf8')).trim().split('\n');
    expect(args.slice(0, 5)).toEqual(['-print-to', 'ZDesigner ZD421-203dpi', '-print-settings', 'fit', '-silent']);
    expect(args[5]).toMatch(/Bundle-B-7\.pdf$/);
    expect(new Uint8Array(await readFile(join(sumatra.capture, 'printed.pdf')))).toEqual(document);
    await expect(stat(args[5]!)).rejects.toThrow();
  });

  it('reports a failed print with SumatraPDF’s exit code', async () => {
    const sumatra = await standIn('echo "printer not found" >&2\nexit 1');
    const transport = createSumatraPdfTransport({ printerName: 'Gone', sumatraPath: sumatra.path, runner: createCommandRunner(), tempDir: sumatra.temp });
    const error = (await transport.send(await pdf()).catch((caught: unknown) => caught)) as PrinterTransportError;
    expect(error).toBeInstanceOf(PrinterTransportError);
    expect(error.message).toBe('SumatraPDF could not print to Windows printer "Gone".');
    expect(error.details).toEqual(['Exit code 1: printer not found']);
    expect(error.delivery).toBe('none');
  });

  it('says where SumatraPDF was looked for when it is missing', async () => {
    const transport = createSumatraPdfTransport({ printerName: 'Zebra', sumatraPath: '/nonexistent/SumatraPDF.exe', runner: createCommandRunner() });
    const error = (await transport.send(await pdf()).catch((caught: unknown) => caught)) as PrinterTransportError;
    expect(error.message).toBe('SumatraPDF, which prints PDF labels on Windows, was not found at /nonexistent/SumatraPDF.exe.');
  });

  it('gives up on a print that hangs, as unconfirmed', async () => {
    const sumatra = await standIn('sleep 5');
    const transport = createSumatraPdfTransport({
      printerName: 'Zebra',
      sumatraPath: sumatra.path,
      runner: createCommandRunner(),
      tempDir: sumatra.temp,
      timeoutMs: 300,
    });
    const error = (await transport.send(await pdf()).catch((caught: unknown) => caught)) as PrinterTransportError;
    expect(error.code).toBe('PRINTER_OFFLINE');
    expect(error.delivery).toBe('unconfirmed');
  });

  it('sends only PDFs', async () => {
    const transport = createSumatraPdfTransport({ printerName: 'Zebra', sumatraPath: '/bin/true', runner: createCommandRunner() });
    const error = (await transport.send(new TextEncoder().encode('^XA^XZ')).catch((caught: unknown) => caught)) as PrinterTransportError;
    expect(error.failure).toBe('rejected');
  });

  it('looks for SumatraPDF next to the station first', () => {
    expect(sumatraCandidates({ LOCALAPPDATA: '/l', ProgramFiles: '/p' }, '/app/resources')).toEqual([
      join('/app/resources', 'SumatraPDF', 'SumatraPDF.exe'),
      join('/l', 'SumatraPDF', 'SumatraPDF.exe'),
      join('/p', 'SumatraPDF', 'SumatraPDF.exe'),
    ]);
  });
});
