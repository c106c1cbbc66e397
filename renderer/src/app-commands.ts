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
  paste: (state) => state.paste(),
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
