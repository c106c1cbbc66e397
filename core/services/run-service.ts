import { prepareFlow, runFlow, type RunOptions } from '../engine/run-flow';
import type { ChannelSettings, MemoryPort } from '../model/memory';
import { FlowbenchError } from '../model/errors';
import { waitAtMost } from './wait';
import type { Flow } from '../model/flow';
import type { AgentResolver } from '../model/agents';
import type { LlmPort } from '../model/llm';
import type { SecretReader } from '../model/secrets';
import type { HumanInputPort } from '../model/human-input';
import type { SubflowPort, SubflowResult } from '../model/subflows';
import { FLOWBENCH_SERVER, type ToolInfo, type ToolPort } from '../model/tools';
import { inputSchemaFor, toolDescription } from '../nodes/tool-schema';
import type { RunEventListener, RunRecord, RunTrigger } from '../model/run';
import type { ReuseSource } from '../engine/reuse';
import type { Cancellable, RunsGoing } from '../engine/run-cancellation';
import { RunRecordBuilder } from '../model/run-record';
import { createRunRecorder } from '../store/run-recorder';
import type { RunLog } from '../store/run-log';
import { newRunId } from '../engine/run-id';

export interface StartRun {
  flow: Flow;
  flowVersion?: number;
  inputs: Record<string, unknown>;
  trigger: RunTrigger;
  client?: string;
  /** The W3C trace context an MCP client sent, kept on the run record. */
  traceparent?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  listeners?: readonly RunEventListener[];
  engine?: Pick<RunOptions, 'concurrency' | 'retry' | 'defaultNodeTimeoutMs'>;
  /** Stream model answers as node.token events: for runs a person watches (the editor). */
  streamTokens?: boolean;
  /** Who answers the run's ask nodes; without it they fail HUMAN_INPUT_UNAVAILABLE. */
  human?: HumanInputPort;
  /** Set for the run a flow node started: its parent run, and the flows of the runs above it. */
  parent?: { runId: string; callers: readonly string[] };
  /**
   * Run from a node ("run from here"): `nodeId` and what depends on it run,
   * every other node reuses its output from run `runId`, whose inputs are
   * the defaults of `inputs`.
   */
  from?: { nodeId: string; runId: string };
  /** Run to a node (n8n's Execute step): it and the nodes it needs run; the rest are skipped. */
  to?: string;
  /** A run a person started (the editor, `flowbench run`): pinned nodes give their pinned output. */
  usePins?: boolean;
  /** The conversation it runs in (the Chat tab's): what its per-conversation memory channels hold. */
  conversation?: string;
}

/** What runs reach besides models: MCP tools, the agent library, other flows' published versions. */
export interface RunDependencies {
  llm: () => LlmPort;
  /** Reads a stored run (RunRepository.get), for runs that reuse one. */
  readRun: (id: string) => RunRecord;
  tools?: ToolPort;
  agents?: AgentResolver;
  /** A flow by id, name or tool name, and its newest published version (flow nodes). */
  findFlow?: (ref: string) => { id: string; name: string };
  latestVersion?: (flowId: string) => { version: number; snapshot: Flow } | undefined;
  /** A run's view of its flow's memory channels (MemoryRepository.port). */
  memory?: (run: {
    flowId: string;
    runId: string;
    flowVersion?: number;
    conversation?: string;
    settings: readonly ChannelSettings[];
  }) => MemoryPort;
  /** The secrets flows read (`{{secrets.name}}`); without it a flow that reads one fails SECRET_MISSING. */
  secrets?: SecretReader;
}

/**
 * How long a stopping host waits for its cancelled runs to end and be stored:
 * a cancelled run ends at once, unless a node ignores its signal (a code
 * node's sandbox is stopped, a tool call given up); past this, the next
 * Flowbench closes it as interrupted.
 */
const STOP_WAIT_MS = 3_000;

/** The runs going on in a host; once it stops, each is cancelled, and so is any that begins after. */
class GoingRuns implements RunsGoing {
  private readonly runs = new Set<Cancellable>();
  private stopped: FlowbenchError | undefined;

  add(run: Cancellable): void {
    this.runs.add(run);
    if (this.stopped) run.abort(this.stopped);
  }

  delete(run: Cancellable): void {
    this.runs.delete(run);
  }

  stop(reason: FlowbenchError): void {
    this.stopped = reason;
    for (const run of [...this.runs]) run.abort(reason);
  }
}

/** Runs flows with every event recorded; keeps the runs started in the background so they can be cancelled. */
export class RunService {
  /** Runs started with `start` and not finished yet, by run id. */
  private readonly active = new Map<string, AbortController>();
  /** Runs going on, started by `run` or `start`, counted for idle. */
  private inFlight = 0;
  /**
   * What cancels each run going on when the host stops (see stop), whatever
   * its caller: an MCP call's, the editor's, a test case's. Once stopped, a run
   * that begins is cancelled at once with the same reason.
   */
  private readonly going = new GoingRuns();
  /** Waiting for the last run going on to end (see idle). */
  private idleWaiters: (() => void)[] = [];
  /** The conversations of runs going on, by run id: a flow node's run goes on in its caller's. */
  private readonly conversations = new Map<string, string>();
  private readonly subflows: SubflowPort = {
    describe: (flow) => this.describeSubflow(flow),
    run: (request) => this.runSubflow(request),
  };

  constructor(
    private readonly log: RunLog,
    private readonly deps: RunDependencies,
  ) {}

  private llm(): LlmPort {
    return this.deps.llm();
  }

  private readRun(id: string): RunRecord {
    return this.deps.readRun(id);
  }

  /** The called flow and its newest published version; throws FLOW_NOT_FOUND or SUBFLOW_NOT_PUBLISHED. */
  private published(ref: string): { target: { id: string; name: string }; version: number; snapshot: Flow } {
    const { findFlow, latestVersion } = this.deps;
    if (!findFlow || !latestVersion) {
      throw new FlowbenchError('NODE_NOT_RUNNABLE', 'other flows cannot be called where this flow runs');
    }
    const target = findFlow(ref);
    const published = latestVersion(target.id);
    if (!published) {
      throw new FlowbenchError(
        'SUBFLOW_NOT_PUBLISHED',
        `flow "${target.name}" has no published version; publish it (\`flowbench publish ${target.id}\`) before another flow calls it`,
        { flowId: target.id },
      );
    }
    return { target, ...published };
  }

  private describeSubflow(ref: string): ToolInfo {
    const { snapshot } = this.published(ref);
    const description = toolDescription(snapshot);
    return {
      server: FLOWBENCH_SERVER,
      name: snapshot.tool.name,
      ...(description ? { description } : {}),
      inputSchema: inputSchemaFor(snapshot.parameters),
    };
  }

  /** A flow node's call: the called flow's latest published version, run as a child of the caller's run. */
  private async runSubflow(request: Parameters<SubflowPort['run']>[0]): Promise<SubflowResult> {
    const { target, ...published } = this.published(request.flow);
    if (request.callers.includes(target.id)) {
      throw new FlowbenchError(
        'SUBFLOW_CYCLE',
        `flow "${target.name}" is already running above this node: calling it again would never end`,
        { flowId: target.id },
      );
    }
    const conversation = this.conversations.get(request.parentRunId);
    const record = await this.run({
      flow: published.snapshot,
      flowVersion: published.version,
      inputs: request.inputs,
      trigger: 'flow',
      ...(conversation !== undefined ? { conversation } : {}),
      signal: request.signal as AbortSignal,
      parent: { runId: request.parentRunId, callers: request.callers },
      listeners: [
        (event) => {
          if (event.type === 'run.started') request.onStarted?.(event.runId);
        },
      ],
    });
    return {
      runId: record.id,
      status: record.status,
      ...(record.output ? { output: record.output } : {}),
      ...(record.error ? { error: { code: record.error.code, message: record.error.message } } : {}),
    };
  }

  /** Works out now what a first run of the flow would before starting (see prepareFlow), for a host with time to spare. */
  prepare(flow: Flow): void {
    prepareFlow(flow);
  }

  /** Runs the flow; the record returned is the one stored, committed before it is returned. */
  async run(given: StartRun): Promise<RunRecord> {
    this.inFlight++;
    try {
      const reuse = given.from ? this.reuseSource(given.flow, given.from) : undefined;
      // A run from a node of a chat turn goes on in that turn's conversation: its memory is what the turn read.
      const conversation = given.conversation ?? reuse?.conversation;
      const request = conversation === undefined ? given : { ...given, conversation };
      const meta = {
        trigger: request.trigger,
        ...(request.flowVersion !== undefined ? { flowVersion: request.flowVersion } : {}),
        ...(request.client !== undefined ? { client: request.client } : {}),
        ...(request.traceparent !== undefined ? { traceparent: request.traceparent } : {}),
        ...(request.parent ? { parentRunId: request.parent.runId } : {}),
        ...(request.conversation !== undefined ? { conversation: request.conversation } : {}),
      };
      const recorder = createRunRecorder(this.log, { flow: request.flow, ...meta });
      const builder = new RunRecordBuilder({ flowName: request.flow.name, ...meta });
      const runId = newRunId();
      const memory = this.deps.memory?.({
        flowId: request.flow.id,
        runId,
        ...(request.flowVersion !== undefined ? { flowVersion: request.flowVersion } : {}),
        ...(request.conversation !== undefined ? { conversation: request.conversation } : {}),
        settings: request.flow.memory.channels,
      });
      if (request.conversation !== undefined) this.conversations.set(runId, request.conversation);
      try {
        // Every option named, those not given as undefined (runFlow reads both alike): an object of one
        // shape on every run, where a spread per optional one built a new shape and copied it each time.
        await runFlow({
          runId,
          flow: request.flow,
          inputs: reuse ? { ...reuse.inputs, ...request.inputs } : request.inputs,
          reuse: reuse?.source,
          toNodeId: request.to,
          usePins: request.usePins,
          llm: this.llm(),
          subflows: this.subflows,
          tools: this.deps.tools,
          agents: this.deps.agents,
          memory,
          secrets: this.deps.secrets,
          callers: request.parent?.callers,
          streamTokens: request.streamTokens,
          human: request.human,
          listeners: [recorder, (event) => builder.apply(event), ...(request.listeners ?? [])],
          signal: request.signal,
          going: this.going,
          timeoutMs: request.timeoutMs,
          concurrency: request.engine?.concurrency,
          retry: request.engine?.retry,
          defaultNodeTimeoutMs: request.engine?.defaultNodeTimeoutMs,
        });
      } finally {
        if (request.conversation !== undefined) this.conversations.delete(runId);
      }
      // Whoever gets the record next passes it on (an MCP result, a CLI line): it is stored first.
      await this.log.durable();
      const record = builder.record();
      const unstored = this.log.unstoredReason(record.id);
      if (unstored !== undefined) {
        throw new FlowbenchError(
          'DATABASE_ERROR',
          `run ${record.id} ended ${record.status} but could not be stored: ${unstored}`,
          { runId: record.id, status: record.status },
        );
      }
      return record;
    } finally {
      if (--this.inFlight === 0 && this.idleWaiters.length > 0) {
        for (const wake of this.idleWaiters.splice(0)) wake();
      }
    }
  }

  /** The earlier run a run from a node reuses; it must be a run of the same flow. */
  private reuseSource(
    flow: Flow,
    from: { nodeId: string; runId: string },
  ): { source: ReuseSource; inputs: Record<string, unknown>; conversation?: string } {
    const earlier = this.readRun(from.runId);
    if (earlier.flowId !== flow.id) {
      throw new FlowbenchError(
        'REUSE_UNAVAILABLE',
        `run ${earlier.id} is a run of "${earlier.flowName}", not of "${flow.name}"`,
        { runId: earlier.id },
      );
    }
    const steps = new Map(earlier.steps.map((step) => [step.nodeId, step]));
    return {
      source: { fromNodeId: from.nodeId, runId: earlier.id, steps },
      inputs: earlier.inputs,
      ...(earlier.conversation !== undefined ? { conversation: earlier.conversation } : {}),
    };
  }

  /**
   * Starts a run in the background and resolves with its id once it started;
   * its events reach `request.listeners`. Fails only when the run cannot start.
   */
  start(request: Omit<StartRun, 'signal'>): Promise<{ runId: string }> {
    const controller = new AbortController();
    return new Promise((resolve, reject) => {
      let runId: string | undefined;
      const onStart: RunEventListener = (event) => {
        if (event.type !== 'run.started') return;
        runId = event.runId;
        this.active.set(runId, controller);
        resolve({ runId });
      };
      this.run({ ...request, signal: controller.signal, listeners: [onStart, ...(request.listeners ?? [])] })
        .then(
          () => undefined,
          (error: unknown) => reject(error instanceof Error ? error : new Error(String(error))),
        )
        .finally(() => {
          if (runId) this.active.delete(runId);
        });
    });
  }

  /**
   * For a host that stops (`serve`, `flowbench mcp`, the app): cancels every
   * run going on (an MCP call's, the editor's, flows_start's, a test case's)
   * and any begun from now on, saying why, and resolves once each has ended
   * and is stored, or after `waitMs`. Without it, a run waiting on a model
   * kept the process going until the model answered, and its end was lost:
   * the database was closed by then. A host calls it before closing its
   * connections, so that an MCP client waiting on a call is answered why.
   */
  async stop(reason: string, waitMs = STOP_WAIT_MS): Promise<void> {
    this.going.stop(new FlowbenchError('CANCELLED', reason));
    await waitAtMost(this.idle(), waitMs);
  }

  /** Resolves once no run is going on here (each stored), however long that takes. */
  idle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Cancels a run `start` began. Throws RUN_NOT_FOUND when it is not running here. */
  cancel(runId: string, reason: string): void {
    const controller = this.active.get(runId);
    if (!controller) throw new FlowbenchError('RUN_NOT_FOUND', `run ${runId} is not running`);
    controller.abort(new FlowbenchError('CANCELLED', reason));
  }
}
