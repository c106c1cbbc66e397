import type { AppCommand } from '../../core/api/app-commands';
import { isEditable } from './editor/shortcuts';
import { useAppStore } from './store/app-store';

/** The canvas fits its view on this window event (only the canvas holds React Flow's viewport). */
export const FIT_VIEW_EVENT = 'flowbench:fit-view';

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
  if (!inEditor) return;
  switch (command.name) {
    case 'undo':
      return state.undo();
    case 'redo':
      return state.redo();
    case 'cut':
      state.copySelection();
      return state.removeSelection();
    case 'copy':
      return state.copySelection();
    case 'paste':
      return state.paste();
    case 'duplicate':
      return state.duplicateSelection();
    case 'delete':
      return state.removeSelection();
    case 'select-all':
      return state.selectAll();
    case 'run':
      return void state.startRun();
    case 'auto-layout':
      return void state.autoLayout();
    case 'fit-view':
      window.dispatchEvent(new Event(FIT_VIEW_EVENT));
      return;
  }
}
