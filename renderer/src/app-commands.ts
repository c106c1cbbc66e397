import type { AppCommand, AppCommandName } from '../../core/api/app-commands';
import { togglePin } from './editor/pin-editor';
import { isEditable } from './editor/shortcuts';
import { useAppStore, type AppState } from './store/app-store';

/** The canvas fits its view on this window event (only the canvas holds React Flow's viewport). */
export const FIT_VIEW_EVENT = 'flowbench:fit-view';
/** The canvas opens its menu of node types to add (the N key) on this window event. */
export const ADD_NODE_EVENT = 'flowbench:add-node';

/** What a text field does with an editing command from the menu: what its own shortcut would. */
const TEXT_COMMANDS: Partial<Record<AppCommand['name'], string>> = {
  undo: 'undo',
  redo: 'redo',
  cut: 'cut',
  copy: 'copy',
  paste: 'paste',
  delete: 'delete',
  'select-all': 'selectAll',
};

type EditorCommand = Exclude<AppCommandName, 'new-flow' | 'home' | 'connect' | 'shortcuts'>;

/** How long a menu's Paste waits for the system clipboard before it pastes what was copied here. */
const CLIPBOARD_WAIT_MS = 500;

/** The system clipboard's text, when the page may read it (a browser asks first; refused or slow: none). */
async function clipboardText(): Promise<string | undefined> {
  // Not every page has it (an insecure origin, an older browser).
  if (typeof navigator.clipboard?.readText !== 'function') return undefined;
  const read = navigator.clipboard.readText().catch(() => undefined);
  const late = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), CLIPBOARD_WAIT_MS));
  return Promise.race([read, late]);
}

/**
 * A menu's Paste (the canvas's right-click menu, the desktop app's): nodes
 * another tool copied (n8n's) when the system clipboard holds them, brought
 * into view; otherwise what was copied here. Ctrl+V has the clipboard in its
 * paste event instead (editor-keys.tsx).
 */
async function pasteFromClipboard(): Promise<void> {
  pasteClipboardText(await clipboardText());
}

/**
 * Pastes the system clipboard's text when it holds another tool's nodes
 * (brought into view beside the flow's), else what was copied here: a menu's
 * Paste and Ctrl+V's paste event both end here.
 */
export function pasteClipboardText(text: string | undefined): void {
  // The state now: a menu's Paste has waited for the clipboard meanwhile.
  const state = useAppStore.getState();
  if (text !== undefined && state.pasteText(text)) window.dispatchEvent(new Event(FIT_VIEW_EVENT));
  else state.paste();
}

/**
 * What each editor command does on the canvas. The editor's keyboard
 * shortcuts (editor-keys.tsx) and the app's menu both run these, so a key and
 * its menu item can never do different things.
 */
export const EDITOR_COMMANDS: Record<EditorCommand, (state: AppState) => void> = {
  undo: (state) => state.undo(),
  redo: (state) => state.redo(),
  cut: (state) => {
    state.copySelection();
    state.removeSelection();
  },
  copy: (state) => state.copySelection(),
  paste: () => void pasteFromClipboard(),
  duplicate: (state) => state.duplicateSelection(),
  deactivate: (state) => state.toggleDeactivated(state.selectedNodes),
  pin: togglePin,
  rename: (state) => {
    const [only, ...more] = state.selectedNodes;
    if (!only || more.length > 0 || !state.flow?.nodes.some((n) => n.id === only)) return;
    state.setPanel('inspector');
    // The inspector draws its label field on the next frame when another tab was open.
    requestAnimationFrame(() => document.querySelector<HTMLInputElement>('#node-label')?.select());
  },
  delete: (state) => state.removeSelection(),
  'select-all': (state) => state.selectAll(),
  find: (state) => state.openFind(),
  replace: (state) => state.openFind({ replace: true }),
  run: (state) => void state.startRun(),
  // The whole flow laid out is fitted to the view: the cards can land far from where the view was.
  // A selection laid out stays where it was, and so does the view.
  'auto-layout': (state) =>
    void state.autoLayout().then((what) => what === 'flow' && window.dispatchEvent(new Event(FIT_VIEW_EVENT))),
  'fit-view': () => void window.dispatchEvent(new Event(FIT_VIEW_EVENT)),
};

/**
 * Runs a command from the desktop app's menu (or a flow file opened with the
 * app). Editing commands go to the focused text field when there is one, as
 * their shortcuts do; otherwise to the editor.
 */
export async function runAppCommand(command: AppCommand): Promise<void> {
  const state = useAppStore.getState();
  const inEditor = state.route.page === 'editor';
  const textCommand = TEXT_COMMANDS[command.name];
  if (textCommand && isEditable(document.activeElement)) {
    document.execCommand(textCommand);
    return;
  }
  switch (command.name) {
    case 'import-file': {
      const id = await state.importFlowText(command.fileName, command.text);
      // A refused file is explained on the flows list, as for an import from there.
      return state.navigate(id ? { page: 'editor', flowId: id } : { page: 'home' });
    }
    case 'import-refused':
      useAppStore.setState({
        refusedImport: { fileName: command.fileName, message: command.message, problems: [] },
      });
      return state.navigate({ page: 'home' });
    case 'new-flow':
      return state.navigate({ page: 'editor', flowId: await state.createFlow('Untitled flow') });
    case 'home':
      return state.navigate({ page: 'home' });
    case 'connect':
      return state.navigate({ page: 'connect' });
    case 'shortcuts':
      return state.setShortcutsOpen(true);
  }
  if (inEditor) EDITOR_COMMANDS[command.name](state);
}
