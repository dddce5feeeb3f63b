import { createStore, type StoreApi } from 'zustand/vanilla';
import { normalizeScan } from '../../../shared/scan';
import { isCommandText, parseScanCommand, type ReprintReason } from '../scan/commands';
import { asksToPrintAgain, soundOf, type PrintedLabel, type ScanOutcome, type ScanService, type ToShip } from '../scan/scan-outcome';
import type { SoundKind } from '../sound/tones';

/** What the big panel on the scan screen shows. */
export type ScanPanel =
  | { state: 'idle' }
  | { state: 'working'; scan: string }
  | { state: 'outcome'; outcome: ScanOutcome; at: number }
  /** A label the packer chose to reprint: waiting for the reason. */
  | { state: 'reason'; target: ReprintTarget; at: number }
  /** After STATION:VOID: the next parcel scanned is to be cancelled, not printed. */
  | { state: 'void-armed'; at: number }
  /** The parcel to cancel: waiting for the lead's reason (the screen asks). */
  | { state: 'void'; scan: string; at: number };

export interface ReprintTarget {
  scan: string;
  orderRef: string;
  recipient: string;
}

/** A printed label shown in the preview dialog. */
export interface PreviewTarget {
  entryId: number;
  orderRef: string;
}

/** The cue while a scanner is typing (keys outside any field), or after typing too slow for a scan. */
export type ScanCue = { state: 'none' } | { state: 'reading'; characters: number } | { state: 'too-slow'; characters: number };

export interface ScanState {
  panel: ScanPanel;
  cue: ScanCue;
  /** A reprint held until someone says who they are (no operator signed in). */
  operatorNeeded: { scan: string; reason: ReprintReason } | null;
  setCue(cue: ScanCue): void;
  /** The operator has signed in: the held reprint goes ahead. */
  operatorSignedIn(): Promise<void>;
  /** Nobody signed in: the held reprint is dropped. */
  dropHeldReprint(): void;
  /** True while a scan or reprint is in hand (not a state to draw: read it when needed). */
  inHand(): boolean;
  /** Labels printed at this screen, newest first. */
  recent: PrintedLabel[];
  /** The label in the preview dialog, if one is open. */
  preview: PreviewTarget | null;
  /** A scanner's first keys outside any field: a scan follows, so the station readies its printer. */
  scanComing(): void;
  submitScan(raw: string): Promise<void>;
  /** Enter on the amber panel: ask for the reason. */
  confirmReprint(): void;
  /** A scan fitting more than one order: the packer chose the `index`th of them, which prints as a scan of its order id. */
  chooseOrder(index: number): Promise<void>;
  chooseReason(reason: ReprintReason): Promise<void>;
  /** Labels printed by the ship panel (one per parcel): they join the last labels, so F6–F9 reprint them. */
  rememberShipped(labels: readonly PrintedLabel[]): void;
  /** Another environment was chosen: its results and last labels are not this one's. */
  forgetEnvironment(): void;
  /** One key on a recent label: ask for the reason, then reprint it. */
  reprintRecent(index: number): void;
  /** One key on a recent label: show it as it printed. */
  previewRecent(index: number): void;
  closePreview(): void;
  dismiss(): void;
  /** Cancel on a label waiting for the printer. */
  cancelWaiting(): Promise<void>;
  /** Resume on a label waiting for the printer: the packer fixed it, ask the printer now. */
  resumeWaiting(): Promise<void>;
}

/** The ship panel, as far as a scan's answer concerns it. */
export interface ScanShipPanel {
  /** The scan was the slip of an order to ship: the panel opens on it. */
  open(toShip: ToShip): void;
  /** The scan printed (or failed as a print): an open ship panel gives way to the outcome. */
  giveWay(): void;
}

export interface ScanStoreDeps {
  service: ScanService;
  /** The ship panel a slip to ship opens (absent: no ship panel on this screen). */
  ship?: ScanShipPanel;
  /** The operator signed in for this shift ('' when nobody is): a reprint needs one. */
  operator?(): string;
  playSound(kind: SoundKind): void;
  now(): number;
  /** How long a scan's answer may take before the panel says "printing…" (default 150 ms). */
  workingAfterMs?: number;
}

export const recentLimit = 8;

/**
 * The last labels with `label` in front. A reprint (or a second print) of a label already listed
 * takes its place rather than a second line, so one label never holds two of the four F-keys.
 */
export function rememberLabel(recent: readonly PrintedLabel[], label: PrintedLabel): PrintedLabel[] {
  const same = (other: PrintedLabel) => other.scan === label.scan || (other.orderRef === label.orderRef && other.parcel?.n === label.parcel?.n);
  return [label, ...recent.filter((other) => !same(other))].slice(0, recentLimit);
}

export function createScanStore(deps: ScanStoreDeps): StoreApi<ScanState> {
  const workingAfterMs = deps.workingAfterMs ?? 150;
  // Scans are handled one at a time, in the order they came: a packer may scan the next slip
  // before the first label is out. With nothing in hand a scan starts at once, in the scanner's
  // own key event, so its call leaves before anything else the page does (no turn of the queue).
  let queue: Promise<void> = Promise.resolve();
  let inHand = 0;
  const enqueue = (work: () => Promise<void>): Promise<void> => {
    const run = async () => {
      try {
        await work();
      } finally {
        inHand--;
      }
    };
    inHand++;
    queue = inHand === 1 ? run() : queue.then(run, run);
    return queue;
  };

  return createStore<ScanState>()((set, get) => {
    const show = (outcome: ScanOutcome) => {
      set((state) => ({
        panel: { state: 'outcome', outcome, at: deps.now() },
        // The scan's "reading…" cue stays until its outcome replaces it (see useStationKeyboard).
        cue: { state: 'none' },
        recent: outcome.kind === 'printed' ? rememberLabel(state.recent, outcome.label) : state.recent,
      }));
      deps.playSound(soundOf(outcome));
    };

    // A label waiting for the printer turns into what became of it, while it is still on screen.
    const waitingOnScreen = (entryId: number) => {
      const panel = get().panel;
      return panel.state === 'outcome' && panel.outcome.kind === 'waiting' && panel.outcome.label.entryId === entryId ? panel.outcome : null;
    };
    // A red "not sure it printed" panel whose label the printer then proves printed turns green:
    // red must not outlive the label coming out.
    const uncertainOnScreen = (entryId: number) => {
      const panel = get().panel;
      return panel.state === 'outcome' && panel.outcome.kind === 'failed' && panel.outcome.error.code === 'PRINT_UNCERTAIN' && panel.outcome.error.facts?.entryId === entryId
        ? panel.outcome
        : null;
    };
    deps.service.onLabel((update) => {
      const uncertain = uncertainOnScreen(update.entryId);
      if (uncertain && update.state === 'printed') {
        show({
          kind: 'printed',
          label: {
            orderRef: update.orderRef ?? uncertain.scan,
            recipient: update.recipient ?? '',
            printerName: update.printerName ?? '',
            printedAt: update.printedAt ?? new Date(deps.now()).toISOString(),
            scan: uncertain.scan,
            entryId: update.entryId,
          },
        });
        return;
      }
      const waiting = waitingOnScreen(update.entryId);
      if (!waiting) return;
      if (update.state === 'printed' || (update.state === 'sent' && !waiting.inPrinter)) {
        show({ kind: 'printed', label: { ...waiting.label, printedAt: update.printedAt ?? waiting.label.printedAt } });
      } else if (update.state === 'failed') {
        set({ panel: { state: 'idle' } });
      } else if (update.state === 'uncertain') {
        show({ kind: 'failed', scan: waiting.label.scan, error: { code: 'PRINT_UNCERTAIN', message: update.reason ?? '', facts: { entryId: update.entryId } } });
      }
    });

    const reprint = async (scan: string, reason: ReprintReason) => {
      if (deps.operator && deps.operator().trim() === '') {
        // The journal must say who reprinted: ask now rather than refuse.
        set({ operatorNeeded: { scan, reason } });
        return;
      }
      const before = get().panel;
      const answer = deps.service.reprint({ scan, reason });
      set({ panel: { state: 'working', scan } });
      const outcome = await answer;
      if (outcome.kind === 'failed' && outcome.error.code === 'OPERATOR_REQUIRED') {
        // Signed out meanwhile (another window, the command line): ask here as well.
        set({ panel: before, operatorNeeded: { scan, reason } });
        return;
      }
      show(outcome);
    };

    /**
     * A scan's one call, then its outcome. "Printing…" only when the answer is slow to come: a
     * label answered in a blink goes straight to its outcome, one drawing per scan and none before
     * the answer.
     */
    const printScanned = async (scan: string) => {
      const answer = deps.service.print(scan);
      const before = get().panel;
      const slow = setTimeout(() => set({ panel: { state: 'working', scan }, cue: { state: 'none' } }), workingAfterMs);
      const outcome = await answer;
      clearTimeout(slow);
      if (outcome.kind === 'to-ship') {
        set({ cue: { state: 'none' }, ...(get().panel.state === 'working' ? { panel: before } : {}) });
        deps.ship?.open(outcome);
        return;
      }
      deps.ship?.giveWay();
      show(outcome);
    };

    /** The label a reprint command would act on: the duplicate (or printed-elsewhere order) on screen, or the one awaiting its reason. */
    const reprintTarget = (): ReprintTarget | null => {
      const panel = get().panel;
      if (panel.state === 'reason') return panel.target;
      if (panel.state === 'outcome' && asksToPrintAgain(panel.outcome)) {
        const { scan, orderRef, recipient } = panel.outcome;
        return { scan, orderRef, recipient };
      }
      return null;
    };

    const handleCommand = async (raw: string) => {
      const command = parseScanCommand(raw);
      const target = reprintTarget();
      if (command?.command === 'void') {
        set({ panel: { state: 'void-armed', at: deps.now() } });
      } else if (command?.command === 'cancel' && (get().panel.state === 'void-armed' || get().panel.state === 'void')) {
        set({ panel: { state: 'idle' } });
      } else if (!command || !target) {
        show({ kind: 'command-unused', scan: raw.trim() });
      } else if (command.command === 'cancel') {
        set({ panel: { state: 'idle' } });
      } else if (command.reason) {
        await reprint(target.scan, command.reason);
      } else {
        set({ panel: { state: 'reason', target, at: deps.now() } });
      }
    };

    return {
      panel: { state: 'idle' },
      inHand: () => inHand > 0,
      cue: { state: 'none' },
      operatorNeeded: null,
      recent: [],
      preview: null,

      setCue: (cue) => {
        const now = get().cue;
        if (now.state !== cue.state || (cue.state !== 'none' && now.state !== 'none' && now.characters !== cue.characters)) set({ cue });
      },

      operatorSignedIn: () =>
        enqueue(async () => {
          const held = get().operatorNeeded;
          set({ operatorNeeded: null });
          if (held) await reprint(held.scan, held.reason);
        }),

      dropHeldReprint: () => set({ operatorNeeded: null }),

      scanComing: () => deps.service.prepare(),

      submitScan: (raw) =>
        enqueue(async () => {
          if (isCommandText(raw)) {
            await handleCommand(raw);
            return;
          }
          const normalized = normalizeScan(raw);
          if (!normalized.ok) {
            show({ kind: 'failed', scan: raw.trim(), error: { code: 'SCAN_INVALID', message: normalized.message }, rejection: normalized.reason });
            return;
          }
          if (get().panel.state === 'void-armed') {
            set({ panel: { state: 'void', scan: normalized.value, at: deps.now() } });
            return;
          }
          await printScanned(normalized.value);
        }),

      chooseOrder: (index) =>
        enqueue(async () => {
          const panel = get().panel;
          const chosen = panel.state === 'outcome' && panel.outcome.kind === 'ambiguous' ? panel.outcome.candidates[index] : undefined;
          if (chosen) await printScanned(chosen.orderId);
        }),

      confirmReprint: () => {
        const target = reprintTarget();
        if (target) set({ panel: { state: 'reason', target, at: deps.now() } });
      },

      chooseReason: (reason) =>
        enqueue(async () => {
          const panel = get().panel;
          if (panel.state === 'reason') await reprint(panel.target.scan, reason);
        }),

      rememberShipped: (labels) => set((state) => ({ recent: labels.reduce<PrintedLabel[]>((recent, label) => rememberLabel(recent, label), state.recent) })),

      forgetEnvironment: () => set({ panel: { state: 'idle' }, recent: [], preview: null, operatorNeeded: null }),

      reprintRecent: (index) => {
        const label = get().recent[index];
        if (!label) return;
        set({ panel: { state: 'reason', target: { scan: label.scan, orderRef: label.orderRef, recipient: label.recipient }, at: deps.now() } });
      },

      previewRecent: (index) => {
        const label = get().recent[index];
        if (label?.entryId === undefined) return;
        set({ preview: { entryId: label.entryId, orderRef: label.orderRef } });
      },
      closePreview: () => set({ preview: null }),

      dismiss: () => set({ panel: { state: 'idle' } }),

      cancelWaiting: async () => {
        const panel = get().panel;
        if (panel.state !== 'outcome' || panel.outcome.kind !== 'waiting') return;
        const { runId } = panel.outcome;
        await deps.service.cancel(runId);
        // Cancelled before it reached the printer: nothing more to show for it.
        const now = get().panel;
        if (now.state === 'outcome' && now.outcome.kind === 'waiting' && now.outcome.runId === runId) set({ panel: { state: 'idle' } });
      },

      resumeWaiting: async () => {
        const panel = get().panel;
        if (panel.state !== 'outcome' || panel.outcome.kind !== 'waiting') return;
        // The label's own event turns the panel green once it is out (see onLabel above).
        await deps.service.resume(panel.outcome.runId);
      },
    };
  });
}
