import { createStore, type StoreApi } from 'zustand/vanilla';
import type { StationApi } from '../../../shared/contract';
import type { AppInfo } from '../../../shared/contract/app';
import type { StationErrorData } from '../../../shared/errors';
import type { ScreenId } from '../navigation/shortcuts';

export interface Notice {
  id: number;
  level: 'info' | 'warning' | 'error';
  message: string;
}

export interface AppState {
  info: AppInfo | null;
  infoError: StationErrorData | null;
  screen: ScreenId;
  notices: Notice[];
  navigate(screen: ScreenId): void;
  loadInfo(): Promise<void>;
  addNotice(notice: Omit<Notice, 'id'>): void;
  dismissNotice(id: number): void;
}

export const noticeLimit = 3;

export function createAppStore(station: StationApi): StoreApi<AppState> {
  let nextNoticeId = 1;
  return createStore<AppState>()((set) => ({
    info: null,
    infoError: null,
    screen: 'scan',
    notices: [],
    navigate: (screen) => set({ screen }),
    loadInfo: async () => {
      const result = await station['app.info']({});
      if (result.ok) set({ info: result.value, infoError: null });
      else set({ infoError: result.error });
    },
    addNotice: (notice) =>
      set((state) => ({ notices: [...state.notices, { ...notice, id: nextNoticeId++ }].slice(-noticeLimit) })),
    dismissNotice: (id) => set((state) => ({ notices: state.notices.filter((notice) => notice.id !== id) })),
  }));
}
