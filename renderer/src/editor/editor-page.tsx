import { ReactFlowProvider, useReactFlow } from '@xyflow/react';
import { useEffect } from 'react';
import { RunPanel } from '../run/run-panel';
import { useAppStore } from '../store/app-store';
import { Canvas } from './canvas';
import { Inspector } from './inspector';
import { Palette } from './palette';
import { ProblemsPanel } from './problems-panel';
import { isEditable, SHORTCUTS } from './shortcuts';

/** The editor of one flow: toolbar, palette, canvas and the side panel. */
export function EditorPage({ flowId }: { flowId: string }) {
  const flow = useAppStore((s) => s.flow);
  const loadedId = useAppStore((s) => s.flowId);
  const notify = useAppStore((s) => s.notify);

  useEffect(() => {
    useAppStore
      .getState()
      .openFlow(flowId)
      .catch((error: unknown) => {
        notify(error instanceof Error ? error.message : String(error));
        useAppStore.getState().navigate({ page: 'home' });
      });
    const flushBeforeUnload = () => void useAppStore.getState().flushSaves();
    window.addEventListener('beforeunload', flushBeforeUnload);
    return () => window.removeEventListener('beforeunload', flushBeforeUnload);
  }, [flowId, notify]);

  if (!flow || loadedId !== flowId) return <main className="loading">Opening…</main>;
  return (
    <ReactFlowProvider>
      <EditorLayout />
    </ReactFlowProvider>
  );
}

function EditorLayout() {
  const flow = useAppStore((s) => s.flow);
  const saveState = useAppStore((s) => s.saveState);
  const canUndo = useAppStore((s) => s.past.length > 0);
  const canRedo = useAppStore((s) => s.future.length > 0);
  const panel = useAppStore((s) => s.panel);
  const problemCount = useAppStore((s) => s.problems.filter((p) => p.severity === 'error').length);
  const isShortcutsOpen = useAppStore((s) => s.isShortcutsOpen);
  const versions = useAppStore((s) => s.versions);
  const isCanvasReady = useAppStore((s) => s.isCanvasReady);
  const { fitView } = useReactFlow();
  const store = useAppStore.getState();

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const state = useAppStore.getState();
      const mod = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();
      if (event.key === 'Escape')
        return state.isShortcutsOpen ? state.setShortcutsOpen(false) : state.setSelection([], []);
      if (isEditable(event.target)) return;
      const handled = (action: () => void) => {
        event.preventDefault();
        action();
      };
      if (mod && key === 'z' && event.shiftKey) return handled(state.redo);
      if (mod && key === 'z') return handled(state.undo);
      if (mod && key === 'y') return handled(state.redo);
      if (mod && key === 'c') return handled(state.copySelection);
      if (mod && key === 'v') return handled(state.paste);
      if (mod && key === 'd') return handled(state.duplicateSelection);
      if (mod && key === 'a') return handled(state.selectAll);
      if (mod && event.shiftKey && key === 'l') return handled(() => void state.autoLayout());
      if (mod && event.key === 'Enter') return handled(() => void state.startRun());
      if (event.key === 'Delete' || event.key === 'Backspace') return handled(state.removeSelection);
      if (event.key === '?') return handled(() => state.setShortcutsOpen(true));
      if (event.shiftKey && event.key === '!') return handled(() => void fitView({ duration: 300 }));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [fitView]);

  if (!flow) return null;
  return (
    <main className="editor">
      <header className="toolbar">
        <button onClick={() => void store.closeFlow().then(() => store.navigate({ page: 'home' }))}>← Flows</button>
        <strong className="flow-title">{flow.name}</strong>
        <code className="muted">{flow.tool.name}</code>
        <span className={`save-state save-${saveState}`} data-testid="save-state">
          {saveState === 'saved' ? 'Saved' : saveState === 'error' ? 'Not saved' : 'Saving…'}
        </span>
        <span className="spacer" />
        <button onClick={store.undo} disabled={!canUndo} title="Undo (Ctrl+Z)">
          Undo
        </button>
        <button onClick={store.redo} disabled={!canRedo} title="Redo (Ctrl+Shift+Z)">
          Redo
        </button>
        <button onClick={() => void store.autoLayout()} title="Auto-layout (Ctrl+Shift+L)">
          Layout
        </button>
        <button onClick={() => void fitView({ duration: 300 })} title="Fit view (Shift+1)">
          Fit
        </button>
        <button
          onClick={() => void store.publish('')}
          disabled={problemCount > 0}
          title={problemCount > 0 ? 'Fix the problems first' : 'Publish this draft as the next version'}
        >
          Publish{versions[0] ? ` (v${versions[0].version + 1})` : ''}
        </button>
        <button onClick={() => store.setShortcutsOpen(true)} aria-label="Keyboard shortcuts">
          ?
        </button>
      </header>
      <Palette />
      <Canvas />
      <aside className="side-panel">
        <nav className="tabs" role="tablist">
          <button role="tab" aria-selected={panel === 'inspector'} onClick={() => store.setPanel('inspector')}>
            Inspector
          </button>
          <button role="tab" aria-selected={panel === 'problems'} onClick={() => store.setPanel('problems')}>
            Problems{problemCount > 0 ? ` (${problemCount})` : ''}
          </button>
          <button role="tab" aria-selected={panel === 'run'} onClick={() => store.setPanel('run')}>
            Run
          </button>
        </nav>
        {isCanvasReady && panel === 'inspector' && <Inspector />}
        {isCanvasReady && panel === 'problems' && <ProblemsPanel />}
        {isCanvasReady && panel === 'run' && <RunPanel />}
      </aside>
      {isShortcutsOpen && (
        <div className="dialog-backdrop" onClick={() => store.setShortcutsOpen(false)}>
          <div className="dialog" role="dialog" aria-label="Keyboard shortcuts" onClick={(e) => e.stopPropagation()}>
            <h2>Keyboard shortcuts</h2>
            <table>
              <tbody>
                {SHORTCUTS.map((s) => (
                  <tr key={s.keys}>
                    <td>
                      <kbd>{s.keys}</kbd>
                    </td>
                    <td>{s.action}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <button onClick={() => store.setShortcutsOpen(false)}>Close</button>
          </div>
        </div>
      )}
    </main>
  );
}
