import { describe, expect, it } from 'vitest';
import { chipsForTheBar, type PrinterStatusView } from '../../../src/renderer/src/components/PrinterStatusArea';

const printer = (id: string, state: PrinterStatusView['state']): PrinterStatusView => ({ id, name: `Zebra ${id}`, state });
const ids = (printers: PrinterStatusView[]) => printers.map((view) => view.id);

describe('the top bar’s printer chips', () => {
  it('give up to three printers a chip each, in their own order', () => {
    const three = [printer('a', 'ready'), printer('b', 'offline'), printer('c', 'printing')];
    expect(chipsForTheBar(three)).toEqual({ own: three, rest: [] });
  });

  it('beyond three, give two chips, faults before ready ones and in their own order, and count the rest', () => {
    const floor = [printer('1', 'ready'), printer('2', 'ready'), printer('3', 'paused'), printer('4', 'ready'), printer('5', 'paperOut'), printer('6', 'ready')];
    const { own, rest } = chipsForTheBar(floor);
    expect(ids(own)).toEqual(['3', '5']);
    expect(ids(rest)).toEqual(['1', '2', '4', '6']);
  });

  it('beyond three with nothing wrong, keep the first two', () => {
    const floor = ['1', '2', '3', '4', '5'].map((id) => printer(id, 'ready'));
    expect(ids(chipsForTheBar(floor).own)).toEqual(['1', '2']);
  });
});
