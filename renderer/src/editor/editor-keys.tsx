import { useReactFlow } from '@xyflow/react';
import { useEffect } from 'react';
import { useAppStore } from '../store/app-store';
import { isEditable } from './shortcuts';
import { FIT_VIEW_EVENT } from '../app-commands';

/** The editor's keyboard shortcuts (listed in SHORTCUTS). Renders nothing. */
export function EditorKeys() {
  const { fitView } = useReactFlow();

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const state = useAppStore.getState();
      const mod = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();
      if (event.key === 'Escape') {
        // Whatever handled it first (a completion list closing, a dialog) keeps it.
        if (event.defaultPrevented) return;
        if (state.isShortcutsOpen) return state.setShortcutsOpen(false);
        // In a field, Escape leaves the field; the node stays selected with its inspector open.
        if (isEditable(event.target)) return (event.target as HTMLElement).blur();
        // Outside fields, Escape stops a run that is going before it clears the selection.
        if (state.run?.status === 'running') return void state.cancelRun();
        return state.setSelection([], []);
      }
      const handled = (action: () => void) => {
        event.preventDefault();
        action();
      };
      // Ctrl+Enter means nothing else in a form field: it runs from the Run form's fields too
      // (a template editor that uses it for a new line has handled it first).
      if (mod && event.key === 'Enter' && !event.defaultPrevented) return handled(() => void state.startRun());
      if (isEditable(event.target)) return;
      if (mod && key === 'z' && event.shiftKey) return handled(state.redo);
      if (mod && key === 'z') return handled(state.undo);
      if (mod && key === 'y') return handled(state.redo);
      if (mod && key === 'c') return handled(state.copySelection);
      if (mod && key === 'v') return handled(state.paste);
      if (mod && key === 'd') return handled(state.duplicateSelection);
      if (mod && key === 'a') return handled(state.selectAll);
      if (mod && event.shiftKey && key === 'l') return handled(() => void state.autoLayout());
      if (event.key === 'Delete' || event.key === 'Backspace') return handled(state.removeSelection);
      if (event.key === '?') return handled(() => state.setShortcutsOpen(true));
      if (event.shiftKey && event.key === '!') return handled(() => void fitView({ duration: 300 }));
    };
    // The desktop app's menu asks for it too (app-commands.ts).
    const onFitView = () => void fitView({ duration: 300 });
    window.addEventListener('keydown', onKey);
    window.addEventListener(FIT_VIEW_EVENT, onFitView);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener(FIT_VIEW_EVENT, onFitView);
    };
  }, [fitView]);

  return null;
}
