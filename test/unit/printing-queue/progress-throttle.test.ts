import { describe, expect, it } from 'vitest';
import { ProgressThrottle } from '../../../src/main/printing/runs/progress-throttle';
import { FakeClock } from './fake-zebra';

describe('progress events at a bearable rate', () => {
  it('sends at most one per interval per run, the last change of an interval at its end, and a change of state at once', async () => {
    const clock = new FakeClock();
    const throttle = new ProgressThrottle(250, clock);
    const sent: string[] = [];
    const offer = (runId: string, what: string, important = false) => throttle.offer(runId, important, () => sent.push(`${runId}:${what}@${clock.now() % 100_000}`));

    offer('a', '1');
    offer('a', '2');
    offer('a', '3');
    offer('b', '1');
    expect(sent).toEqual(['a:1@0', 'b:1@0']);
    await clock.advance(100);
    offer('a', 'paused', true);
    expect(sent.at(-1)).toBe('a:paused@100');
    offer('a', '4');
    await clock.advance(300);
    // The change after the pause went out once its interval ended; nothing was dropped or repeated.
    expect(sent).toEqual(['a:1@0', 'b:1@0', 'a:paused@100', 'a:4@350']);
    throttle.forget('a');
    offer('a', '5');
    expect(sent.at(-1)).toBe('a:5@400');
  });
});
