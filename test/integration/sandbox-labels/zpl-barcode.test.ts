import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { parseLabelData } from '../../../src/sandbox/labels/label-data';
import { a6Dots, layoutLabel, type BarcodeElement } from '../../../src/sandbox/labels/layout';
import { renderZplToPng } from '../../../src/sandbox/labels/render';
import { renderZplLabel } from '../../../src/sandbox/labels/zpl';
import { decodeBarcodesFromPng } from '../../support/barcode';
import { bundleOf, labelFixture } from '../../unit/sandbox-labels/label-fixture';

const pngSize = (png: Buffer) => [png.readUInt32BE(16), png.readUInt32BE(20)];

/** Dark pixels along one line of the image: the first and last, as printer dots. */
async function darkExtent(png: Buffer, line: { row: number } | { column: number }): Promise<[number, number]> {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const { data, width, height } = context.getImageData(0, 0, image.width, image.height);
  const dark: number[] = [];
  const length = 'row' in line ? width : height;
  for (let i = 0; i < length; i += 1) {
    const [x, y] = 'row' in line ? [i, line.row] : [line.column, i];
    if ((data[(y * width + x) * 4] ?? 255) < 128) dark.push(i);
  }
  return [dark[0] ?? -1, dark.at(-1) ?? -1];
}

const barcodeOf = (orientation: 'portrait' | 'landscape', barcode: string): BarcodeElement => {
  const element = layoutLabel(parseLabelData(labelFixture({ barcode })), orientation).elements.find((e) => e.kind === 'barcode');
  if (element?.kind !== 'barcode') throw new Error('layout has no barcode');
  return element;
};

describe('ZPL label printed and scanned', () => {
  it.each([
    ['portrait', 'JVGL0612345678'],
    ['landscape', 'JVGL0612345678'],
    ['portrait', '00340434161094042557'],
    ['landscape', 'NL-2024/7.5+A1234567'],
  ] as const)('%s label: the scanner reads %s as Code 128', async (orientation, barcode) => {
    const zpl = renderZplLabel(labelFixture({ barcode, bundle: bundleOf(1, 2) }), orientation);
    const png = await renderZplToPng(zpl);
    expect(pngSize(png)).toEqual([840, 1184]);
    expect(await decodeBarcodesFromPng(png)).toEqual([{ symbology: 'CODE-128', data: barcode }]);

    // The printer's automatic code sets give the width the layout reserved, so the quiet zones stay clear.
    const element = barcodeOf(orientation, barcode);
    const symbolDots = element.symbol.modules * element.moduleWidth;
    const middle = element.y + element.height / 2;
    const extent =
      orientation === 'portrait'
        ? await darkExtent(png, { row: middle })
        : await darkExtent(png, { column: a6Dots.short - middle });
    expect(extent).toEqual([element.x, element.x + symbolDots - 1]);
  });

  it('reads nothing from a label without a barcode, so the decoding above means something', async () => {
    const png = await renderZplToPng('^XA^FO50,50^A0N,40,40^FDNo barcode here^FS^XZ');
    expect(await decodeBarcodesFromPng(png)).toEqual([]);
  });

  it('refuses input that is not ZPL and options outside a printer', async () => {
    await expect(renderZplToPng('%PDF-1.7')).rejects.toThrow(TypeError);
    await expect(renderZplToPng('^XA^XZ', { dpmm: 0 })).rejects.toThrow();
  });
});
