import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { zplTextForRenderer } from '../../../src/shared/zebra/zpl-preview-text';

const fixture = (name: string) => new Uint8Array(readFileSync(join(__dirname, '../../fixtures/zpl', name)));

describe('the text a preview renderer is given', () => {
  it('turns a binary ^GFB graphic into the same graphic in hex, since a string cannot carry its bytes', () => {
    const text = zplTextForRenderer(fixture('bring-gfb-binary.zpl'));
    expect(text).toContain('^FO40,40^GFA,16,16,2,FFFF80015E7E0000A55A5E5E7E7EFFFF^FS');
    expect(text).not.toContain('^GFB');
    expect(text.endsWith('^FS\n^XZ\n')).toBe(true);
  });

  it('is the label itself, as UTF-8 text, when it holds no binary graphic', () => {
    const bytes = fixture('ci28-accents.zpl');
    expect(zplTextForRenderer(bytes)).toBe(new TextDecoder().decode(bytes));
  });
});
