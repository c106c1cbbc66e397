import type { StateCreator } from 'zustand';
import type { AppState } from './app-store';

/** Dialogs, panels and passing messages. */
export interface UiSlice {
  route: { page: 'home' } | { page: 'editor'; flowId: string };
  toast: string | undefined;
  isShortcutsOpen: boolean;
  panel: 'inspector' | 'problems' | 'run';
  /** The canvas is drawn; the side panel renders after it, so a big flow shows sooner. */
  isCanvasReady: boolean;
  navigate: (route: UiSlice['route']) => void;
  notify: (message: string) => void;
  setShortcutsOpen: (isOpen: boolean) => void;
  setPanel: (panel: UiSlice['panel']) => void;
}

export const routeFromHash = (): UiSlice['route'] => {
  const match = /^#\/flow\/(.+)$/.exec(location.hash);
  return match?.[1] ? { page: 'editor', flowId: decodeURIComponent(match[1]) } : { page: 'home' };
};

let toastTimer: ReturnType<typeof setTimeout> | undefined;

export const createUiSlice: StateCreator<AppState, [], [], UiSlice> = (set) => ({
  route: routeFromHash(),
  toast: undefined,
  isShortcutsOpen: false,
  panel: 'inspector',
  isCanvasReady: false,
  navigate(route) {
    const hash = route.page === 'editor' ? `#/flow/${encodeURIComponent(route.flowId)}` : '#/';
    if (location.hash !== hash) history.pushState(null, '', `${location.pathname}${location.search}${hash}`);
    set({ route });
  },
  notify(message) {
    set({ toast: message });
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => set({ toast: undefined }), 5000);
  },
  setShortcutsOpen(isOpen) {
    set({ isShortcutsOpen: isOpen });
  },
  setPanel(panel) {
    set({ panel });
  },
});
