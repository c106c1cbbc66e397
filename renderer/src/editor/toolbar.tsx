import { useState } from 'react';
import type { Flow } from '../../../core/model/flow';
import { publishWarnings, type PublishWarning } from '../../../core/model/publish-warnings';
import { nodeRegistry } from '../../../core/nodes/registry';
import { selectErrorCount, useAppStore } from '../store/app-store';
import { hasUnpublishedChanges } from '../store/versions-slice';
import { PublishDialog } from './publish-dialog';
import { EDITOR_COMMANDS } from '../app-commands';
import { useFitFlow } from './use-fit-flow';
import { BackToFlows } from '../page-link';

const SAVE_STATE_TEXT = {
  saved: 'Saved',
  pending: 'Saving…',
  saving: 'Saving…',
  paused: 'Saving paused',
  error: 'Not saved',
} as const;

/**
 * The editor's toolbar. It subscribes to what it shows (save state, undo
 * depth, problems) on its own, so an edit re-renders the toolbar, not the canvas.
 */
export function Toolbar() {
  const name = useAppStore((s) => s.flow?.name);
  const toolName = useAppStore((s) => s.flow?.tool.name);
  const saveState = useAppStore((s) => s.saveState);
  const saveProblem = useAppStore((s) => s.saveProblem);
  const canUndo = useAppStore((s) => s.past.length > 0);
  const canRedo = useAppStore((s) => s.future.length > 0);
  const errorCount = useAppStore(selectErrorCount);
  const latestVersion = useAppStore((s) => s.versions[0]?.version);
  const isPublished = useAppStore((s) => s.versions.length > 0 && !hasUnpublishedChanges(s));
  const fitFlow = useFitFlow();
  /** The publish dialog is open, over the flow as it was when Publish was clicked. */
  const [publishing, setPublishing] = useState<{ flow: Flow; warnings: PublishWarning[] }>();
  const store = useAppStore.getState();

  return (
    <header className="toolbar">
      <BackToFlows beforeLeave={store.closeFlow} />
      <strong className="flow-title">{name}</strong>
      <code className="muted">{toolName}</code>
      <span className={`save-state save-${saveState}`} data-testid="save-state" role="status">
        {saveState === 'paused' && saveProblem
          ? `Saving paused: ${saveProblem} — your edits are kept`
          : SAVE_STATE_TEXT[saveState]}
      </span>
      <span className="spacer" />
      <button onClick={store.undo} disabled={!canUndo} title="Undo (Ctrl+Z)">
        Undo
      </button>
      <button onClick={store.redo} disabled={!canRedo} title="Redo (Ctrl+Shift+Z)">
        Redo
      </button>
      <button
        onClick={() => EDITOR_COMMANDS['auto-layout'](store)}
        title="Auto-layout (Ctrl+Shift+L): the selected nodes when two or more are selected, else the whole flow"
      >
        Layout
      </button>
      <button onClick={fitFlow} title="Fit view (Shift+1)">
        Fit
      </button>
      <button onClick={() => store.openFind()} title="Find a node or note (Ctrl+F)">
        Find
      </button>
      {publishing && (
        <PublishDialog
          flow={publishing.flow}
          next={(latestVersion ?? 0) + 1}
          warnings={publishing.warnings}
          onPublish={(note) => void store.publish(note)}
          onClose={() => setPublishing(undefined)}
        />
      )}
      <button
        onClick={() => {
          const flow = useAppStore.getState().flow;
          if (flow) setPublishing({ flow, warnings: publishWarnings(flow, nodeRegistry) });
        }}
        disabled={errorCount > 0 || isPublished}
        title={
          errorCount > 0
            ? 'Fix the problems first'
            : isPublished
              ? `The draft is the same as version ${latestVersion}: nothing to publish`
              : 'Publish this draft as the next version'
        }
      >
        {isPublished
          ? `Published (v${latestVersion})`
          : `Publish${latestVersion !== undefined ? ` (v${latestVersion + 1})` : ''}`}
      </button>
      <button onClick={() => store.setShortcutsOpen(true)} aria-label="Keyboard shortcuts">
        ?
      </button>
    </header>
  );
}
