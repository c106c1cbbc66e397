import { ChatPanel } from '../run/chat-panel';
import { RunPanel } from '../run/run-panel';
import { TestsPanel } from '../run/tests-panel';
import { selectErrorCount, useAppStore } from '../store/app-store';
import { Inspector } from './inspector';
import { ProblemsPanel } from './problems-panel';

/** Inspector, problems, run, chat and tests tabs. Their content waits until the canvas is drawn: the canvas comes first. */
export function SidePanel() {
  const panel = useAppStore((s) => s.panel);
  const errorCount = useAppStore(selectErrorCount);
  const isCanvasReady = useAppStore((s) => s.isCanvasReady);
  const setPanel = useAppStore((s) => s.setPanel);

  return (
    <aside className="side-panel">
      <nav className="tabs" role="tablist">
        <button role="tab" aria-selected={panel === 'inspector'} onClick={() => setPanel('inspector')}>
          Inspector
        </button>
        <button role="tab" aria-selected={panel === 'problems'} onClick={() => setPanel('problems')}>
          Problems{errorCount > 0 ? ` (${errorCount})` : ''}
        </button>
        <button role="tab" aria-selected={panel === 'run'} onClick={() => setPanel('run')}>
          Run
        </button>
        <button role="tab" aria-selected={panel === 'chat'} onClick={() => setPanel('chat')}>
          Chat
        </button>
        <button role="tab" aria-selected={panel === 'tests'} onClick={() => setPanel('tests')}>
          Tests
        </button>
      </nav>
      {isCanvasReady && panel === 'inspector' && <Inspector />}
      {isCanvasReady && panel === 'problems' && <ProblemsPanel />}
      {isCanvasReady && panel === 'run' && <RunPanel />}
      {isCanvasReady && panel === 'chat' && <ChatPanel />}
      {isCanvasReady && panel === 'tests' && <TestsPanel />}
    </aside>
  );
}
