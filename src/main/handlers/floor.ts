import type { HandlersOf } from '../contract/dispatcher';
import type { BenchFloor } from '../floor/bench-floor';
import type { floorCalls } from '../../shared/contract/floor';

export function floorHandlers(floor: BenchFloor): HandlersOf<typeof floorCalls> {
  return {
    'floor.list': () => floor.list(),
    'floor.act': (input) => floor.act(input),
  };
}
