import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { longestFitting, sanitizeLabelText, toWinAnsi } from '../../../src/sandbox/labels/label-text';

describe('label text', () => {
  it('turns control characters and line breaks into single spaces', () => {
    expect(sanitizeLabelText('  Main St 1\r\n\tFloor 2\u0000\u2028x ')).toBe('Main St 1 Floor 2 x');
  });

  it('keeps Western European letters and spells others with their base letter', () => {
    expect(toWinAnsi('Zoë Straße Ærø €5 – “ok”')).toBe('Zoë Straße Ærø €5 – “ok”');
    expect(toWinAnsi('Łódź Dvořák Őrség Đorđe')).toBe('Lódz Dvorák Orség Dorde');
    expect(toWinAnsi('東京 Ω')).toBe('?? ?');
  });

  it('only ever yields characters Helvetica can draw without an embedded font', async () => {
    const doc = await PDFDocument.create();
    const regular = await doc.embedFont(StandardFonts.Helvetica);
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    let all = '';
    for (let code = 0x20; code < 0x3000; code += 1) {
      if (code < 0xd800 || code > 0xdfff) all += String.fromCodePoint(code);
    }
    const text = toWinAnsi(sanitizeLabelText(all));
    expect(() => regular.encodeText(text)).not.toThrow();
    expect(() => bold.encodeText(text)).not.toThrow();
  });
});

describe('longestFitting', () => {
  it('finds the longest prefix that fits, including none and all', () => {
    expect(longestFitting(10, (count) => count <= 7)).toBe(7);
    expect(longestFitting(10, () => false)).toBe(0);
    expect(longestFitting(10, () => true)).toBe(10);
    expect(longestFitting(0, () => true)).toBe(0);
  });
});
