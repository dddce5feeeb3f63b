import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * Reads barcodes the way a scanner would: from pixels. PNGs go to zbarimg (Debian zbar-tools),
 * PDFs are first rasterised with pdftoppm (poppler-utils).
 */

const run = promisify(execFile);

export interface DecodedBarcode {
  /** zbar's symbology name, e.g. CODE-128, QR-Code. */
  symbology: string;
  data: string;
}

async function withTempDir<T>(use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'barcode-'));
  try {
    return await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const missingTool = (tool: string, pkg: string, cause: unknown) =>
  new Error(`${tool} is needed to read barcodes from images: install the Debian package ${pkg}`, { cause });

async function zbarFile(path: string): Promise<DecodedBarcode[]> {
  let stdout: string;
  try {
    ({ stdout } = await run('zbarimg', ['--quiet', '--nodbus', path], { encoding: 'utf8' }));
  } catch (error) {
    // execFile reports a spawn failure as a string code and a non-zero exit as a numeric one.
    const code: unknown = (error as { code?: unknown }).code;
    if (code === 'ENOENT') throw missingTool('zbarimg', 'zbar-tools', error);
    // Exit status 4 means the image was read and holds no barcode.
    if (code === 4) return [];
    throw error;
  }
  return stdout
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => {
      const colon = line.indexOf(':');
      return { symbology: line.slice(0, colon), data: line.slice(colon + 1) };
    });
}

/** Every barcode zbar finds in a PNG (or any image format zbar reads). */
export async function decodeBarcodesFromPng(png: Uint8Array): Promise<DecodedBarcode[]> {
  return withTempDir(async (dir) => {
    const path = join(dir, 'image.png');
    await writeFile(path, png);
    return zbarFile(path);
  });
}

/** Rasterises each page of a PDF to a PNG at the given resolution (default 200 dpi). */
export async function rasterisePdf(pdf: Uint8Array, options: { dpi?: number } = {}): Promise<Buffer[]> {
  return withTempDir(async (dir) => {
    const input = join(dir, 'document.pdf');
    await writeFile(input, pdf);
    try {
      await run('pdftoppm', ['-r', String(options.dpi ?? 200), '-png', input, join(dir, 'page')]);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw missingTool('pdftoppm', 'poppler-utils', error);
      throw error;
    }
    // pdftoppm names pages page-1.png or page-01.png ... depending on the page count.
    const pages = (await readdir(dir))
      .filter((name) => /^page-\d+\.png$/.test(name))
      .sort((a, b) => Number(a.replace(/\D/g, '')) - Number(b.replace(/\D/g, '')));
    return Promise.all(pages.map((name) => readFile(join(dir, name))));
  });
}

/** The barcodes on each page of a PDF, page by page. */
export async function decodeBarcodesFromPdf(pdf: Uint8Array, options: { dpi?: number } = {}): Promise<DecodedBarcode[][]> {
  const pages = await rasterisePdf(pdf, options);
  const decoded: DecodedBarcode[][] = [];
  for (const page of pages) decoded.push(await decodeBarcodesFromPng(page));
  return decoded;
}
