/**
 * The text a ZPL renderer is given for a preview. Renderers take a string, so binary bytes cannot
 * reach them unchanged: a binary graphic (^GFB) is rewritten as the same graphic in ASCII hex
 * (^GFA), which draws identically; everything else is read as UTF-8. Only for previews: the
 * printer always gets the label's own bytes.
 */
import { scanZpl } from './zpl-scanner';

const hex = (bytes: Uint8Array): string => Array.from(bytes, (byte) => byte.toString(16).toUpperCase().padStart(2, '0')).join('');

export function zplTextForRenderer(bytes: Uint8Array): string {
  const decoder = new TextDecoder('utf-8');
  const scan = scanZpl(bytes);
  if (!scan.ok) return decoder.decode(bytes);
  let text = '';
  let from = 0;
  for (const command of scan.commands) {
    if (command.name !== '^GF' || !command.payload || command.params.trim().charAt(0).toUpperCase() !== 'B') continue;
    // ^GFB,b,c,d,<b bytes> → ^GFA,b,c,d,<2b hex digits>: the counts stay the same for uncompressed data.
    const type = command.params.search(/\S/);
    text += decoder.decode(bytes.subarray(from, command.paramsStart + type));
    text += 'A';
    text += decoder.decode(bytes.subarray(command.paramsStart + type + 1, command.payload.start));
    text += hex(bytes.subarray(command.payload.start, command.payload.end));
    from = command.payload.end;
  }
  return text + decoder.decode(bytes.subarray(from));
}
