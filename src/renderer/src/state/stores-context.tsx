import { createContext, startTransition, useContext, useEffect, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { AppState } from './app-store';
import type { PreferencesState } from './preferences-store';
import type { SandboxState } from './sandbox-store';
import type { ScanState } from './scan-store';
import type { ScaleState } from '../scale/scale-store';
import type { ShipState } from '../ship/ship-store';
import type { ShiftState } from './shift-store';
import type { StationStores } from './stores';

const StoresContext = createContext<StationStores | null>(null);

export function StoresProvider({ stores, children }: { stores: StationStores; children: ReactNode }) {
  return <StoresContext.Provider value={stores}>{children}</StoresContext.Provider>;
}

export function useStores(): StationStores {
  const stores = useContext(StoresContext);
  if (!stores) throw new Error('useStores must be used inside a StoresProvider.');
  return stores;
}

export const useAppState = <T,>(selector: (state: AppState) => T): T => useStore(useStores().app, selector);
export const useScanState = <T,>(selector: (state: ScanState) => T): T => useStore(useStores().scan, selector);
export const usePreferences = <T,>(selector: (state: PreferencesState) => T): T => useStore(useStores().preferences, selector);
export const useShiftState = <T,>(selector: (state: ShiftState) => T): T => useStore(useStores().shift, selector);
export const useSandboxState = <T,>(selector: (state: SandboxState) => T): T => useStore(useStores().sandbox, selector);
export const useShipState = <T,>(selector: (state: ShipState) => T): T => useStore(useStores().ship, selector);
export const useScaleState = <T,>(selector: (state: ScaleState) => T): T => useStore(useStores().scale, selector);

/**
 * A slice of the scan store for what stands beside a scan's outcome (the "reading…" cue, the last
 * labels, the "Where is it?" button): it follows the store in a transition, drawn in a task of its
 * own right after, so a scan's outcome is drawn without it (and a frame can show the outcome
 * first). `selector` must be the same function from one drawing to the next (one defined once).
 */
export function useScanStateBeside<T>(selector: (state: ScanState) => T): T {
  const scan = useStores().scan;
  const [value, setValue] = useState(() => selector(scan.getState()));
  useEffect(() => {
    const follow = () => {
      const next = selector(scan.getState());
      startTransition(() => setValue(() => next));
    };
    // A change between the first drawing and this subscription is not missed.
    follow();
    return scan.subscribe(follow);
  }, [scan, selector]);
  return value;
}
