import type { StateCreator } from 'zustand';
import type { FindOptions } from '../../../core/editing/find';
import type { UnsavedText } from '../../../core/editing/unsaved-text';
import type { Problem } from '../../../core/model/problems';
import { hashOf, routeFromHash, type Route } from '../routes';
import type { AppState } from './app-store';

/** Something the host refused (a run, a save) with the problems why: shown until closed, as the reasons matter. */
export interface Refusal {
  title: string;
  problems: Problem[];
  /** What the person typed in a refused edit, for them to copy back (the flow was reloaded without it). */
  unsaved?: UnsavedText[];
}

/** Dialogs, panels and passing messages. */
export interface UiSlice {
  route: Route;
  toast: string | undefined;
  refusal: Refusal | undefined;
  isShortcutsOpen: boolean;
  /** Find on the canvas is open; `findAsked` counts the times it was asked for (each puts the cursor in it). */
  isFindOpen: boolean;
  findAsked: number;
  /** Find shows its Replace row. */
  isReplaceOpen: boolean;
  /**
   * What Find and Replace hold and how they match: kept while Find is closed,
   * so that opening it again goes on with the same words, as editors do.
   */
  find: FindSettings;
  setFind: (change: Partial<FindSettings>) => void;
  panel: 'inspector' | 'problems' | 'run' | 'chat' | 'tests';
  /** The canvas is drawn; the side panel renders after it, so a big flow shows sooner. */
  isCanvasReady: boolean;
  navigate: (route: UiSlice['route']) => void;
  /** Opens a run over its flow in the editor (from the runs page, a child-run link, the Connect screen). */
  openRunOf: (run: { id: string; flowId: string }) => void;
  /** A run to show once the editor has opened its flow (the runs page opens one this way). */
  runToOpen: string | undefined;
  notify: (message: string) => void;
  /** Shows a refusal until it is closed (undefined closes it). */
  showRefusal: (refusal: Refusal | undefined) => void;
  setShortcutsOpen: (isOpen: boolean) => void;
  /** Opens Find (with its Replace row when `replace`), or puts the cursor back in it. */
  openFind: (options?: { replace?: boolean }) => void;
  setReplaceOpen: (isOpen: boolean) => void;
  closeFind: () => void;
  setPanel: (panel: UiSlice['panel']) => void;
}

export interface FindSettings extends FindOptions {
  words: string;
  replacement: string;
  /** Replace keeps the capitals of what it replaces. */
  preserveCase: boolean;
}

let toastTimer: ReturnType<typeof setTimeout> | undefined;

export const createUiSlice: StateCreator<AppState, [], [], UiSlice> = (set, get) => ({
  route: routeFromHash(),
  runToOpen: undefined,
  toast: undefined,
  refusal: undefined,
  isShortcutsOpen: false,
  isFindOpen: false,
  findAsked: 0,
  isReplaceOpen: false,
  find: { words: '', replacement: '', matchCase: false, wholeWord: false, regex: false, preserveCase: false },
  panel: 'inspector',
  isCanvasReady: false,
  openRunOf(run) {
    set({ runToOpen: run.id });
    get().navigate({ page: 'editor', flowId: run.flowId });
  },
  navigate(route) {
    const hash = hashOf(route);
    if (location.hash !== hash) history.pushState(null, '', `${location.pathname}${location.search}${hash}`);
    set({ route });
  },
  notify(message) {
    set({ toast: message });
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => set({ toast: undefined }), 5000);
  },
  showRefusal(refusal) {
    set({ refusal });
  },
  setShortcutsOpen(isOpen) {
    set({ isShortcutsOpen: isOpen });
  },
  openFind(options) {
    set((state) => ({
      isFindOpen: true,
      findAsked: state.findAsked + 1,
      isReplaceOpen: options?.replace === true || state.isReplaceOpen,
    }));
  },
  setReplaceOpen(isOpen) {
    set({ isReplaceOpen: isOpen });
  },
  setFind(change) {
    set((state) => ({ find: { ...state.find, ...change } }));
  },
  closeFind() {
    set({ isFindOpen: false });
  },
  setPanel(panel) {
    set({ panel });
  },
});
