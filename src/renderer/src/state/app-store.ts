import { createStore, type StoreApi } from 'zustand/vanilla';
import type { CallResult, EventPayload, StationApi } from '../../../shared/contract';
import type { AppInfo } from '../../../shared/contract/app';
import type { HeadFaultData, PrinterData, RollFitData } from '../../../shared/contract/printers';
import type { Settings, SettingsChange, SettingsChangeResult } from '../../../shared/contract/settings';
import type { StationErrorData } from '../../../shared/errors';
import type { PrinterStatusView } from '../components/PrinterStatusArea';
import type { ScreenId } from '../navigation/shortcuts';
import type { FloorAction } from '../../../shared/contract/floor';
import type { NoticeCode } from '../../../shared/contract/app';
import type { ErrorFacts } from '../../../shared/errors';
import type { RecordedKey } from '../../../shared/keyboard/recorded-keys';

/** Notices the screen raises itself from an event's facts (not sent by main as app.notice). */
export type ScreenNoticeCode = 'offline-merged' | 'offline-printed-twice' | `floor-${FloorAction}`;

export interface Notice {
  id: number;
  level: 'info' | 'warning' | 'error';
  /** English from main; shown only when the notice has no code the screen words. */
  message: string;
  code?: NoticeCode | ScreenNoticeCode | undefined;
  facts?: ErrorFacts | undefined;
}

export interface AppState {
  info: AppInfo | null;
  infoError: StationErrorData | null;
  settings: Settings | null;
  /** The current environment's printers; null until listed (or when they could not be). */
  printers: PrinterData[] | null;
  /** Each printer's last known state, by id. */
  printerStates: Record<string, PrinterStatusView['state']>;
  /** What each printer last said of its roll and its printhead, by id (the printer card's warnings). */
  printerCare: Record<string, PrinterCare>;
  screen: ScreenId;
  notices: Notice[];
  /** The keys of the last scan of the scanner check barcode (Setup › Scanner), with how many checks came before. */
  scannerCheck: { keys: readonly RecordedKey[]; count: number } | null;
  navigate(screen: ScreenId): void;
  /** A scan of the scanner check barcode: Setup › Scanner says what it shows. */
  showScannerCheck(keys: readonly RecordedKey[]): void;
  loadInfo(): Promise<void>;
  /** Info, settings and printers again: after a change of environment, for example. */
  refresh(): Promise<void>;
  loadPrinters(): Promise<void>;
  /** Asks every printer for its status now. */
  pollPrinters(): Promise<void>;
  applyPrinterState(event: EventPayload<'printers.state'>): void;
  applyPrinterRoll(event: EventPayload<'printers.roll'>): void;
  saveSettings(change: SettingsChange): Promise<CallResult<SettingsChangeResult>>;
  addNotice(notice: Omit<Notice, 'id'>): void;
  dismissNotice(id: number): void;
}

export interface PrinterCare {
  /** The roll against the A6 label; null until the printer was asked. */
  roll: RollFitData | null;
  headFaults: HeadFaultData[];
}

export const noticeLimit = 3;

/** The printer badges for the status area, in list order. */
export function printerViews(state: Pick<AppState, 'printers' | 'printerStates'>): PrinterStatusView[] | null {
  if (state.printers === null) return null;
  return state.printers.map((printer) => ({ id: printer.id, name: printer.name, state: state.printerStates[printer.id] ?? 'unknown' }));
}

export function createAppStore(station: StationApi): StoreApi<AppState> {
  let nextNoticeId = 1;
  return createStore<AppState>()((set, get) => ({
    info: null,
    infoError: null,
    settings: null,
    printers: null,
    printerStates: {},
    printerCare: {},
    screen: 'scan',
    notices: [],
    scannerCheck: null,
    // Every scan asks for the scan screen: staying on it changes nothing, so nothing draws again.
    navigate: (screen) => {
      if (get().screen !== screen) set({ screen });
    },
    showScannerCheck: (keys) => set((state) => ({ scannerCheck: { keys, count: (state.scannerCheck?.count ?? 0) + 1 } })),
    loadInfo: async () => {
      const [info, settings] = await Promise.all([station['app.info']({}), station['settings.get']({})]);
      if (info.ok) set({ info: info.value, infoError: null });
      else set({ infoError: info.error });
      if (settings.ok) set({ settings: settings.value });
    },
    refresh: async () => {
      await get().loadInfo();
      await get().loadPrinters();
    },
    loadPrinters: async () => {
      const listed = await station['printers.list']({});
      if (!listed.ok) {
        set({ printers: null });
        return;
      }
      const ids = new Set(listed.value.printers.map((printer) => printer.id));
      set((state) => ({
        printers: listed.value.printers,
        printerStates: Object.fromEntries(Object.entries(state.printerStates).filter(([id]) => ids.has(id))),
        printerCare: Object.fromEntries(Object.entries(state.printerCare).filter(([id]) => ids.has(id))),
      }));
      await get().pollPrinters();
    },
    pollPrinters: async () => {
      const printers = get().printers ?? [];
      const statuses = await Promise.all(printers.map((printer) => station['printers.status']({ id: printer.id })));
      const states: Record<string, PrinterStatusView['state']> = {};
      const care: Record<string, PrinterCare> = {};
      for (const [index, status] of statuses.entries()) {
        const printer = printers[index];
        if (!printer) continue;
        states[printer.id] = status.ok ? status.value.state : 'unknown';
        // A printer that did not answer keeps what it last said of its roll; its head faults are not known now.
        if (status.ok) care[printer.id] = { roll: status.value.roll ?? get().printerCare[printer.id]?.roll ?? null, headFaults: status.value.headFaults };
      }
      set((state) => ({ printerStates: { ...state.printerStates, ...states }, printerCare: { ...state.printerCare, ...care } }));
    },
    applyPrinterState: (event) => set((state) => ({ printerStates: { ...state.printerStates, [event.printerId]: event.state } })),
    applyPrinterRoll: (event) =>
      set((state) => ({ printerCare: { ...state.printerCare, [event.printerId]: { headFaults: [], ...state.printerCare[event.printerId], roll: event.roll } } })),
    saveSettings: async (change) => {
      const result = await station['settings.set'](change);
      if (result.ok) {
        const environmentChanged = get().settings?.environment !== result.value.environment;
        set({ settings: result.value });
        if (environmentChanged) await get().refresh();
        else await get().loadInfo();
      }
      return result;
    },
    addNotice: (notice) => set((state) => ({ notices: [...state.notices, { ...notice, id: nextNoticeId++ }].slice(-noticeLimit) })),
    dismissNotice: (id) => set((state) => ({ notices: state.notices.filter((notice) => notice.id !== id) })),
  }));
}
