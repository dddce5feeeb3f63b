import type { i18n } from 'i18next';
import type { StoreApi } from 'zustand/vanilla';
import type { StationApi } from '../../../shared/contract';
import { createI18n, switchLanguage } from '../i18n/create-i18n';
import { createPreviewService, type PreviewService } from '../preview/preview-service';
import { createContractScanService } from '../scan/contract-scan-service';
import type { ScanService } from '../scan/scan-outcome';
import { createScaleStore, type ScaleState } from '../scale/scale-store';
import { createShipStore, type ShipState } from '../ship/ship-store';
import { createSoundPlayer, type SoundPlayer } from '../sound/sound-player';
import { createAppStore, type AppState } from './app-store';
import { defaultPreferences, type Language, type PreferenceStorage } from './preferences';
import { createPreferencesStore, type PreferencesState } from './preferences-store';
import { createSandboxStore, type SandboxState } from './sandbox-store';
import { createScanStore, type ScanState } from './scan-store';
import { createShiftStore, type ShiftState } from './shift-store';

/** Everything the screen keeps, built once per page and handed down through React context. */
export interface StationStores {
  app: StoreApi<AppState>;
  scan: StoreApi<ScanState>;
  shift: StoreApi<ShiftState>;
  sandbox: StoreApi<SandboxState>;
  ship: StoreApi<ShipState>;
  scale: StoreApi<ScaleState>;
  preferences: StoreApi<PreferencesState>;
  sounds: SoundPlayer;
  preview: PreviewService;
  /** The page's clock (milliseconds since the epoch): what "today" is for a file made on the screen. */
  now: () => number;
  i18n: i18n;
  /** Resolves once the chosen language's words are in (at once for English): the page renders then. */
  languageReady: Promise<void>;
}

export interface StationStoresOptions {
  station: StationApi;
  storage: PreferenceStorage;
  browserLanguages: readonly string[];
  /** Defaults to `printing.print` over the contract. */
  scanService?: ScanService;
  sounds?: SoundPlayer;
  preview?: PreviewService;
  now?: () => number;
}

export function createStationStores(options: StationStoresOptions): StationStores {
  const preferences = createPreferencesStore(options.storage, defaultPreferences(options.browserLanguages));
  const sounds = options.sounds ?? createSoundPlayer();
  const i18n = createI18n(preferences.getState().language);
  const showLanguage = (language: Language) =>
    switchLanguage(i18n, language, () => preferences.getState().language === language).catch(() => {
      // Its file could not be fetched (the station went away mid-load): the screen stays in English.
    });
  const languageReady = showLanguage(preferences.getState().language);
  preferences.subscribe((state, previous) => {
    if (state.language !== previous.language) void showLanguage(state.language);
  });
  const app = createAppStore(options.station);
  const scanService =
    options.scanService ??
    createContractScanService(options.station, {
      // The code is what the journal keeps; the screen translates it (journal/reason-words.ts).
      reasonText: (reason) => reason,
      operator: () => app.getState().settings?.operator ?? '',
    });
  const scan = createScanStore({
    service: scanService,
    ship: {
      open: ({ shipment, parcels }) => ship.getState().openScanned(shipment, parcels),
      // A ship under way keeps its panel; any other open panel gives way to the printed outcome.
      giveWay: () => {
        if (ship.getState().panel.state !== 'working') ship.getState().close();
      },
    },
    operator: () => app.getState().settings?.operator ?? '',
    // The outcome is drawn first (React draws a store change in a microtask), its sound right
    // after: setting up Web Audio's notes takes 0.3–1 ms of the page, and a sound a moment later
    // is not heard as later.
    playSound: (kind) => setTimeout(() => sounds.play(kind, preferences.getState().volume), 0),
    now: options.now ?? Date.now,
  });
  const ship = createShipStore({ station: options.station, onPrinted: (labels) => scan.getState().rememberShipped(labels), now: options.now ?? Date.now });
  // Results and last labels belong to the environment they were printed in: a reprint key must
  // never reach for a sandbox label once TEST or LIVE is chosen, nor the other way round.
  app.subscribe((state, previous) => {
    const now = state.info?.environment;
    const before = previous.info?.environment;
    if (now && before && now !== before) {
      scan.getState().forgetEnvironment();
      ship.getState().close();
    }
  });
  return {
    app,
    scan,
    shift: createShiftStore({ station: options.station, now: options.now ?? Date.now }),
    sandbox: createSandboxStore({
      station: options.station,
      // A scan's answer is awaited within a blink; a ship's labels print for seconds meanwhile and
      // its panel shows them as they come, so a refresh then stands in nobody's way.
      busy: () => scan.getState().inHand(),
    }),
    ship,
    scale: createScaleStore({ station: options.station }),
    preferences,
    sounds,
    preview: options.preview ?? createPreviewService(),
    now: options.now ?? Date.now,
    i18n,
    languageReady,
  };
}

/** Page storage that never throws: a locked-down kiosk profile may refuse localStorage. */
export function pageStorage(getStorage: () => Storage): PreferenceStorage {
  const memory = new Map<string, string>();
  const storage = (() => {
    try {
      return getStorage();
    } catch {
      return null;
    }
  })();
  return {
    getItem: (key) => {
      const kept = memory.get(key);
      if (kept !== undefined) return kept;
      try {
        return storage?.getItem(key) ?? null;
      } catch {
        return null;
      }
    },
    setItem: (key, value) => {
      memory.set(key, value);
      try {
        storage?.setItem(key, value);
      } catch {
        // Full or refused: the in-memory copy keeps the choice for this session.
      }
    },
  };
}
