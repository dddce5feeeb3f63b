import { describe, expect, it } from 'vitest';
import { SheetFileProblem } from '../../../src/main/spreadsheets/sheet-limits';
import { decodeEntities, XmlTokenizer } from '../../../src/main/spreadsheets/xlsx-xml';

/** Feeds the XML in pieces of `size` characters and returns what the tokenizer reported. */
function tokens(xml: string, size: number): string[] {
  const seen: string[] = [];
  let text = '';
  const flush = () => {
    if (text !== '') seen.push(`text ${decodeEntities(text)}`);
    text = '';
  };
  const tokenizer = new XmlTokenizer(
    {
      open(name, attributes) {
        flush();
        seen.push(`open ${name} ${JSON.stringify(attributes)}`);
      },
      close(name) {
        flush();
        seen.push(`close ${name}`);
      },
      text(raw) {
        text += raw;
      },
    },
    'test.xml',
  );
  for (let at = 0; at < xml.length; at += size) tokenizer.write(xml.slice(at, at + size));
  tokenizer.end();
  flush();
  return seen;
}

const sample =
  '<?xml version="1.0"?><!-- a comment with <c> inside --><x:row r="2" note=\'a > b\'><c t="s"><v>&lt;1&amp;2&gt; &#65;&#x42;</v></c><c/><is><t><![CDATA[<raw & text>]]></t></is></x:row>';

describe('the bounded XML tokenizer', () => {
  it('reads the same tokens however the text is split, across comments, CDATA, quotes and entities', () => {
    const whole = tokens(sample, sample.length);
    expect(whole).toEqual([
      'open row {"r":"2","note":"a > b"}',
      'open c {"t":"s"}',
      'open v {}',
      'text <1&2> AB',
      'close v',
      'close c',
      'open c {}',
      'close c',
      'open is {}',
      'open t {}',
      'text <raw & text>',
      'close t',
      'close is',
      'close row',
    ]);
    for (const size of [1, 2, 3, 5, 7, 13]) expect(tokens(sample, size), `pieces of ${size}`).toEqual(whole);
  });

  it('refuses a DOCTYPE, an endless tag and a file that ends inside a tag', () => {
    expect(() => tokens('<!DOCTYPE x [<!ENTITY a "aaaa">]><x/>', 64)).toThrow(SheetFileProblem);
    expect(() => tokens(`<x a="${'y'.repeat(20_000)}"/>`, 4096)).toThrow(/tag longer than 16 KiB/);
    expect(() => tokens('<x><y', 64)).toThrow(/ends in the middle of a tag/);
  });
});
