// Zebra status answers (~HS, ~HQES, ~HI) come as strings framed by STX … ETX, with CR LF and
// sometimes noise between them. Reading by frame, never by byte offset, keeps the parsers right
// when a firmware adds a field, pads a line or when the answer arrives in several TCP packets.

export const STX = '\x02';
export const ETX = '\x03';

export interface FrameScan {
  /** Complete frames, in order, without their STX and ETX. */
  frames: string[];
  /** The unfinished tail: from the last STX that has no ETX yet, or '' when none is open. */
  rest: string;
}

/**
 * Cuts text into STX…ETX frames. Text outside frames is ignored; an STX inside an open frame
 * starts the frame again (the bytes before it were a cut-off answer).
 */
export function scanFrames(text: string): FrameScan {
  const frames: string[] = [];
  let open = -1;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (char === STX) {
      open = i;
    } else if (char === ETX && open >= 0) {
      frames.push(text.slice(open + 1, i));
      open = -1;
    }
  }
  return { frames, rest: open >= 0 ? text.slice(open) : '' };
}

/** True once `text` holds at least `count` complete frames. */
export function hasFrames(text: string, count: number): boolean {
  return scanFrames(text).frames.length >= count;
}
