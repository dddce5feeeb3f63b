/**
 * Long scanned codes (a 300-character paste, a GS1 string) would push the panel's words out of
 * view. The start and the end of a code are what a person compares with the slip, so the middle
 * gives way; the whole value stays in the element's title (hover) and in the preview.
 */
export const scanShownLength = 48;

export function middleTruncate(text: string, max = scanShownLength): string {
  const characters = [...text];
  if (characters.length <= max) return text;
  const keep = max - 1;
  const head = Math.ceil(keep / 2);
  const tail = keep - head;
  return `${characters.slice(0, head).join('')}…${characters.slice(characters.length - tail).join('')}`;
}

/**
 * A person's or a bench's or a printer's name inside a sentence of the result panel: typed by a
 * lead (up to 80 characters), it may not push the panel's question and buttons out of a bench
 * screen. Beyond this many characters its end gives way; the whole sentence is the element's title.
 */
export const nameShownLength = 36;

export function shortName(name: string, max = nameShownLength): string {
  const characters = [...name];
  return characters.length <= max ? name : `${characters.slice(0, max - 1).join('').trimEnd()}…`;
}
