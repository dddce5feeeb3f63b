/**
 * The floor while its screen is open: listed once, then changed bench by bench by the
 * `floor.bench` events main sends as benches report (within a second or two of a change). On a
 * bench's own file there are no such events: the bench is listed again, at most once a second,
 * when its own printing moves.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { StationApi } from '../../../shared/contract';
import type { FloorBenchData, FloorListData } from '../../../shared/contract/floor';
import type { StationErrorData } from '../../../shared/errors';

export interface FloorNow {
  floor: FloorListData | null;
  error: StationErrorData | null;
  /** Lists again now (after an action, whose effect also arrives as events). */
  reload(): void;
}

const localEvents = ['printing.progress', 'printing.finished', 'printing.label', 'printers.state'] as const;

/** The floor with one bench's newer state in. */
export function withBench(floor: FloorListData, bench: FloorBenchData): FloorListData {
  const others = floor.benches.filter((candidate) => candidate.benchId !== bench.benchId);
  return { ...floor, benches: [...others, bench] };
}

export function useFloor(station: StationApi): FloorNow {
  const [floor, setFloor] = useState<FloorListData | null>(null);
  const [error, setError] = useState<StationErrorData | null>(null);
  const mounted = useRef(true);
  const mode = useRef<FloorListData['mode'] | null>(null);
  const load = useCallback(async () => {
    const listed = await station['floor.list']({});
    if (!mounted.current) return;
    if (listed.ok) {
      mode.current = listed.value.mode;
      setFloor(listed.value);
      setError(null);
    } else setError(listed.error);
  }, [station]);

  useEffect(() => {
    mounted.current = true;
    void load();
    let again: ReturnType<typeof setTimeout> | null = null;
    const soon = () => {
      again ??= setTimeout(() => {
        again = null;
        void load();
      }, 1_000);
    };
    const stops = [
      station.on('floor.bench', (bench) => setFloor((current) => (current ? withBench(current, bench) : current))),
      ...localEvents.map((name) =>
        station.on(name, () => {
          if (mode.current === 'local') soon();
        }),
      ),
    ];
    return () => {
      mounted.current = false;
      if (again) clearTimeout(again);
      for (const stop of stops) stop();
    };
  }, [station, load]);

  return { floor, error, reload: () => void load() };
}
