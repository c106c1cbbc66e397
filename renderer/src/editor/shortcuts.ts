/** The editor's keyboard shortcuts, listed in the help dialog (press ?). */
export const SHORTCUTS: { keys: string; action: string }[] = [
  { keys: 'Ctrl+Z', action: 'Undo' },
  { keys: 'Ctrl+Shift+Z / Ctrl+Y', action: 'Redo' },
  { keys: 'Ctrl+C / Ctrl+V', action: 'Copy / paste nodes and notes (also between flows)' },
  { keys: 'Ctrl+D', action: 'Duplicate the selection' },
  { keys: 'F2', action: 'Rename the selected node (its label in the inspector)' },
  { keys: 'D', action: 'Deactivate the selected nodes (runs pass over them), or activate them again' },
  {
    keys: 'P',
    action:
      "Pin the selected node's output from the run shown (runs take it instead of running the node), or unpin it; with none, write one",
  },
  { keys: 'Ctrl+A', action: 'Select all' },
  { keys: 'Ctrl+F', action: 'Find a node or note by label, id, type, prompt or text (Enter: next)' },
  { keys: 'Ctrl+H', action: 'Replace words in labels, prompts, text settings and notes (Find with Replace)' },
  {
    keys: 'Alt+C / Alt+W / Alt+R / Alt+P',
    action: 'In Find: match case / whole words only / regular expression / Replace keeps the capitals',
  },
  { keys: 'Delete / Backspace', action: 'Delete the selection' },
  { keys: 'Shift+drag', action: 'Box select' },
  { keys: 'Arrow keys', action: 'Move the selected cards a grid step (with Shift: four)' },
  { keys: 'Drag off a port', action: 'Let go on empty canvas: add a node joined there (type to filter, Enter)' },
  { keys: 'Click an edge, then +', action: 'Put a node in the middle of that edge' },
  { keys: 'N', action: 'Add a node: after the selected one, joined to it, else in the middle of the view' },
  { keys: 'Double-click the canvas', action: 'Add a node there' },
  { keys: 'Right-click', action: 'What can be done there: a card or note, the canvas, an edge' },
  { keys: 'Ctrl+click', action: 'Add to the selection' },
  { keys: 'Ctrl+Shift+L', action: 'Auto-layout: the selected nodes when two or more are, else the whole flow' },
  { keys: 'Shift+1', action: 'Fit view' },
  { keys: 'Shift+S', action: 'Add a sticky note (double-click it to write)' },
  { keys: 'Ctrl+Enter', action: 'Run with the test inputs (also from the Run form)' },
  { keys: 'Escape', action: 'Cancel a running run, else clear the selection; close dialogs' },
  { keys: '?', action: 'This list' },
];

export const isEditable = (target: EventTarget | null): boolean =>
  target instanceof HTMLElement &&
  (target.isContentEditable ||
    ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) ||
    target.closest('.cm-editor') !== null);
