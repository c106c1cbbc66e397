import { FlowbenchError } from '../model/errors';
import type { Flow } from '../model/flow';
import { prepareInputs } from '../model/inputs';
import type { AgentResolver } from '../model/agents';
import type { LlmPort } from '../model/llm';
import { NO_MEMORY, type MemoryPort } from '../model/memory';
import { NO_AGENTS, NO_SUBFLOWS, NO_TOOLS } from '../model/ports';
import { NO_HUMAN_INPUT, type HumanInputPort } from '../model/human-input';
import type { SubflowPort } from '../model/subflows';
import type { ToolPort } from '../model/tools';
import { errorsIn } from '../model/problems';
import type { RunEventListener } from '../model/run';
import { validateFlow } from '../model/validate';
import { nodeRegistry, type NodeRegistry } from '../nodes/registry';
import { EventBus } from './event-bus';
import { DEFAULT_RETRY, type RetryPolicy } from './retry';
import { planFlow } from './flow-plan';
import { pinnedOutputProblems } from './pinned-outputs';
import { planReuse, type ReuseSource } from './reuse';
import { planRunTo } from './run-to';
import { fetchHttp } from './fetch-http';
import { quickJsCode } from './run-code';
import type { CodePort } from '../model/code';
import type { HttpPort } from '../model/http';
import { neededBy, runToBlockers } from '../model/run-to';
import { readSecrets, secretsReadBy } from '../model/flow-secrets';
import { hideSecrets, MIN_HIDDEN_LENGTH, type SecretReader } from '../model/secrets';
import { RunCancellation, type RunsGoing } from './run-cancellation';
import { schedule, type ScheduleResult } from './scheduler';
import { newRunId } from './run-id';

export interface RunOptions {
  flow: Flow;
  inputs: Record<string, unknown>;
  llm: LlmPort;
  /** MCP tools, other flows and library agents; without them, nodes that need them fail NODE_NOT_RUNNABLE. */
  tools?: ToolPort;
  subflows?: SubflowPort;
  agents?: AgentResolver;
  /** The flow's memory channels; without it, nodes that read or write memory fail NODE_NOT_RUNNABLE. */
  memory?: MemoryPort;
  /** How HTTP request nodes reach the network; Node's fetch unless given. */
  http?: HttpPort;
  /** Where code nodes run their code; the QuickJS sandbox unless given. */
  code?: CodePort;
  /** The secrets HTTP request nodes read (`{{secrets.name}}`); without it, a flow reading one fails SECRET_MISSING. */
  secrets?: SecretReader;
  /** The flows of the runs above this one (a flow node's child run). */
  callers?: readonly string[];
  /** A person to ask; without it, ask nodes fail HUMAN_INPUT_UNAVAILABLE naming the node. */
  human?: HumanInputPort;
  /** Stream model answers as `node.token` events (the editor shows them); default false. */
  streamTokens?: boolean;
  runId?: string;
  /** Aborting it cancels the run; a reason that is no FlowbenchError becomes CANCELLED. */
  signal?: AbortSignal;
  /**
   * The runs a host cancels when it stops, whatever their caller's signal: the
   * run is in it while it goes. A set, not a signal joined to the caller's, as
   * AbortSignal.any costs an MCP call about 17 µs.
   */
  going?: RunsGoing;
  /** Limit for the whole run; it then fails with RUN_TIMEOUT. */
  timeoutMs?: number;
  /** Nodes running at once. */
  concurrency?: number;
  /** Time limit of a node that sets none. */
  defaultNodeTimeoutMs?: number;
  retry?: RetryPolicy;
  listeners?: readonly RunEventListener[];
  registry?: NodeRegistry;
  /** Run from a node: it and what depends on it run; the rest reuse this earlier run's outputs. */
  reuse?: ReuseSource;
  /** Run to a node: it and the nodes it needs run; the rest, what follows it included, are skipped. */
  toNodeId?: string;
  /** A run a person started (the editor, `flowbench run`): pinned nodes give their pinned output. */
  usePins?: boolean;
}

export interface RunOutcome extends ScheduleResult {
  runId: string;
  durationMs: number;
}

export const DEFAULT_CONCURRENCY = 8;

/**
 * `compute` remembered per flow for the built-in registry: flows handed to the
 * engine are not mutated, and a published snapshot run a thousand times needs
 * its validation, and the secrets it reads, once.
 */
function oncePerFlow<T>(compute: (flow: Flow, registry: NodeRegistry) => T): (flow: Flow, registry: NodeRegistry) => T {
  const results = new WeakMap<Flow, T>();
  return (flow, registry) => {
    if (registry !== nodeRegistry) return compute(flow, registry);
    let result = results.get(flow);
    if (result === undefined) {
      result = compute(flow, registry);
      results.set(flow, result);
    }
    return result;
  };
}
const validateOnce = oncePerFlow((flow, registry) => validateFlow(flow, { catalogue: registry }));
const secretsOnce = oncePerFlow((flow, registry) => secretsReadBy(flow, registry));
export const DEFAULT_NODE_TIMEOUT_MS = 120_000;

/**
 * What a flow's first run works out before its first node starts (its check,
 * the secrets it reads, its plan), worked out now and kept for that run: a
 * host with time to spare (an MCP server between tools/list and a call) calls
 * this for the flows it serves. Unchanged otherwise; an invalid flow is left
 * for its run to refuse.
 */
export function prepareFlow(flow: Flow): void {
  const checked = validateOnce(flow, nodeRegistry);
  if (!checked.flow || errorsIn(checked.problems).length > 0) return;
  secretsOnce(checked.flow, nodeRegistry);
  planFlow(checked.flow, nodeRegistry);
}

/** Callers cancel with their own reasons (an MCP client's text, a DOMException); the run records CANCELLED. */
function cancelledBy(reason: unknown): FlowbenchError {
  if (reason instanceof FlowbenchError) return reason;
  const detail = typeof reason === 'string' && reason !== '' ? `: ${reason}` : '';
  return new FlowbenchError('CANCELLED', `the run was cancelled${detail}`);
}

/**
 * Checks the flow and the inputs, then runs the flow and reports every step as
 * an event. Throws (before any event) when the flow is invalid or the inputs
 * do not fit its parameters; once started, failures are results, not throws.
 */
export async function runFlow(options: RunOptions): Promise<RunOutcome> {
  const registry = options.registry ?? nodeRegistry;
  const { flow, problems } = validateOnce(options.flow, registry);
  // Awaited only where a run takes pins: other runs start as they did.
  const pinErrors = options.usePins && flow ? await pinnedOutputProblems(flow, registry) : [];
  const errors = pinErrors.length > 0 ? [...errorsIn(problems), ...pinErrors] : errorsIn(problems);
  // A run to a node needs only its part of the flow set up (runToBlockers).
  const needed = flow && options.toNodeId !== undefined ? neededBy(flow, options.toNodeId) : undefined;
  const blocking = needed ? runToBlockers(errors, needed) : errors;
  if (!flow || blocking.length > 0) {
    throw new FlowbenchError(
      'VALIDATION_ERROR',
      `flow "${options.flow.name}" cannot run: ${blocking.length} problem${blocking.length === 1 ? '' : 's'}`,
      {
        problems: blocking,
      },
    );
  }
  const inputs = prepareInputs(flow.parameters, options.inputs);
  const reuse = options.reuse ? planReuse(flow, planFlow(flow, registry), options.reuse) : undefined;
  const upTo = options.toNodeId ? planRunTo(flow, options.toNodeId) : undefined;
  const secrets = readSecrets(
    flow.name,
    needed ? secretsReadBy(flow, registry, needed) : secretsOnce(flow, registry),
    options.secrets,
  );
  // What the run records and returns shows each secret as •••, longest first so one inside another is hidden whole.
  const hidden = [...secrets.values()].filter((v) => v.length >= MIN_HIDDEN_LENGTH).sort((a, b) => b.length - a.length);
  const hide = <T>(value: T): T => (hidden.length === 0 ? value : hideSecrets(value, hidden));
  const runId = options.runId ?? newRunId();
  const bus = new EventBus();
  for (const listener of options.listeners ?? []) bus.subscribe(listener);

  const cancellation = new RunCancellation();
  // A signal aborted before the run started (a client that cancelled at once) cancels it too.
  cancellation.follow(options.signal, cancelledBy);
  const timer =
    options.timeoutMs === undefined
      ? undefined
      : setTimeout(
          () =>
            cancellation.abort(new FlowbenchError('RUN_TIMEOUT', `the run took longer than ${options.timeoutMs} ms`)),
          options.timeoutMs,
        );

  const startedAt = Date.now();
  bus.emit(
    hide({
      type: 'run.started',
      runId,
      flowId: flow.id,
      at: startedAt,
      inputs,
      ...(reuse ? { reuse: reuse.record } : {}),
      ...(options.toNodeId ? { toNodeId: options.toNodeId } : {}),
    }),
  );
  options.going?.add(cancellation);
  try {
    const result = await schedule({
      runId,
      flow,
      inputs,
      ports: {
        llm: options.llm,
        tools: options.tools ?? NO_TOOLS,
        subflows: options.subflows ?? NO_SUBFLOWS,
        agents: options.agents ?? NO_AGENTS,
        memory: options.memory ?? NO_MEMORY,
        human: options.human ?? NO_HUMAN_INPUT,
        http: options.http ?? fetchHttp,
        code: options.code ?? quickJsCode,
        callers: [...(options.callers ?? []), flow.id],
        streamsTokens: options.streamTokens ?? false,
      },
      registry,
      cancellation,
      concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
      defaultTimeoutMs: options.defaultNodeTimeoutMs ?? DEFAULT_NODE_TIMEOUT_MS,
      retry: options.retry ?? DEFAULT_RETRY,
      emit: hidden.length === 0 ? (event) => bus.emit(event) : (event) => bus.emit(hide(event)),
      ...(secrets.size > 0 ? { secrets } : {}),
      ...(reuse ? { reuse } : {}),
      ...(upTo ? { upTo } : {}),
      ...(options.usePins ? { usePins: true } : {}),
    });
    const durationMs = Date.now() - startedAt;
    const finished = hide(result);
    bus.emit({ type: 'run.finished', runId, at: Date.now(), durationMs, ...finished });
    return { runId, durationMs, ...finished };
  } finally {
    if (timer) clearTimeout(timer);
    cancellation.release();
    options.going?.delete(cancellation);
  }
}
