// Set-Get-Do: `! U1 getvar "name"` answers with the value in double quotes and no line ending;
// an unknown variable answers "?".
import { ZebraReplyError } from './reply-error';

const NAME = /^[a-z0-9_.]{1,64}$/i;

/** The bytes of a getvar command; the name is checked so no quote or line break can slip in. */
export function sgdGetvarCommand(name: string): string {
  if (!NAME.test(name)) throw new RangeError(`"${name}" is not an SGD variable name`);
  return `! U1 getvar "${name}"\r\n`;
}

export function isSgdReplyComplete(text: string): boolean {
  const first = text.indexOf('"');
  return first >= 0 && text.indexOf('"', first + 1) > first;
}

/** The value between the first pair of double quotes, or null when the printer does not know the variable ("?"). */
export function parseSgdReply(name: string, reply: string): string | null {
  const first = reply.indexOf('"');
  const second = first >= 0 ? reply.indexOf('"', first + 1) : -1;
  if (second < 0) throw new ZebraReplyError(`getvar "${name}"`, 'no quoted value', reply);
  const value = reply.slice(first + 1, second).trim();
  return value === '?' ? null : value;
}
