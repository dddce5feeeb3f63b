import { createStore, type StoreApi } from 'zustand/vanilla';
import type { CallResult, StationApi } from '../../../shared/contract';
import type { BundleSummaryData } from '../../../shared/contract/orders';
import type { JournalEntryData, RunProgressData, RunSummaryData } from '../../../shared/contract/printing';
import type { StationErrorData } from '../../../shared/errors';
import { addSample, addToSelection, parseBundleIds, toggleInSelection, type ProgressSample } from '../shift/run-math';

export interface ShiftState {
  /** Today's bundles with labels still to print, from the order index; null until listed. */
  bundles: BundleSummaryData[] | null;
  bundlesError: StationErrorData | null;
  /** Today's bundles whose every label is printed: a slip of one scanned is "printed today", not unknown. */
  printedToday: string[];
  /** The reason for printing labels printed before again; null: labels printed before are left out. */
  reprintReason: string | null;
  /** Bundle ids chosen for the next run, in print order. */
  selected: string[];
  /** Null: the printer set as default for runs. */
  printerId: string | null;
  reverse: boolean;
  /** The run on screen: the one started here, or an unfinished one taken up. */
  run: RunSummaryData | null;
  /** Every label of the run, refreshed when its state changes. */
  entries: JournalEntryData[];
  progress: RunProgressData | null;
  samples: ProgressSample[];
  /** Runs the station could carry on with (paused, or interrupted by a restart). */
  unfinished: RunSummaryData[];
  /** The lead said "later" to the offer of an unfinished run at start-up. */
  offerDismissed: boolean;
  busy: boolean;
  error: StationErrorData | null;
  loadBundles(): Promise<void>;
  /** Chooses a listed bundle, or leaves it out again. */
  toggleBundle(bundleId: string): void;
  /** Chooses every listed bundle (after those already chosen, in list order). */
  selectAll(): void;
  addBundles(text: string): void;
  removeBundle(bundleId: string): void;
  clearBundles(): void;
  setPrinter(printerId: string | null): void;
  setReverse(reverse: boolean): void;
  setReprintReason(reason: string | null): void;
  loadUnfinished(): Promise<void>;
  /** `acceptRoll`: the lead starts the run although the printer's roll does not fit the label (after the refusal said so). */
  start(options?: { acceptRoll?: boolean }): Promise<void>;
  pause(): Promise<void>;
  resume(): Promise<void>;
  cancel(): Promise<void>;
  retryFailed(): Promise<void>;
  decide(entryId: number, decision: 'printed' | 'print-again', operator: string): Promise<void>;
  /** Shows an unfinished run (to resume or cancel it). */
  takeUp(run: RunSummaryData): Promise<void>;
  /** Shows an unfinished run and carries on with it. */
  resumeUnfinished(run: RunSummaryData): Promise<void>;
  dismissOffer(): void;
  /** Back to choosing bundles, once a run is over. */
  close(): void;
}

export interface ShiftStoreDeps {
  station: StationApi;
  now(): number;
}

const isOver = (run: RunSummaryData | null) => run !== null && (run.state === 'finished' || run.state === 'cancelled');

/**
 * The shift-start run: kept for the page's lifetime, so a lead can look at the scan screen and
 * come back to the run still counting. It follows the run through the printing events.
 */
export function createShiftStore({ station, now }: ShiftStoreDeps): StoreApi<ShiftState> {
  const store = createStore<ShiftState>()((set, get) => {
    /** Runs a call that answers with a run summary, and shows that run. */
    const withRun = async (call: () => Promise<CallResult<RunSummaryData>>) => {
      set({ busy: true, error: null });
      const result = await call();
      if (result.ok) {
        const fresh = get().run?.runId !== result.value.runId;
        set({ busy: false, run: result.value, ...(fresh ? { progress: null, samples: [], entries: [] } : {}) });
        await refreshEntries(result.value.runId);
      } else {
        set({ busy: false, error: result.error });
      }
    };

    const refreshEntries = async (runId: string) => {
      const result = await station['printing.run']({ runId });
      if (result.ok && get().run?.runId === runId) set({ run: result.value.run, entries: result.value.entries });
    };

    const runId = () => get().run?.runId ?? null;

    return {
      bundles: null,
      bundlesError: null,
      printedToday: [],
      reprintReason: null,
      selected: [],
      printerId: null,
      reverse: false,
      run: null,
      entries: [],
      progress: null,
      samples: [],
      unfinished: [],
      offerDismissed: false,
      busy: false,
      error: null,

      loadBundles: async () => {
        const [result, all] = await Promise.all([station['orders.bundles']({ unprintedOnly: true }), station['orders.bundles']({ unprintedOnly: false })]);
        if (result.ok) {
          const listed = new Set(result.value.bundles.map((bundle) => bundle.bundleId));
          const printedToday = all.ok ? all.value.bundles.map((bundle) => bundle.bundleId).filter((bundleId) => !listed.has(bundleId)) : [];
          set({ bundles: result.value.bundles, bundlesError: null, printedToday });
        } else set({ bundlesError: result.error });
      },
      toggleBundle: (bundleId) => set((state) => ({ selected: toggleInSelection(state.selected, bundleId) })),
      selectAll: () => set((state) => ({ selected: addToSelection(state.selected, (state.bundles ?? []).map((bundle) => bundle.bundleId)) })),
      addBundles: (text) => set((state) => ({ selected: addToSelection(state.selected, parseBundleIds(text)) })),
      removeBundle: (bundleId) => set((state) => ({ selected: state.selected.filter((id) => id !== bundleId) })),
      clearBundles: () => set({ selected: [] }),
      setPrinter: (printerId) => set({ printerId }),
      setReverse: (reverse) => set({ reverse }),
      setReprintReason: (reprintReason) => set({ reprintReason }),

      loadUnfinished: async () => {
        const result = await station['printing.runs']({ unfinished: true, limit: 20 });
        if (result.ok) set({ unfinished: result.value.runs.filter((run) => run.kind === 'bundles' || run.kind === 'retry') });
      },

      start: async (options = {}) => {
        const { selected, printerId, reverse, reprintReason } = get();
        if (selected.length === 0) return;
        const reprint = reprintReason !== null && reprintReason.trim() !== '' ? { reprint: { reason: reprintReason.trim() } } : {};
        const acceptRoll = options.acceptRoll ? { acceptRoll: true } : {};
        await withRun(() => station['printing.printBundles']({ bundleIds: selected, reverse, ...(printerId ? { printerId } : {}), ...reprint, ...acceptRoll }));
        if (get().error === null) set({ selected: [], reprintReason: null });
      },
      pause: async () => {
        const id = runId();
        if (id) await withRun(() => station['printing.pause']({ runId: id }));
      },
      resume: async () => {
        const id = runId();
        if (id) await withRun(() => station['printing.resume']({ runId: id }));
      },
      cancel: async () => {
        const id = runId();
        if (id) await withRun(() => station['printing.cancel']({ runId: id }));
      },
      retryFailed: async () => {
        const id = runId();
        if (id) await withRun(() => station['printing.retryFailed']({ runId: id }));
      },
      decide: async (entryId, decision, operator) => {
        set({ busy: true, error: null });
        const result = await station['printing.decide']({ entryId, decision, ...(operator.trim() ? { operator: operator.trim() } : {}) });
        set({ busy: false, error: result.ok ? null : result.error });
        const id = runId();
        if (id) await refreshEntries(id);
      },
      takeUp: async (run) => {
        set({ run, progress: null, samples: [], entries: [], error: null });
        await refreshEntries(run.runId);
      },
      resumeUnfinished: async (run) => {
        set({ run, progress: null, samples: [], entries: [], error: null, offerDismissed: true });
        if (run.state === 'paused') await withRun(() => station['printing.resume']({ runId: run.runId }));
        else await refreshEntries(run.runId);
      },
      dismissOffer: () => set({ offerDismissed: true }),
      close: () => {
        if (!isOver(get().run)) return;
        set({ run: null, progress: null, samples: [], entries: [], error: null });
        void get().loadUnfinished();
        void get().loadBundles();
      },
    };
  });

  station.on('printing.progress', (progress) => {
    const { run, progress: previous, samples } = store.getState();
    if (!run || progress.runId !== run.runId) return;
    // The rate is measured while the run prints: a pause starts it afresh, so the time left after
    // Resume is not stretched by the minutes the run stood still.
    const sample = { at: now(), done: progress.done, printed: progress.counts.printed };
    const printing = progress.state === 'running';
    const carriesOn = printing && previous?.runId === progress.runId && previous.state === 'running';
    store.setState({ progress, samples: !printing ? [] : carriesOn ? addSample(samples, sample) : [sample] });
    // A change of state or a new failed or uncertain label: fetch the labels, for the lists.
    const changed =
      !previous || previous.state !== progress.state || previous.counts.failed !== progress.counts.failed || previous.counts.uncertain !== progress.counts.uncertain;
    if (changed) {
      void station['printing.run']({ runId: run.runId }).then((result) => {
        if (result.ok && store.getState().run?.runId === run.runId) store.setState({ run: result.value.run, entries: result.value.entries });
      });
    }
  });
  station.on('printing.finished', (summary) => {
    const { run } = store.getState();
    if (!run || summary.runId !== run.runId) return;
    store.setState({ run: summary });
    // Its bundles are printed now: the list of what is left changes.
    void store.getState().loadBundles();
    void station['printing.run']({ runId: summary.runId }).then((result) => {
      if (result.ok && store.getState().run?.runId === summary.runId) store.setState({ run: result.value.run, entries: result.value.entries });
    });
  });
  return store;
}
