import { createStore, type StoreApi } from 'zustand/vanilla';
import type { CallResult, EventPayload, StationApi } from '../../../shared/contract';
import type { AppInfo } from '../../../shared/contract/app';
import type { PrinterData } from '../../../shared/contract/printers';
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
  saveSettings(change: SettingsChange): Promise<CallResult<SettingsChangeResult>>;
  addNotice(notice: Omit<Notice, 'id'>): void;
  dismissNotice(id: number): void;
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
      }));
      await get().pollPrinters();
    },
    pollPrinters: async () => {
      const printers = get().printers ?? [];
      const statuses = await Promise.all(printers.map((printer) => station['printers.status']({ id: printer.id })));
      const states: Record<string, PrinterStatusView['state']> = {};
      for (const [index, status] of statuses.entries()) {
        const printer = printers[index];
        if (printer) states[printer.id] = status.ok ? status.value.state : 'unknown';
      }
      set((state) => ({ printerStates: { ...state.printerStates, ...states } }));
    },
    applyPrinterState: (event) => set((state) => ({ printerStates: { ...state.printerStates, [event.printerId]: event.state } })),
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
