import type { StateCreator } from 'zustand';
import { toFlowbenchError } from '../../../core/model/errors';
import { coerceTextInput, textInputProblem } from '../../../core/model/inputs';
import type { Problem } from '../../../core/model/problems';
import type { Flow, FlowNode } from '../../../core/model/flow';
import { formatCost } from '../../../core/model/pricing';
import { carriedEdges } from '../run/carried-edges';
import {
  shortRunId,
  type RunEvent,
  type RunOutput,
  type RunRecord,
  type RunStatus,
  type RunSummary,
  type RunTrigger,
  type StepRecord,
  type StepStatus,
} from '../../../core/model/run';
import { RunRecordBuilder } from '../../../core/model/run-record';
import { api } from '../api/client';
import { readWhenWritten } from '../read-when-written';
import { counted } from '../counted';
import { flowOnCanvas, readOnlyShown } from './versions-slice';
import { nextTestCase } from '../../../core/model/test-cases';
import { chatParameter } from './chat-slice';
import { testDrafts } from '../editor/json-drafts';
import type { AskAnswer, Question, QuestionEvent } from '../../../core/model/human-input';
import { stringifyValue } from '../../../core/model/template';
import { subflowOutput } from '../../../core/model/subflows';
import { nodeRegistry } from '../../../core/nodes/registry';
import type { AppState } from './app-store';
import { cutText } from '../../../core/model/cut-text';

/** The run started from the editor, shown live on the canvas. */
export interface RunSlice {
  runId: string | undefined;
  run: RunRecord | undefined;
  nodeStatus: Record<string, StepStatus>;
  /**
   * What each node's card says of its step under its title: "820 ms · 15 tokens",
   * an error code. Strings, so a card re-renders only when its own line changes.
   */
  stepLines: Record<string, string>;
  /** What each node's card shows of its step's output: a line or two of it (see outputPreview). */
  stepOutputs: Record<string, string>;
  /** When each running step started (ms since the epoch), for the elapsed time on its card. */
  stepStarted: Record<string, number>;
  /** The edges the run shown carried data along (see carriedEdges). */
  carriedEdges: ReadonlySet<string>;
  /**
   * The flow as the run shown ran it, when that differs from the draft: the
   * canvas shows it read-only until "back to the draft".
   */
  runSnapshot: Flow | undefined;
  backToDraft: () => void;
  tokens: Record<string, string>;
  runInputs: Record<string, string>;
  /** Why inputs cannot be sent, by parameter, from the last Run asked for; each clears when its field is edited. */
  runInputProblems: Record<string, string>;
  setRunInput: (name: string, value: string) => void;
  /** Runs the flow with the form's inputs (`options.inputs` over them); resolves with the run's id, none when it did not start. */
  startRun: (options?: LaunchOptions) => Promise<string | undefined>;
  /**
   * Runs the node and what depends on it, reusing the outputs upstream of it
   * from the run shown ("run from here"). Inputs typed in the form override
   * that run's.
   */
  runFromHere: (nodeId: string) => Promise<string | undefined>;
  /** Runs the node and the nodes it needs, nothing after it (n8n's Execute step), with the form's inputs. */
  runToHere: (nodeId: string) => Promise<string | undefined>;
  cancelRun: () => Promise<void>;
  applyRunEvent: (event: RunEvent) => void;
  /** The run shown was opened from the list (stored earlier), not started in this window. */
  isStoredRun: boolean;
  /** The open flow's latest runs, from the editor, the CLI and MCP clients, newest first. */
  recentRuns: RunSummary[];
  /** More runs match than `recentRuns` holds ("More" pages on). */
  hasMoreRuns: boolean;
  runFilter: { trigger?: RunTrigger; status?: RunStatus };
  setRunFilter: (filter: RunSlice['runFilter']) => void;
  loadRecentRuns: () => Promise<void>;
  loadMoreRuns: () => Promise<void>;
  deleteRun: (id: string) => Promise<void>;
  /** Runs the flow again with the inputs of the run shown (a run to a node: to that node again). */
  rerun: () => Promise<void>;
  /**
   * Adds a test case with a run's inputs (the run shown, or a chat turn's, read
   * from the host), as n8n's evaluations take executions into a dataset; its
   * expectations are the person's to add in the Tests tab.
   */
  saveRunAsTestCase: (runId: string) => Promise<void>;
  /** Shows a stored run in the Run tab and its statuses on the canvas. */
  openRun: (id: string) => Promise<void>;
  /** Fills the Run form with the inputs of the run shown. */
  reuseRunInputs: () => void;
  /** Questions ask nodes of runs started here wait on (the Run panel shows the run's). */
  questions: Question[];
  applyQuestionEvent: (event: QuestionEvent) => void;
  /** The questions runs of this flow wait on now (a page opened, or reloaded, after they were asked). */
  loadQuestions: (flowId: string) => Promise<void>;
  /** Sends the person's answer; resolves with why the host refused it (the question then stays open). */
  answerQuestion: (question: Question, answer: AskAnswer) => Promise<string | undefined>;
}

/** How many of a flow's runs the Run tab lists. */
const RECENT_RUNS = 20;

let builder: RunRecordBuilder | undefined;
/** The run `builder` folds, once its first event came. */
let builderRunId: string | undefined;
/** Tokens received since the store last took the run's events. */
let pendingTokens: Record<string, string> = {};
let isFlushScheduled = false;

/** Runs `flush` at the next frame, once however many times it is asked for before then. */
function scheduleFlush(flush: () => void): void {
  if (isFlushScheduled) return;
  isFlushScheduled = true;
  const run = () => {
    isFlushScheduled = false;
    flush();
  };
  // A hidden tab gets no frames; the events must still land.
  if (typeof document !== 'undefined' && document.visibilityState === 'visible') requestAnimationFrame(run);
  else setTimeout(run, 16);
}

const mergeTokens = (current: Record<string, string>, more: Record<string, string>) => {
  const merged = { ...current };
  for (const [nodeId, text] of Object.entries(more)) merged[nodeId] = (merged[nodeId] ?? '') + text;
  return merged;
};

export const createRunSlice: StateCreator<AppState, [], [], RunSlice> = (set, get) => ({
  runId: undefined,
  run: undefined,
  nodeStatus: {},
  stepLines: {},
  stepOutputs: {},
  stepStarted: {},
  carriedEdges: new Set(),
  questions: [],
  applyQuestionEvent(event) {
    set((s) => ({
      questions:
        event.type === 'run.question'
          ? [...s.questions, event.question]
          : s.questions.filter((q) => !(q.runId === event.runId && q.nodeId === event.nodeId)),
    }));
  },
  async loadQuestions(flowId) {
    const waiting = await api.runs.questions({ flowId }).catch(() => []);
    const key = (q: Question) => `${q.runId}/${q.nodeId}`;
    set((s) => {
      const known = new Set(s.questions.map(key));
      return { questions: [...s.questions, ...waiting.filter((q) => !known.has(key(q)))] };
    });
  },
  async answerQuestion(question, answer) {
    try {
      await api.runs.answer(
        answer.action === 'accept'
          ? { runId: question.runId, nodeId: question.nodeId, action: 'accept', content: answer.content as never }
          : { runId: question.runId, nodeId: question.nodeId, action: answer.action },
      );
      return undefined;
    } catch (error) {
      return toFlowbenchError(error).message;
    }
  },
  runSnapshot: undefined,
  tokens: {},
  runInputs: {},
  runInputProblems: {},
  recentRuns: [],
  hasMoreRuns: false,
  runFilter: {},
  isStoredRun: false,
  setRunFilter(filter) {
    set({ runFilter: filter });
    void get().loadRecentRuns();
  },
  async loadRecentRuns() {
    const { flowId, runFilter } = get();
    if (!flowId) return;
    // One more than shown says whether there are more.
    const runs = await readWhenWritten(() => api.runs.list({ flowId, ...runFilter, limit: RECENT_RUNS + 1 })).catch(
      () => undefined,
    );
    // The flow may have been left, or the filter changed, meanwhile.
    if (runs && get().flowId === flowId && get().runFilter === runFilter) {
      set({ recentRuns: runs.slice(0, RECENT_RUNS), hasMoreRuns: runs.length > RECENT_RUNS });
    }
  },
  async loadMoreRuns() {
    const { flowId, runFilter, recentRuns } = get();
    if (!flowId) return;
    const more = await readWhenWritten(() =>
      api.runs.list({ flowId, ...runFilter, limit: RECENT_RUNS + 1, offset: recentRuns.length }),
    );
    if (get().flowId !== flowId || get().runFilter !== runFilter) return;
    set({ recentRuns: [...recentRuns, ...more.slice(0, RECENT_RUNS)], hasMoreRuns: more.length > RECENT_RUNS });
  },
  async deleteRun(id) {
    await api.runs.remove({ ids: [id] });
    if (get().run?.id === id) get().backToDraft();
    await get().loadRecentRuns();
  },
  async saveRunAsTestCase(runId) {
    if (readOnlyShown(get())) return get().notify('Go back to the draft to add a test case: a past flow is shown');
    const shown = get().run;
    const run = shown?.id === runId ? shown : await readWhenWritten(() => api.runs.get({ id: runId }));
    const { flow, flowId } = get();
    if (!flow || !flowId) return;
    // Named by what was asked: the text a chat message goes to, else the first text given.
    const main = chatParameter(flow)?.name;
    const texts = [main ? run.inputs[main] : undefined, ...Object.values(run.inputs)];
    const first = texts.find((v): v is string => typeof v === 'string' && v.trim() !== '');
    const name = first ? `“${first.length > 40 ? `${cutText(first, 39)}…` : first}”` : `Run ${shortRunId(run.id)}`;
    // Test cases being edited that cannot be saved yet: the new one joins them, saved with them.
    const typed = testDrafts.get(flowId);
    const test = nextTestCase(typed ?? flow.tests, run.inputs, name);
    if (typed) {
      testDrafts.keep(flowId, [...typed, test]);
      return get().notify(
        `Added test case ${test.name} to the Tests tab's cases, saved with them once their problems are fixed`,
      );
    }
    get().updateFlowFields({ tests: [...flow.tests, test] });
    get().notify(
      `Saved as test case ${test.name} with this run's inputs; the Tests tab adds what its answer should hold`,
    );
  },
  async rerun() {
    // A run to a node is re-run to that node again, if the draft still has it; else the whole flow.
    // A chat turn's run goes on in its conversation, so per-conversation memory reads what it read.
    const run = get().run;
    const to = run?.toNodeId;
    const conversation = run?.conversation !== undefined ? { conversation: run.conversation } : {};
    get().reuseRunInputs();
    if (to && get().flow?.nodes.some((n) => n.id === to)) await launch(set, get, { to, ...conversation });
    else await get().startRun(conversation);
  },
  async openRun(id) {
    const [record, snapshot] = await readWhenWritten(() =>
      Promise.all([api.runs.get({ id }), api.runs.snapshot({ id })]),
    );
    // Another flow was opened while the run was read (a link followed): its editor shows none of this flow's runs.
    if (record.flowId !== get().flowId) return;
    builder = undefined;
    const draft = get().flow;
    const runSnapshot = draft && sameGraph(draft, snapshot) ? undefined : snapshot;
    set({
      run: record,
      runId: record.id,
      tokens: {},
      ...stepViews(record, runSnapshot ?? draft),
      runSnapshot,
      panel: 'run',
      isStoredRun: true,
    });
  },
  backToDraft() {
    set({
      runSnapshot: undefined,
      run: undefined,
      runId: undefined,
      ...stepViews(undefined, undefined),
      isStoredRun: false,
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
    return runId ? launch(set, get, { from: { nodeId, runId } }) : Promise.resolve(undefined);
  },
  runToHere(nodeId) {
    return launch(set, get, { to: nodeId });
  },
  startRun(options) {
    return launch(set, get, options);
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
    // Events of the run this window started (they may arrive before the start call returns, and
    // before the store took the first of them: the builder's own run id decides).
    const expected = state.runId ?? builderRunId;
    if (expected !== undefined && event.runId !== expected) return;
    if (expected === undefined) {
      if (event.type !== 'run.started') return;
      builderRunId = event.runId;
    }
    builder.apply(event);
    if (event.type === 'node.token') {
      pendingTokens[event.nodeId] = (pendingTokens[event.nodeId] ?? '') + event.text;
    }
    // Events arrive faster than frames (a hundred a second): the store takes them once a frame.
    scheduleFlush(() => {
      const tokens = pendingTokens;
      pendingTokens = {};
      if (!builder) return;
      const run = builder.record();
      set((s) => ({
        run,
        runId: run.id,
        ...stepViews(run, flowOnCanvas(s)),
        ...(Object.keys(tokens).length > 0 ? { tokens: mergeTokens(s.tokens, tokens) } : {}),
      }));
      // A chat message's run that ended: its answer joins the conversation.
      if (run.status !== 'running') get().settleChatTurn(run);
    });
  },
});

type Set = Parameters<StateCreator<AppState, [], [], RunSlice>>[0];
type Get = () => AppState;

/** How a run is started besides the form's inputs. */
export interface LaunchOptions {
  /** Input texts by parameter, over the form's (the Chat tab's message), left out of the form. */
  inputs?: Record<string, string>;
  /** The side panel stays on its tab (the Chat tab shows the run itself). */
  keepPanel?: boolean;
  /** The conversation the run goes on (the Chat tab's): per-conversation memory channels. */
  conversation?: string;
}

/**
 * Starts a run of the open flow with the form's inputs; `from` runs from a
 * node (runFromHere), `to` to one (runToHere). Resolves with the run's id,
 * or nothing when it did not start (what stopped it is said at the form or above the canvas).
 */
async function launch(
  set: Set,
  get: Get,
  {
    from,
    to,
    inputs: given,
    keepPanel,
    conversation,
  }: { from?: { nodeId: string; runId: string }; to?: string } & LaunchOptions = {},
): Promise<string | undefined> {
  const { flow, flowId } = get();
  const runInputs = { ...get().runInputs, ...given };
  if (!flow || !flowId) return undefined;
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
  if (Object.keys(problems).length > 0) {
    if (!keepPanel) set({ panel: 'run' });
    return undefined;
  }
  await get().flushSaves();
  // Inputs are typed by their parameter: text fields hold numbers, booleans or JSON.
  const inputs: Record<string, unknown> = {};
  // The CLI's coercion: a text that does not fit its type stays text, and the host says why.
  for (const parameter of flow.parameters) {
    const text = runInputs[parameter.name];
    if (text === undefined || text === '') continue;
    inputs[parameter.name] = coerceTextInput(parameter, text);
  }
  // The Run tab says which conversation the run goes on from its first event (a run from a node of
  // a chat turn's run goes on in the turn's, as the host decides).
  const shown = get().run;
  const goesOn = conversation ?? (from && shown?.id === from.runId ? shown.conversation : undefined);
  builder = new RunRecordBuilder({
    flowName: flow.name,
    trigger: 'editor',
    ...(goesOn !== undefined ? { conversation: goesOn } : {}),
  });
  builderRunId = undefined;
  set({
    runId: undefined,
    run: undefined,
    runSnapshot: undefined,
    ...stepViews(undefined, undefined),
    tokens: {},
    ...(keepPanel ? {} : { panel: 'run' as const }),
    refusal: undefined,
    isStoredRun: false,
  });
  try {
    const { runId } = await api.runs.start({
      flowId,
      inputs,
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
      ...(conversation !== undefined ? { conversation } : {}),
    });
    set({ runId });
    return runId;
  } catch (error) {
    const failure = toFlowbenchError(error);
    const problems = (failure.data?.problems ?? []) as Problem[];
    get().showRefusal({ title: `The run did not start: ${failure.message}`, problems });
    return undefined;
  }
}

/** What the canvas shows of a run's steps: statuses, card lines and start times. */
function stepViews(
  run: RunRecord | undefined,
  flow: Flow | undefined,
): Pick<RunSlice, 'nodeStatus' | 'stepLines' | 'stepOutputs' | 'stepStarted' | 'carriedEdges'> {
  const nodeStatus: Record<string, StepStatus> = {};
  const stepLines: Record<string, string> = {};
  const stepOutputs: Record<string, string> = {};
  const stepStarted: Record<string, number> = {};
  const results = new Set(flow?.nodes.filter((n) => nodeRegistry.get(n.type)?.isResult).map((n) => n.id));
  const nodes = new Map(flow?.nodes.map((n) => [n.id, n]));
  // While a run goes, a node it has not reached yet is queued.
  if (run?.status === 'running') for (const node of flow?.nodes ?? []) nodeStatus[node.id] = 'pending';
  for (const step of run?.steps ?? []) {
    nodeStatus[step.nodeId] = step.status;
    const origin = stepOrigin(step, nodes.get(step.nodeId), run);
    stepLines[step.nodeId] = origin === 'passed over' ? 'passed over: deactivated' : (origin ?? stepLine(step));
    if (step.status === 'succeeded' && step.output !== undefined) {
      // The result node's output is the run's result: shown as a caller gets it (its text, or its data).
      const isResult = results.has(step.nodeId);
      stepOutputs[step.nodeId] = outputPreview(isResult ? subflowOutput(step.output as RunOutput) : step.output);
    }
    if (step.status === 'running' && step.startedAt) stepStarted[step.nodeId] = Date.parse(step.startedAt);
  }
  return {
    nodeStatus,
    stepLines,
    stepOutputs,
    stepStarted,
    carriedEdges: flow ? carriedEdges(flow, run) : new Set(),
  };
}

/**
 * What each node gave in a finished run (its last pass), by node id: the
 * inspector offers the fields inside them. Nothing while a run goes: the
 * offers settle when it ends, rather than follow every step.
 */
export function finishedOutputs(run: RunRecord | undefined): ReadonlyMap<string, unknown> {
  const outputs = new Map<string, unknown>();
  if (!run || run.status === 'running') return outputs;
  for (const step of run.steps) if (step.status === 'succeeded') outputs.set(step.nodeId, step.output);
  return outputs;
}

/** How much of an output a card shows: about two lines of it. */
const PREVIEW_LENGTH = 160;
// Outputs as JSON, once each: the store takes the run again every frame while it goes.
const previews = new WeakMap<object, string>();

/**
 * A step's output in a line or two, for its card (as Rivet shows a node's
 * output under it): text as it is, JSON compact, white space run together,
 * cut short. The step details show the whole.
 */
export function outputPreview(output: unknown): string {
  // Said, not left blank: an empty answer is something to see.
  if (output === '') return '(empty text)';
  if (output === null) return 'null';
  if (typeof output !== 'object') return shortened(stringifyValue(output));
  let preview = previews.get(output);
  if (preview === undefined) {
    preview = shortened(JSON.stringify(output));
    previews.set(output, preview);
  }
  return preview;
}

const shortened = (text: string) => {
  const flat = text
    .slice(0, PREVIEW_LENGTH * 4)
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > PREVIEW_LENGTH ? `${cutText(flat, PREVIEW_LENGTH - 1)}…` : flat;
};

/** The last words an LLM step has streamed so far, on one line, as long as an output preview. */
export const streamTail = (tokens: string) => {
  const flat = tokens
    .slice(-PREVIEW_LENGTH * 4)
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > PREVIEW_LENGTH ? `…${flat.slice(1 - PREVIEW_LENGTH)}` : flat;
};

/** How a step that did not run its node came about; the card, the list of steps and the step's details say it. */
export type StepOrigin = 'reused' | 'passed over' | 'pinned output';

/**
 * Where a step's output came from when its node did not run: an earlier run
 * (a run from a node), the node's input (deactivated), or its pin. Undefined
 * for a step that ran. `node` is the node as the run's flow had it (the
 * canvas shows that flow when the draft has changed since; see sameGraph).
 */
export function stepOrigin(
  step: StepRecord,
  node: Pick<FlowNode, 'disabled' | 'pin'> | undefined,
  run: Pick<RunRecord, 'reuse'> | undefined,
): StepOrigin | undefined {
  if (run?.reuse?.nodeIds.includes(step.nodeId)) return 'reused';
  // Stored with the step (runs since it was); runs stored before say it through their flow's node.
  if (step.passedOver) return 'passed over';
  if (step.pinned) return 'pinned output';
  // Deactivated or pinned, a node settles without an attempt.
  if (step.status !== 'succeeded' || step.attempts !== 0) return undefined;
  if (node?.disabled) return 'passed over';
  return node?.pin !== undefined ? 'pinned output' : undefined;
}

/** "820 ms · 15 tokens · $0.0012", or the error code; a loop's later passes say which pass. */
function stepLine(step: StepRecord): string {
  const line = stepFacts(step);
  return step.iteration ? [`pass ${step.iteration}`, line].filter(Boolean).join(' · ') : line;
}

function stepFacts(step: StepRecord): string {
  if (step.status === 'failed' || step.status === 'cancelled') return step.error?.code ?? step.status;
  const calls = step.toolCalls ?? [];
  if (step.status === 'running') {
    // An agent's card says which tool it waits for, so a long step is not a mystery.
    const inFlight = calls.find((c) => c.durationMs === undefined);
    return inFlight ? `calling ${inFlight.tool}` : calls.length > 0 ? toolCount(calls.length) : '';
  }
  if (step.status !== 'succeeded') return '';
  const parts = [step.durationMs !== undefined ? `${step.durationMs} ms` : ''];
  if (calls.length > 0) parts.push(toolCount(calls.length));
  const tokens = (step.usage?.inputTokens ?? 0) + (step.usage?.outputTokens ?? 0);
  if (tokens > 0) parts.push(`${tokens} tokens`);
  if (step.usage?.cost !== undefined) parts.push(formatCost(step.usage.cost));
  // What the provider said (a setting it did not honour, an answer cut at the token limit) is in the step details: the card says there is something to read.
  const warnings = step.warnings?.length ?? 0;
  if (warnings > 0) parts.push(counted(warnings, 'provider warning'));
  return parts.filter(Boolean).join(' · ');
}

const toolCount = (n: number) => counted(n, 'tool call');

/**
 * Same nodes (type, config, label, deactivated or not) and edges: the run's
 * statuses can be shown on the draft itself. A node deactivated since (or
 * before) the run would show its steps as the other kind ("passed over").
 */
function sameGraph(a: Flow, b: Flow): boolean {
  const shape = (flow: Flow) =>
    JSON.stringify([
      flow.nodes.map((n) => [n.id, n.type, n.label, n.config, n.disabled === true, n.pin !== undefined]),
      flow.edges.map((e) => [e.source, e.sourcePort, e.target, e.targetPort]),
    ]);
  return shape(a) === shape(b);
}
