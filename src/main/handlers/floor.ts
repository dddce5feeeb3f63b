import type { Handlers } from '../contract/dispatcher';
import type { BenchFloor } from '../floor/bench-floor';

export function floorHandlers(floor: BenchFloor): Pick<Handlers, 'floor.list' | 'floor.act'> {
  return {
    'floor.list': () => floor.list(),
    'floor.act': (input) => floor.act(input),
  };
}
