import type { Flow } from '../../../core/model/flow';
import { useAppStore } from '../store/app-store';

type Hint = 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint';

/**
 * MCP's tool annotations, in words: what clients read to decide whether to
 * ask the person before a call (a read-only tool may run at once, a
 * destructive one is confirmed). Unset, each is MCP's default (`shown`).
 */
const HINTS: { key: Hint; label: string; shown: boolean }[] = [
  { key: 'readOnlyHint', label: 'Only reads: it changes nothing (clients may call it without asking)', shown: false },
  { key: 'destructiveHint', label: 'May delete or overwrite things (clients may ask first)', shown: true },
  { key: 'idempotentHint', label: 'Calling it again with the same arguments changes nothing more', shown: false },
  { key: 'openWorldHint', label: 'Reaches the world outside (the web, other services)', shown: true },
];

/** How clients should treat the tool: its annotations, each a checkbox. */
export function ToolHintsField({ flow }: { flow: Flow }) {
  const annotations = flow.tool.annotations;
  const readsOnly = annotations.readOnlyHint === true;
  const set = (change: Partial<Flow['tool']['annotations']>) =>
    useAppStore
      .getState()
      .updateFlowFields({ tool: { annotations: { ...annotations, ...change } } }, 'tool.annotations');
  return (
    <fieldset className="field tool-hints">
      <legend className="field-label">What clients are told about it</legend>
      {HINTS.map(({ key, label, shown }) => (
        <label key={key} className="field inline" htmlFor={`tool-${key}`}>
          <input
            id={`tool-${key}`}
            type="checkbox"
            // A tool that only reads destroys nothing: MCP reads the destructive hint only without it.
            checked={key === 'destructiveHint' && readsOnly ? false : (annotations[key] ?? shown)}
            disabled={key === 'destructiveHint' && readsOnly}
            onChange={(e) => set({ [key]: e.target.checked })}
          />
          <span className="field-label">{label}</span>
        </label>
      ))}
    </fieldset>
  );
}
