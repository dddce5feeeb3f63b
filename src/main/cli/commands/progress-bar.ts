import type { CliContext } from '../command';

export interface ProgressBar {
  update(done: number, total: number, note?: string): void;
  finish(): void;
}

const WIDTH = 30;

/**
 * A progress bar on stderr: redrawn in place on a terminal (at most 10 times a second), one line
 * per tenth of the way (or on a change of note) when stderr is a file or a pipe.
 */
export function createProgressBar(context: CliContext, label: string, now: () => number = Date.now): ProgressBar {
  const stream = context.io.stderr;
  const interactive = stream.isTTY === true;
  const startedAt = now();
  let lastDrawAt = 0;
  let lastTenth = -1;
  let lastNote: string | undefined;
  let drawn = false;

  const line = (done: number, total: number, note?: string): string => {
    const fraction = total > 0 ? Math.min(1, done / total) : 0;
    const filled = Math.round(fraction * WIDTH);
    const seconds = (now() - startedAt) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    const bar = `${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}`;
    return `${label} [${bar}] ${done}/${total} ${Math.round(fraction * 100)}%  ${rate.toFixed(1)}/s${note ? `  ${note}` : ''}`;
  };

  return {
    update(done, total, note) {
      if (interactive) {
        const current = now();
        if (current - lastDrawAt < 100 && done < total && note === lastNote) return;
        lastDrawAt = current;
        lastNote = note;
        stream.write(`\r\u001b[2K${line(done, total, note)}`);
        drawn = true;
        return;
      }
      const tenth = total > 0 ? Math.floor((done / total) * 10) : 0;
      if (tenth === lastTenth && note === lastNote) return;
      lastTenth = tenth;
      lastNote = note;
      context.warn(line(done, total, note));
    },
    finish() {
      if (interactive && drawn) stream.write('\n');
    },
  };
}
