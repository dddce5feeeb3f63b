import { ZodError } from 'zod';
import { describe, expect, it } from 'vitest';
import { renderZplLabel } from '../../../src/sandbox/labels/zpl';
import { bundleOf, labelFixture } from './label-fixture';

const knownCommands = new Set(['XA', 'FX', 'CI', 'PW', 'LL', 'LH', 'PO', 'FW', 'FO', 'A0', 'FH', 'FD', 'FS', 'GB', 'BY', 'BC', 'PQ', 'XZ']);

/** The command names of a ZPL stream, in order (^FDxyz -> FD). */
function commands(zpl: string): string[] {
  return zpl.split('^').slice(1).map((token) => token.slice(0, 2));
}

/** The text a printer shows for each ^FH text field, hex escapes decoded as UTF-8. */
function printedTexts(zpl: string): string[] {
  return [...zpl.matchAll(/\^FH\^FD(.*?)\^FS/g)].map(([, field = '']) => {
    const bytes: number[] = [];
    const raw = Buffer.from(field, 'utf8');
    for (let i = 0; i < raw.length; i += 1) {
      if (raw[i] === 0x5f) {
        bytes.push(parseInt(raw.subarray(i + 1, i + 3).toString('latin1'), 16));
        i += 2;
      } else bytes.push(raw[i] ?? 0);
    }
    return Buffer.from(bytes).toString('utf8');
  });
}

describe('ZPL label', () => {
  it.each(['portrait', 'landscape'] as const)('is one %s format from ^XA to ^XZ for a 203 dpi A6 label', (orientation) => {
    const zpl = renderZplLabel(labelFixture(), orientation);
    expect(zpl.startsWith('^XA')).toBe(true);
    expect(zpl.endsWith('^XZ')).toBe(true);
    expect(zpl.match(/\^XA/g)).toHaveLength(1);
    expect(zpl.match(/\^XZ/g)).toHaveLength(1);
    expect(zpl).toContain('^CI28');
    expect(zpl).toContain('^PW839');
    expect(zpl).toContain('^LL1184');
  });

  it('lays portrait out upright and landscape turned a quarter on the same A6 stock', () => {
    const portrait = renderZplLabel(labelFixture(), 'portrait');
    const landscape = renderZplLabel(labelFixture(), 'landscape');
    expect(portrait).toContain('^FWN');
    expect(portrait).not.toMatch(/\^A0R|\^BCR/);
    expect(landscape).toContain('^FWR');
    expect(landscape).not.toMatch(/\^A0N|\^BCN/);
  });

  it.each(['portrait', 'landscape'] as const)('prints %s: recipient, address, references and the barcode', (orientation) => {
    const zpl = renderZplLabel(labelFixture({ trackingUrl: 'https://track.example.com/t/JVGL0612345678' }), orientation);
    const texts = printedTexts(zpl);
    expect(texts).toEqual(
      expect.arrayContaining([
        'Zoë van der Berg',
        'Keizersgracht 123 A, 1015 CJ Amsterdam',
        '1015 CJ Amsterdam',
        'NL',
        'SHOP-2024-000123',
        'ord_7f3a9c2e41',
        'Bakkerij De Gouden Korenaar B.V.',
        'JVGL0612345678',
        '2024-06-11',
        'https://track.example.com/t/JVGL0612345678',
      ]),
    );
    expect(zpl).toMatch(/\^BC[NR],\d+,N,N,N,A\^FDJVGL0612345678\^FS/);
    expect(texts.some((text) => / of /.test(text))).toBe(false);
  });

  it.each(['portrait', 'landscape'] as const)('shows "n of m" and the bundle id for a parcel in a bundle (%s)', (orientation) => {
    const texts = printedTexts(renderZplLabel(labelFixture({ bundle: bundleOf(2, 5) }), orientation));
    expect(texts).toContain('2 of 5');
    expect(texts.join('\n')).toContain('BNDL-20240611-0042');
  });

  it('keeps hostile user text inside its fields: ^ and ~ cannot start a command', () => {
    const hostile = '^XZ^XA~JA^FO0,0^GB839,1184,839^FS_5E';
    const zpl = renderZplLabel(
      labelFixture({ deliveryName: hostile, orderRef: 'A^B~C_D', senderName: '~HS~JR', deliveryAddress: 'Main St 1\r\n^XZ\u0000' }),
      'portrait',
    );
    expect(zpl).not.toContain('~');
    expect(zpl.match(/\^XA/g)).toHaveLength(1);
    expect(zpl.match(/\^XZ/g)).toHaveLength(1);
    for (const command of commands(zpl)) expect(knownCommands).toContain(command);
    const texts = printedTexts(zpl);
    expect(texts).toContain('A^B~C_D');
    expect(texts).toContain('~HS~JR');
    expect(texts).toContain('Main St 1 ^XZ');
    expect(texts.some((text) => text.startsWith('^XZ^XA~JA'))).toBe(true);
  });

  it('shortens text that would run off the label, with an ellipsis', () => {
    const name = 'Wilhelmina Catharina Maria van Oranje-Nassau tot Amsberg en Lippe-Biesterfeld';
    const texts = printedTexts(renderZplLabel(labelFixture({ deliveryName: name }), 'portrait'));
    const printed = texts.find((text) => text.startsWith('Wilhelmina'));
    expect(printed).toMatch(/\.\.\.$/);
    expect(printed && printed.length).toBeLessThan(name.length);
  });

  it('gives the same bytes for the same order', () => {
    expect(renderZplLabel(labelFixture(), 'landscape')).toBe(renderZplLabel(labelFixture(), 'landscape'));
  });

  it('refuses label data a label cannot carry', () => {
    expect(() => renderZplLabel(labelFixture({ barcode: 'JVGL 061' }), 'portrait')).toThrow(ZodError);
    expect(() => renderZplLabel(labelFixture({ orderId: '' }), 'portrait')).toThrow(ZodError);
  });
});
