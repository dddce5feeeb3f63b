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
