import { useEffect } from 'react';
import { useAppStore } from '../store/app-store';
import { isEditable } from './shortcuts';
import { ADD_NODE_EVENT, EDITOR_COMMANDS, FIT_VIEW_EVENT, pasteClipboardText } from '../app-commands';
import { useFitFlow } from './use-fit-flow';
import { useAddNote } from './palette';

const isFindField = (target: EventTarget | null) =>
  target instanceof HTMLElement && target.closest('.find-bar') !== null;

/** The editor's keyboard shortcuts (listed in SHORTCUTS). Renders nothing. */
export function EditorKeys() {
  const fitFlow = useFitFlow();
  const addNote = useAddNote();

  useEffect(() => {
    // Ctrl+V was pressed and its paste event has not come yet.
    let pasteAwaited = false;
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
      const run = (command: keyof typeof EDITOR_COMMANDS) => handled(() => EDITOR_COMMANDS[command](state));
      if (mod && event.key === 'Enter' && !event.defaultPrevented) return run('run');
      // Also from Find's own field (again: selects its words); other fields keep their own find.
      if (mod && key === 'f' && (!isEditable(event.target) || isFindField(event.target))) return run('find');
      // Ctrl+H, and on a Mac Cmd+Option+F (Cmd+H hides the app there): Find with its Replace row.
      const isReplaceKey = (event.ctrlKey && key === 'h') || (event.metaKey && event.altKey && event.code === 'KeyF');
      if (isReplaceKey && (!isEditable(event.target) || isFindField(event.target))) return run('replace');
      if (isEditable(event.target)) return;
      if (mod && key === 'z' && event.shiftKey) return run('redo');
      if (mod && key === 'z') return run('undo');
      if (mod && key === 'y') return run('redo');
      if (mod && key === 'c') return run('copy');
      // The paste event that follows carries the system clipboard (n8n's copied nodes); where
      // none comes (a desktop window without an Edit menu), what was copied here is pasted.
      if (mod && key === 'v') {
        pasteAwaited = true;
        setTimeout(() => {
          if (pasteAwaited) useAppStore.getState().paste();
          pasteAwaited = false;
        }, 0);
        return;
      }
      if (mod && key === 'd') return run('duplicate');
      if (mod && key === 'a') return run('select-all');
      if (mod && event.shiftKey && key === 'l') return run('auto-layout');
      if (event.key === 'Delete' || event.key === 'Backspace') return run('delete');
      if (event.key === '?') return handled(() => state.setShortcutsOpen(true));
      // The next step, joined to the selected node, as n8n's Tab adds one (Tab here moves focus between cards).
      if (key === 'n' && !mod && !event.shiftKey && !event.altKey) {
        return handled(() => window.dispatchEvent(new Event(ADD_NODE_EVENT)));
      }
      // n8n's key: runs pass over the selected nodes (again: they run again).
      if (key === 'd' && !mod && !event.shiftKey && !event.altKey) return run('deactivate');
      // n8n's key: the selected node's output pinned (again: unpinned).
      if (key === 'p' && !mod && !event.shiftKey && !event.altKey) return run('pin');
      if (event.key === 'F2') return run('rename');
      if (event.shiftKey && event.key === '!') return handled(fitFlow);
      // n8n's key for a sticky note.
      if (event.shiftKey && !mod && key === 's') return handled(addNote);
    };
    const onPaste = (event: ClipboardEvent) => {
      if (isEditable(event.target)) return;
      pasteAwaited = false;
      event.preventDefault();
      pasteClipboardText(event.clipboardData?.getData('text/plain'));
    };
    // The desktop app's menu asks for it too (app-commands.ts).
    window.addEventListener('keydown', onKey);
    window.addEventListener('paste', onPaste);
    window.addEventListener(FIT_VIEW_EVENT, fitFlow);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('paste', onPaste);
      window.removeEventListener(FIT_VIEW_EVENT, fitFlow);
    };
  }, [fitFlow, addNote]);

  return null;
}
