import { createStore, type StoreApi } from 'zustand/vanilla';
import type { CallOutput, StationApi } from '../../../shared/contract';
import type { IndexedOrderData } from '../../../shared/contract/orders';
import type { StationErrorData } from '../../../shared/errors';

/** One label the sandbox's virtual Zebra printed (its schema lives with the sandbox's contract). */
export type VirtualPrinterLabel = CallOutput<'sandbox.printedLabels'>['labels'][number];

/** What the first-run panel shows while the station runs on its embedded sandbox. */
export interface SandboxState {
  /** Orders to try a first scan with (printable, not printed yet); null until asked. */
  samples: IndexedOrderData[] | null;
  /** What the embedded virtual Zebra printed, newest first; null until asked. */
  printed: VirtualPrinterLabel[] | null;
  printedError: StationErrorData | null;
  loadSamples(): Promise<void>;
  refreshPrinted(): Promise<void>;
  /**
   * Follows the printing events while the panel is on screen: a label printed anywhere (a scan,
   * a run, a test print) refreshes the virtual printer's labels and the samples, at most once per
   * `refreshMs`. Returns the function that stops following.
   */
  follow(): () => void;
}

export interface SandboxStoreDeps {
  station: StationApi;
  /** How many sample refs the panel offers. */
  sampleCount?: number;
  /** How many of the virtual printer's labels the panel keeps. */
  printedLimit?: number;
  refreshMs?: number;
  /**
   * True while a scan is in hand at the bench: a refresh falling due then waits
   * another interval, so its calls and the drawing of their answers never stand in a scan's way.
   */
  busy?: () => boolean;
}

export const defaultSampleCount = 3;
export const defaultPrintedLimit = 12;
export const defaultRefreshMs = 500;

export function createSandboxStore({ station, sampleCount = defaultSampleCount, printedLimit = defaultPrintedLimit, refreshMs = defaultRefreshMs, busy = () => false }: SandboxStoreDeps): StoreApi<SandboxState> {
  return createStore<SandboxState>()((set, get) => ({
    samples: null,
    printed: null,
    printedError: null,
    loadSamples: async () => {
      const result = await station['orders.samples']({ limit: sampleCount });
      if (result.ok) set({ samples: result.value.orders });
    },
    refreshPrinted: async () => {
      const result = await station['sandbox.printedLabels']({ limit: printedLimit });
      if (result.ok) set({ printed: result.value.labels, printedError: null });
      else set({ printedError: result.error });
    },
    follow: () => {
      let timer: ReturnType<typeof setTimeout> | null = null;
      let stopped = false;
      // Trailing and bounded: a run printing 20 labels a second asks once per refreshMs, and the
      // last label of a burst is always fetched.
      const schedule = () => {
        if (timer !== null || stopped) return;
        timer = setTimeout(() => {
          timer = null;
          if (stopped) return;
          if (busy()) {
            schedule();
            return;
          }
          void get().refreshPrinted();
          void get().loadSamples();
        }, refreshMs);
      };
      const unsubscribe = [
        station.on('printing.label', schedule),
        station.on('printing.progress', schedule),
        station.on('printing.finished', schedule),
      ];
      void get().refreshPrinted();
      void get().loadSamples();
      return () => {
        stopped = true;
        if (timer !== null) clearTimeout(timer);
        for (const stop of unsubscribe) stop();
      };
    },
  }));
}
