import { describe, expect, it } from 'vitest';
import { StationError } from '../../../src/shared/errors';
import { prepareZplForPrinter, removalNote, requireZplForPrinter, type PreparedZpl } from '../../../src/shared/zebra/zpl-prepare';
import { zplPages } from '../../../src/shared/zebra/zpl-page';
import { buildTestLabel } from '../../../src/main/printing/test-label';

const encode = (text: string) => new TextEncoder().encode(text);
const a6 = { widthMm: 105, heightMm: 148, dpmm: 8 };

function accepted(text: string | Uint8Array): PreparedZpl {
  const result = prepareZplForPrinter(typeof text === 'string' ? encode(text) : text);
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
  return result;
}

describe('prepareZplForPrinter', () => {
  it('hands back the very bytes it was given when nothing needs removing', () => {
    const input = encode('~DGR:LOGO.GRF,2,1,FF00\r\n^XA^FO1,1^XGR:LOGO.GRF^FS^XZ^XA^IDR:LOGO.GRF^FS^XZ');
    const result = accepted(input);
    expect(result.bytes).toBe(input);
    expect(result.removed).toEqual([]);
    expect(result.formats).toBe(2);
  });

  it('cuts out exactly the four bytes of ^JUS and keeps every other byte', () => {
    const result = accepted('~SD30^XA^JUS\r\n^FO10,10^FDx^FS^XZ');
    expect(Buffer.from(result.bytes).toString('latin1')).toBe('~SD30^XA\r\n^FO10,10^FDx^FS^XZ');
    expect(removalNote(result.removed)).toBe("removed ^JUS: it would save the label's settings as the printer's power-on settings, which are the bench admin's to set.");
  });

  it('cuts out ^JUS written with a changed prefix, and each of several', () => {
    const result = accepted('^XA^CC+~SD20+JUS+FDa+FS+XZ+XA+JUS+FDb+FS+XZ');
    expect(Buffer.from(result.bytes).toString('latin1')).toBe('^XA^CC+~SD20+FDa+FS+XZ+XA+FDb+FS+XZ');
    expect(result.removed).toHaveLength(2);
  });

  it('refuses a label that would change the printer, naming every such command and why', () => {
    const result = prepareZplForPrinter(encode('~JR\r\n^XA^NSP,10.0.0.9,255.0.0.0,10.0.0.1^FDx^FS^XZ'));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.kind).toBe('changes-printer');
    expect(result.refused.map((entry) => entry.command.name)).toEqual(['~JR', '^NS']);
    expect(result.reason).toBe("it would change the printer itself: ~JR (resets the printer); ^NSP,10.0.0.9,255.0.0.0,10.0.0.1 (changes the printer's wired network settings)");
  });

  it('turns a refusal into LABEL_REFUSED with the command in the message and one detail per command', () => {
    let error: unknown;
    try {
      requireZplForPrinter(encode('^XA^JUF^KP1234^FDx^FS^XZ'), 'The label of order SBX-1');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(StationError);
    const station = error as StationError;
    expect(station.code).toBe('LABEL_REFUSED');
    expect(station.message).toMatch(/^The label of order SBX-1 was not printed: it would change the printer itself: \^JUF \(restores the printer's factory settings\)/);
    expect(station.details).toEqual(["^JUF (restores the printer's factory settings)", "^KP1234 (changes the printer's front-panel password)"]);
  });

  it('reports a document that is not ZPL as damaged, not refused', () => {
    expect(() => requireZplForPrinter(encode('^XA^FDcut off'), 'The label of order SBX-2')).toThrow(
      expect.objectContaining({ code: 'MALFORMED_RESPONSE', message: 'The label of order SBX-2 is damaged: it does not end with ^XZ (it may be truncated).' }),
    );
  });

  it('counts labels: formats that draw something, times their ^PQ quantity; stored formats print nothing', () => {
    const result = accepted('^XA^MNY^XZ^XA^FDa^FS^PQ3^XZ^XA^XZ^XA^DFR:F.ZPL^FS^FO1,1^FN1^FS^XZ^XA^XFR:F.ZPL^FN1^FDb^FS^XZ');
    expect(result.formats).toBe(5);
    expect(result.labels).toBe(4);
  });
});

describe('the station’s own test label', () => {
  it('passes the gate unchanged, even for a printer named with ZPL commands in it', () => {
    const label = buildTestLabel({ printerName: 'Bench ^JUS ~JR 3', stationName: 'Dock ^NS', printedAt: new Date('2026-03-02T10:00:00Z') });
    const input = encode(label.zpl);
    const result = accepted(input);
    expect(result.bytes).toBe(input);
    expect(result.removed).toEqual([]);
    expect(result.formats).toBe(1);
  });
});

describe('label size and offsets per format', () => {
  it('reads ^PW, ^LL, ^PO, ^LH and ^LT of a 4×6 label', () => {
    const [layout] = accepted('^XA^PW812^LL1218^POI^LH30,20^LT-12^FO0,0^FDx^FS^XZ').layouts;
    expect(layout).toEqual({ printWidthDots: 812, labelLengthDots: 1218, inverted: true, home: { x: 30, y: 20 }, topDots: -12, formatDpi: null, draws: true, quantity: 1 });
  });

  it('carries settings into later formats until a format changes them, as the printer keeps them', () => {
    const layouts = accepted('^XA^PW812^LL1624^POI^FDa^FS^XZ^XA^FDb^FS^XZ^XA^LL1218^PON^FDc^FS^XZ').layouts;
    expect(layouts.map((layout) => [layout.printWidthDots, layout.labelLengthDots, layout.inverted])).toEqual([
      [812, 1624, true],
      [812, 1624, true],
      [812, 1218, false],
    ]);
  });

  it('gives the preview a page of the label’s own size: 4×6 and 4×8 at 203 dpi', () => {
    const pages = zplPages(accepted('^XA^PW812^LL1218^FDa^FS^XZ^XA^LL1624^FDb^FS^XZ').layouts, a6);
    expect(pages.map((page) => [page.widthMm, page.heightMm, page.dpmm])).toEqual([
      [101.5, 152.25, 8],
      [101.5, 203, 8],
    ]);
  });

  it('falls back to A6 for what the label does not say, and to the printer’s resolution', () => {
    const [page] = zplPages(accepted('^XA^LL1800^FDa^FS^XZ').layouts, { widthMm: 105, heightMm: 148, dpmm: 12 });
    expect(page).toEqual({ format: 0, widthMm: 105, heightMm: 150, dpmm: 12, topDots: 0, inverted: false });
  });

  it('reads the dots at the resolution the label says it is laid out for (^MU), 203 dpi otherwise', () => {
    const pages = zplPages(accepted('^XA^MUD,300,300^PW1218^LL1800^FDa^FS^XZ^XA^MUD,200,200^FDb^FS^XZ^XA^MUD^FDc^FS^XZ').layouts, a6);
    expect(pages.map((page) => [page.widthMm, page.heightMm, page.dpmm])).toEqual([
      [101.5, 150, 12],
      [152.25, 225, 8],
      [152.25, 225, 8],
    ]);
  });

  it('gives one page per format that prints, with its own ^LT and ^POI, skipping settings-only formats', () => {
    const pages = zplPages(accepted('~JO^XA^MNY^XZ^XA^LT20^FDa^FS^XZ^XA^POI^FDb^FS^XZ').layouts, a6);
    expect(pages.map((page) => [page.format, page.topDots, page.inverted])).toEqual([
      [1, 20, false],
      [2, 20, true],
    ]);
  });

  it('bounds an absurd label length instead of asking for a canvas metres long', () => {
    const [page] = zplPages(accepted('^XA^LL99999^FDa^FS^XZ').layouts, a6);
    expect(page?.heightMm).toBe(2000);
  });
});
