import { describe, expect, expectTypeOf, it } from 'vitest';
import { callNames, type CallName } from '../../../src/shared/contract';
import { callNameList } from '../../../src/shared/contract/call-names';

describe('the list of call names the page builds window.station from', () => {
  it('names every call of the contract, and nothing else', () => {
    expectTypeOf<(typeof callNameList)[number]>().toEqualTypeOf<CallName>();
    expect([...callNameList].sort()).toEqual([...callNames].sort());
    expect(new Set(callNameList).size).toBe(callNameList.length);
  });
});
