import type { StateCreator } from 'zustand';
import { toFlowbenchError } from '../../../core/model/errors';
import { coerceTextInput, textInputProblem } from '../../../core/model/inputs';
import type { Problem } from '../../../core/model/problems';
import type { RunEvent, RunRecord, StepStatus } from '../../../core/model/run';
import { RunRecordBuilder } from '../../../core/model/run-record';
import { api } from '../api/client';
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
  cancelRun: () => Promise<void>;
  applyRunEvent: (event: RunEvent) => void;
}

let builder: RunRecordBuilder | undefined;

export const createRunSlice: StateCreator<AppState, [], [], RunSlice> = (set, get) => ({
  runId: undefined,
  run: undefined,
  nodeStatus: {},
  tokens: {},
  runInputs: {},
  runInputProblems: {},
  setRunInput(name, value) {
    set((state) => ({
      runInputs: { ...state.runInputs, [name]: value },
      runInputProblems: Object.fromEntries(Object.entries(state.runInputProblems).filter(([key]) => key !== name)),
    }));
  },
  async startRun() {
    const { flow, flowId, runInputs } = get();
    if (!flow || !flowId) return;
    // Checked as the host will, so the answer is at the field (Ctrl+Enter comes here too), not a refusal.
    const problems = Object.fromEntries(
      flow.parameters.flatMap((p) => {
        const problem = textInputProblem(p, runInputs[p.name]);
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
    set({ runId: undefined, run: undefined, nodeStatus: {}, tokens: {}, panel: 'run', refusal: undefined });
    try {
      const { runId } = await api.runs.start({ flowId, inputs });
      set({ runId });
    } catch (error) {
      const failure = toFlowbenchError(error);
      const problems = (failure.data?.problems ?? []) as Problem[];
      get().showRefusal({ title: `The run did not start: ${failure.message}`, problems });
    }
  },
  async cancelRun() {
    const runId = get().runId;
    if (runId) await api.runs.cancel({ runId }).catch(() => undefined);
  },
  applyRunEvent(event) {
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
