import { create } from 'zustand';
import { errorsIn } from '../../../core/model/problems';
import { nodeRegistry } from '../../../core/nodes/registry';
import { CLIENT_ID, transport } from '../api/client';
import { createChatSlice, type ChatSlice } from './chat-slice';
import { createEditorSlice, type EditorSlice } from './editor-slice';
import { createFlowsSlice, type FlowsSlice } from './flows-slice';
import { createRunSlice, type RunSlice } from './run-slice';
import { createUiSlice, type UiSlice } from './ui-slice';
import { createVersionsSlice, type VersionsSlice } from './versions-slice';
import { runAppCommand } from '../app-commands';

export type AppState = FlowsSlice & EditorSlice & RunSlice & UiSlice & VersionsSlice & ChatSlice;

/** How many of the open flow's problems are errors (the toolbar and the problems tab show it). */
export const selectErrorCount = (state: AppState): number => errorsIn(state.problems).length;

/** The one store of the renderer, made of typed slices; host calls live in its actions. */
export const useAppStore = create<AppState>()((...a) => ({
  ...createFlowsSlice(...a),
  ...createEditorSlice(...a),
  ...createRunSlice(...a),
  ...createUiSlice(...a),
  ...createVersionsSlice(...a),
  ...createChatSlice(...a),
}));

// Host events: live runs, and flows changed by other windows or processes.
transport.subscribe((event) => {
  const state = useAppStore.getState();
  if (event.type === 'run') return state.applyRunEvent(event.event);
  if (event.type === 'app.command') return void runAppCommand(event.command);
  if (event.type === 'run.question' || event.type === 'run.question.closed') return state.applyQuestionEvent(event);
  // Runs stored by another connection (an MCP client's call, a CLI run), and nothing else: the open flow stays as it is.
  if (event.type === 'runs.changed') return void (state.flowId && state.loadRecentRuns());
  if (event.origin === CLIENT_ID) return;
  void state.loadFlows();
  const open = state.flowId;
  // A change seen in the database file (another process, or this host's run writer): an MCP
  // client's call or a CLI run may have added runs, so the Run tab's list is asked for again.
  if (open && event.flowIds.length === 0) void state.loadRecentRuns();
  // Another flow changed (published, say): a node of this one may call it (or an agent version), and
  // the problems only the host can tell (SUBFLOW_NOT_PUBLISHED, SUBFLOW_INPUTS) are read again with it.
  const callsFlows = state.flow?.nodes.some((n) => nodeRegistry.callees(n).some((c) => c.kind !== 'tool')) ?? false;
  const concernsOpen = event.flowIds.length === 0 || event.flowIds.includes(open ?? '') || callsFlows;
  if (open && concernsOpen && state.saveState === 'saved') void state.reloadFlow();
});
