import type { MenuItemConstructorOptions } from 'electron';
import type { AppCommandName } from '../../core/api/app-commands';

export interface MenuActions {
  /** Sends an editor command to the focused window. */
  send(command: AppCommandName): void;
  openFlowFile(): void;
  showAbout(): void;
}

/**
 * An editor command with its shortcut shown. `registerAccelerator: false`
 * leaves the key to the page, where a focused text field keeps its own undo,
 * copy and paste and the canvas runs the editor's (SHORTCUTS lists the same).
 */
const command = (
  actions: MenuActions,
  label: string,
  name: AppCommandName,
  accelerator?: string,
): MenuItemConstructorOptions => ({
  label,
  ...(accelerator ? { accelerator, registerAccelerator: false } : {}),
  click: () => actions.send(name),
});

/** The application menu: the editor's commands with their shortcuts, files, view and help. */
export function appMenu(platform: NodeJS.Platform, actions: MenuActions): MenuItemConstructorOptions[] {
  const isMac = platform === 'darwin';
  const about: MenuItemConstructorOptions = { label: 'About Flowbench', click: () => actions.showAbout() };
  return [
    ...(isMac
      ? [
          {
            label: 'Flowbench',
            submenu: [
              about,
              { type: 'separator' },
              { role: 'services' },
              { type: 'separator' },
              { role: 'hide' },
              { role: 'hideOthers' },
              { role: 'unhide' },
              { type: 'separator' },
              { role: 'quit' },
            ],
          } satisfies MenuItemConstructorOptions,
        ]
      : []),
    {
      label: 'File',
      submenu: [
        { label: 'New Flow', accelerator: 'CmdOrCtrl+N', click: () => actions.send('new-flow') },
        { label: 'Open Flow File…', accelerator: 'CmdOrCtrl+O', click: () => actions.openFlowFile() },
        { type: 'separator' },
        { label: 'All Flows', accelerator: 'CmdOrCtrl+Shift+H', click: () => actions.send('home') },
        { label: 'Connect a Client…', click: () => actions.send('connect') },
        { type: 'separator' },
        isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    {
      label: 'Edit',
      submenu: [
        command(actions, 'Undo', 'undo', 'CmdOrCtrl+Z'),
        command(actions, 'Redo', 'redo', 'CmdOrCtrl+Shift+Z'),
        { type: 'separator' },
        command(actions, 'Cut', 'cut', 'CmdOrCtrl+X'),
        command(actions, 'Copy', 'copy', 'CmdOrCtrl+C'),
        command(actions, 'Paste', 'paste', 'CmdOrCtrl+V'),
        command(actions, 'Duplicate', 'duplicate', 'CmdOrCtrl+D'),
        command(actions, 'Deactivate / Activate', 'deactivate', 'D'),
        command(actions, 'Pin / Unpin Output', 'pin', 'P'),
        command(actions, 'Rename', 'rename', 'F2'),
        command(actions, 'Delete', 'delete', 'Delete'),
        command(actions, 'Select All', 'select-all', 'CmdOrCtrl+A'),
        { type: 'separator' },
        command(actions, 'Find…', 'find', 'CmdOrCtrl+F'),
        // Cmd+H hides the app on macOS; Cmd+Option+F is the Mac's Replace.
        command(actions, 'Replace…', 'replace', isMac ? 'Cmd+Alt+F' : 'Ctrl+H'),
      ],
    },
    {
      label: 'Flow',
      submenu: [
        command(actions, 'Run with Test Inputs', 'run', 'CmdOrCtrl+Enter'),
        command(actions, 'Auto-layout', 'auto-layout', 'CmdOrCtrl+Shift+L'),
        command(actions, 'Fit View', 'fit-view', 'Shift+1'),
      ],
    },
    {
      label: 'View',
      submenu: [
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [command(actions, 'Keyboard Shortcuts', 'shortcuts', 'Shift+/'), ...(isMac ? [] : [about])],
    },
  ];
}
