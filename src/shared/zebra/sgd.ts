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

/** The SGD variables that tell a restart or a swapped printer apart from a printer that carried on. */
export const restartMarkVariables = {
  /** Labels printed in the printer's life; survives power cycles. */
  odometer: 'odometer.total_label_count',
  /** Time since power-on, "0 days 02 hours 15 mins 30 secs". */
  uptime: 'device.uptime',
  /** The printer's serial number. */
  serial: 'device.unique_id',
} as const;

/** Seconds since power-on from a device.uptime value, or null when it is not in that form. */
export function parseUptimeSeconds(value: string): number | null {
  const match = /^\s*(\d+)\s*days?\s+(\d+)\s*hours?\s+(\d+)\s*min(?:ute)?s?\s+(\d+)\s*sec(?:ond)?s?\s*$/i.exec(value);
  if (!match) return null;
  const [days, hours, minutes, seconds] = match.slice(1).map((part) => Number.parseInt(part, 10)) as [number, number, number, number];
  return ((days * 24 + hours) * 60 + minutes) * 60 + seconds;
}

/** A label counter value ("1234", some firmware pads or appends " LABELS"), or null. */
export function parseLabelCount(value: string): number | null {
  const match = /^\s*(\d{1,12})\b/.exec(value);
  return match ? Number.parseInt(match[1] as string, 10) : null;
}
