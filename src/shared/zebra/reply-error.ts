/** A printer's answer that does not have the shape its query promises. */
export class ZebraReplyError extends Error {
  /** The answer as printable text (control characters shown as <STX>, <ETX>, \r, \n), cut to 200 characters. */
  readonly excerpt: string;

  constructor(what: string, problem: string, reply: string) {
    super(`The printer's answer to ${what} could not be read: ${problem}`);
    this.name = 'ZebraReplyError';
    this.excerpt = printable(reply).slice(0, 200);
  }
}

const names: Record<string, string> = { '\x02': '<STX>', '\x03': '<ETX>', '\r': '\\r', '\n': '\\n' };

/** Shows control characters so a reply can be quoted in a log line or an error's details. */
export function printable(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.charCodeAt(0);
    out += names[char] ?? (code < 0x20 || code === 0x7f ? `<${code.toString(16).padStart(2, '0')}>` : char);
  }
  return out;
}
