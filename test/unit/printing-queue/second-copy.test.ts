import { describe, expect, it } from 'vitest';
import { secondCopyAtFault, secondCopyOnceEmpty } from '../../../src/main/printing/queue/second-copy';

describe('a second copy after a cutting fault, at the fault', () => {
  it('says nothing when the printer reports reprint after error off', () => {
    expect(secondCopyAtFault('off', 41, 41)).toBe('none');
    expect(secondCopyAtFault('off', 40, 41)).toBe('none');
  });

  it('is certain when the counter counted a copy of the label still in the buffer and reprint is on', () => {
    expect(secondCopyAtFault('on', 41, 41)).toBe('certain');
  });

  it('only may have come out when the counter counted it but the reprint setting is unknown', () => {
    expect(secondCopyAtFault('unknown', 41, 41)).toBe('possible');
  });

  it('waits when the counter did not step: a counter of whole labels only never does, so this proves nothing', () => {
    expect(secondCopyAtFault('on', 40, 41)).toBe('undecided');
    expect(secondCopyAtFault('unknown', 40, 41)).toBe('undecided');
    expect(secondCopyAtFault('on', null, 41)).toBe('undecided');
    expect(secondCopyAtFault('on', 40, null)).toBe('undecided');
  });
});

describe('a second copy after a cutting fault, once the printer holds nothing of ours', () => {
  it('is certain only with one candidate, reprint on and exactly one label more counted than sent', () => {
    expect(secondCopyOnceEmpty('on', 1, 1)).toBe('certain');
    expect(secondCopyOnceEmpty('on', 1, 3)).toBe('possible');
    expect(secondCopyOnceEmpty('unknown', 1, 1)).toBe('possible');
  });

  it('may have come out when the count is what was sent: the reprint counted, the cut copy not', () => {
    expect(secondCopyOnceEmpty('on', 0, 1)).toBe('possible');
    expect(secondCopyOnceEmpty('unknown', 0, 1)).toBe('possible');
  });

  it('may have come out when the count cannot be compared (another host, a restart, no count before the fault)', () => {
    expect(secondCopyOnceEmpty('on', null, 1)).toBe('possible');
    expect(secondCopyOnceEmpty('on', 3, 1)).toBe('possible');
  });

  it('says nothing when reprint after error is off', () => {
    expect(secondCopyOnceEmpty('off', 1, 1)).toBe('none');
    expect(secondCopyOnceEmpty('off', 0, 1)).toBe('none');
  });
});
