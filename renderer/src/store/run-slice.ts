import type { StateCreator } from 'zustand';
import { toFlowbenchError } from '../../../core/model/errors';
import { coerceTextInput, textInputProblem } from '../../../core/model/inputs';
import type { Problem } from '../../../core/model/problems';
import type { RunEvent, RunRecord, RunSummary, StepStatus } from '../../../core/model/run';
import { RunRecordBuilder } from '../../../core/model/run-record';
import { api } from '../api/client';
import { stringifyValue } from '../../../core/model/template';
import type { AppState } from './app-store';

/** The run started from the editor, shown live on the canvas. */
export interface RunSlice {
  runId: string | undefined;
  run: RunRecord | undefined;
  nodeStatus: Record<string, StepStatus>;
  tokens: Record<string, string>;
  runInputs: Record<string, string>;
  /** Why inputs cannot be sent, by parameter, from the last Run asked for; each clears when its field is edited. */
  runInputProblems: Record<string, string>;
  setRunInput: (name: string, value: string) => void;
  startRun: () => Promise<void>;
  /**
   * Runs the node and what depends on it, reusing the outputs upstream of it
   * from the run shown ("run from here"). Inputs typed in the form override
   * that run's.
   */
  runFromHere: (nodeId: string) => Promise<void>;
  cancelRun: () => Promise<void>;
  applyRunEvent: (event: RunEvent) => void;
  /** The run shown was opened from the list (stored earlier), not started in this window. */
  isStoredRun: boolean;
  /** The open flow's latest runs, from the editor, the CLI and MCP clients, newest first. */
  recentRuns: RunSummary[];
  loadRecentRuns: () => Promise<void>;
  /** Shows a stored run in the Run tab and its statuses on the canvas. */
  openRun: (id: string) => Promise<void>;
  /** Fills the Run form with the inputs of the run shown. */
  reuseRunInputs: () => void;
}

/** How many of a flow's runs the Run tab lists. */
const RECENT_RUNS = 20;

let builder: RunRecordBuilder | undefined;

export const createRunSlice: StateCreator<AppState, [], [], RunSlice> = (set, get) => ({
  runId: undefined,
  run: undefined,
  nodeStatus: {},
  tokens: {},
  runInputs: {},
  runInputProblems: {},
  recentRuns: [],
  isStoredRun: false,
  async loadRecentRuns() {
    const flowId = get().flowId;
    if (!flowId) return;
    const runs = await api.runs.list({ flowId, limit: RECENT_RUNS }).catch(() => undefined);
    // The flow may have been left meanwhile.
    if (runs && get().flowId === flowId) set({ recentRuns: runs });
  },
  async openRun(id) {
    const record = await api.runs.get({ id });
    builder = undefined;
    set({
      run: record,
      runId: record.id,
      tokens: {},
      nodeStatus: Object.fromEntries(record.steps.map((s) => [s.nodeId, s.status])),
      panel: 'run',
      isStoredRun: true,
    });
  },
  reuseRunInputs() {
    const run = get().run;
    if (!run) return;
    const texts = Object.fromEntries(Object.entries(run.inputs).map(([name, value]) => [name, stringifyValue(value)]));
    set({ runInputs: texts, runInputProblems: {} });
  },
  setRunInput(name, value) {
    set((state) => ({
      runInputs: { ...state.runInputs, [name]: value },
      runInputProblems: Object.fromEntries(Object.entries(state.runInputProblems).filter(([key]) => key !== name)),
    }));
  },
  runFromHere(nodeId) {
    const runId = get().run?.id;
    return runId ? launch(set, get, { nodeId, runId }) : Promise.resolve();
  },
  startRun() {
    return launch(set, get);
  },
  async cancelRun() {
    const runId = get().runId;
    if (runId) await api.runs.cancel({ runId }).catch(() => undefined);
  },
  applyRunEvent(event) {
    // Any run of the open flow that ends (here, or an MCP client's through this host) joins the list.
    if (event.type === 'run.finished') void get().loadRecentRuns();
    if (!builder) return;
    const state = get();
    // Events of the run this window started (it may arrive before the start call returns).
    if (state.runId !== undefined && event.runId !== state.runId) return;
    if (state.runId === undefined && event.type !== 'run.started' && state.run?.id !== event.runId) return;
    builder.apply(event);
    if (event.type === 'node.token') {
      set((s) => ({ tokens: { ...s.tokens, [event.nodeId]: (s.tokens[event.nodeId] ?? '') + event.text } }));
      return;
    }
    const run = builder.record();
    set({
      run,
      runId: run.id,
      nodeStatus: Object.fromEntries(run.steps.map((s) => [s.nodeId, s.status])),
    });
  },
});

type Set = Parameters<StateCreator<AppState, [], [], RunSlice>>[0];
type Get = () => AppState;

/** Starts a run of the open flow with the form's inputs; `from` runs from a node (see runFromHere). */
async function launch(set: Set, get: Get, from?: { nodeId: string; runId: string }): Promise<void> {
  const { flow, flowId, runInputs } = get();
  if (!flow || !flowId) return;
  // Checked as the host will, so the answer is at the field (Ctrl+Enter comes here too), not a refusal.
  // A run from a node takes what the form leaves empty from the run it reuses.
  const problems = Object.fromEntries(
    flow.parameters.flatMap((p) => {
      const text = runInputs[p.name];
      if (from && (text === undefined || text === '')) return [];
      const problem = textInputProblem(p, text);
      return problem ? [[p.name, problem]] : [];
    }),
  );
  set({ runInputProblems: problems });
  if (Object.keys(problems).length > 0) return set({ panel: 'run' });
  await get().flushSaves();
  // Inputs are typed by their parameter: text fields hold numbers, booleans or JSON.
  const inputs: Record<string, unknown> = {};
  // The CLI's coercion: a text that does not fit its type stays text, and the host says why.
  for (const parameter of flow.parameters) {
    const text = runInputs[parameter.name];
    if (text === undefined || text === '') continue;
    inputs[parameter.name] = coerceTextInput(parameter, text);
  }
  builder = new RunRecordBuilder({ flowName: flow.name, trigger: 'editor' });
  set({
    runId: undefined,
    run: undefined,
    nodeStatus: {},
    tokens: {},
    panel: 'run',
    refusal: undefined,
    isStoredRun: false,
  });
  try {
    const { runId } = await api.runs.start({ flowId, inputs, ...(from ? { from } : {}) });
    set({ runId });
  } catch (error) {
    const failure = toFlowbenchError(error);
    const problems = (failure.data?.problems ?? []) as Problem[];
    get().showRefusal({ title: `The run did not start: ${failure.message}`, problems });
  }
}
