import { describe, expect, it } from 'vitest';
import { mayHaveBeenUnderTheHead, secondCopyAtFault } from '../../../src/main/printing/queue/second-copy';

interface Label {
  name: string;
  sentIntoFault?: boolean;
}

const label = (name: string, sentIntoFault = false): Label => ({ name, sentIntoFault });
const names = (labels: Label[]): string[] => labels.map((item) => item.name);

describe('a second copy after a cutting fault', () => {
  it('says nothing when the printer reports reprint after error off', () => {
    expect(secondCopyAtFault('off')).toBe('none');
  });

  it('only may have come out when reprint after error is on or unknown: nothing documented names the label', () => {
    expect(secondCopyAtFault('on')).toBe('possible');
    expect(secondCopyAtFault('unknown')).toBe('possible');
  });
});

describe('the labels a cutting fault may have caught under the head', () => {
  it('are the one that left the buffer last and the first still in it: the buffer count cannot tell them apart', () => {
    expect(names(mayHaveBeenUnderTheHead({ lastLeft: label('6'), inBuffer: [label('7'), label('8'), label('9')], bufferCounted: true }))).toEqual(['6', '7']);
  });

  it('are the first in the buffer alone once the one before it is out of the question', () => {
    expect(names(mayHaveBeenUnderTheHead({ lastLeft: null, inBuffer: [label('7'), label('8')], bufferCounted: true }))).toEqual(['7']);
  });

  it('are the one that left last alone when the buffer holds nothing of ours', () => {
    expect(names(mayHaveBeenUnderTheHead({ lastLeft: label('6'), inBuffer: [], bufferCounted: true }))).toEqual(['6']);
  });

  it('never include a label sent while the printer already showed the fault', () => {
    expect(names(mayHaveBeenUnderTheHead({ lastLeft: label('6', true), inBuffer: [label('7', true), label('8')], bufferCounted: true }))).toEqual(['8']);
    expect(mayHaveBeenUnderTheHead({ lastLeft: label('6', true), inBuffer: [label('7', true)], bufferCounted: true })).toEqual([]);
  });

  it('are every one in the buffer and the one whose confirmation met the silence when the printer gave no buffer count', () => {
    const candidates = mayHaveBeenUnderTheHead({ lastLeft: label('5'), inBuffer: [label('6'), label('7', true), label('8')], bufferCounted: false, unconfirmed: label('9') });
    expect(names(candidates)).toEqual(['5', '6', '8', '9']);
  });
});
