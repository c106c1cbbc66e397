/**
 * Commands the desktop app's menu sends the window. Each editor command is the
 * one its keyboard shortcut runs: the menu shows the shortcut, but the key
 * itself still reaches the page, where a text field keeps its own undo, copy
 * and paste and the canvas gets the editor's.
 */
export const APP_COMMANDS = [
  'new-flow',
  'home',
  'connect',
  'undo',
  'redo',
  'cut',
  'copy',
  'paste',
  'duplicate',
  'deactivate',
  'pin',
  'rename',
  'delete',
  'select-all',
  'find',
  'replace',
  'run',
  'auto-layout',
  'fit-view',
  'shortcuts',
] as const;
export type AppCommandName = (typeof APP_COMMANDS)[number];

export type AppCommand =
  | { name: AppCommandName }
  /** A flow file opened from the menu, the file manager or a second launch: the window imports it as the editor does. */
  | { name: 'import-file'; fileName: string; text: string }
  /** A flow file the app could not read (gone, too large): the window says why, as for a refused import. */
  | { name: 'import-refused'; fileName: string; message: string };
