import { createContext, useContext, type ReactNode } from 'react';
import type { StationApi } from '../../shared/contract';

const StationContext = createContext<StationApi | null>(null);

export function StationProvider({ station, children }: { station: StationApi; children: ReactNode }) {
  return <StationContext.Provider value={station}>{children}</StationContext.Provider>;
}

/** The contract's calls, as the screen sees them. */
export function useStation(): StationApi {
  const station = useContext(StationContext);
  if (!station) throw new Error('useStation must be used inside a StationProvider.');
  return station;
}
