import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Task,
} from '@modelcontextprotocol/sdk/types.js';
import type { Services } from '../services/open-services';
import { FlowbenchError, toFlowbenchError } from '../model/errors';
import type { Flow } from '../model/flow';
import { prepareInputs } from '../model/inputs';
import type { RunEventListener, RunRecord } from '../model/run';
import type { PublishedFlow } from '../store/version-repository';
import { FLOWS_EXECUTE, FLOWS_LIST, flowExecution, flowsExecuteTool, flowsListTool, seedCode } from './flows-tools';
import { flowView, RUN_VIEW_URI, toolFor, viewUri } from '../services/tool-schema';
import { toolResult, type McpToolResult, type ToolResult } from '../model/tool-result';
import { serveResources, type ViewResource } from './resources';
import { FlowTaskStore, startTask } from './flow-tasks';
import type { RequestTaskStore } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { validTraceparent } from '../model/trace-context';
import { FLOWS_RESULT, FLOWS_START, flowsResultTool, flowsStartTool, runResult, startedResult } from './long-runs';

/** Tool arguments larger than this are refused. */
export const MAX_ARGUMENT_BYTES = 1024 * 1024;
/** How often the catalogue is compared with the database, for tools/list_changed. */
export const CATALOGUE_POLL_MS = 500;
/**
 * How long a call trusts the catalogue it last checked, for changes made by
 * other processes (this process's own changes show at once). Asking SQLite on
 * every call cost a read transaction, a sizeable part of a one-node call.
 */
export const CATALOGUE_FRESH_MS = 100;

interface CatalogueEntry extends PublishedFlow {
  tool: ReturnType<typeof toolFor>;
}

type CallExtra = Parameters<Parameters<Server['setRequestHandler']>[1]>[1];

const textResult = (text: string, isError = false): ToolResult => ({
  content: [{ type: 'text', text }],
  ...(isError ? { isError } : {}),
});

/**
 * Serves published, enabled flows as MCP tools to any number of connections
 * (one stdio connection, or one per HTTP session), and tells them when the
 * catalogue changes, whichever process changed it.
 */
export class McpHost {
  private readonly servers = new Set<Server>();
  /** The tasks of every connection of this process (each task answers only the session that made it). */
  private readonly tasks = new FlowTaskStore();
  private cache:
    { signature: string; epoch: number; checkedAt: number; byName: Map<string, CatalogueEntry> } | undefined;
  private watcher: NodeJS.Timeout | undefined;
  private lastSignature: string | undefined;

  constructor(
    private readonly services: Services,
    private readonly version: string,
  ) {}

  /** The enabled published flows by tool name; rebuilt only when the database says something changed. */
  catalogue(): Map<string, CatalogueEntry> {
    const epoch = this.services.database.catalogueEpoch.value;
    const now = performance.now();
    const cache = this.cache;
    if (cache && cache.epoch === epoch && now - cache.checkedAt < CATALOGUE_FRESH_MS) return cache.byName;
    const signature = this.services.versions.catalogueSignature();
    if (cache?.signature === signature) {
      Object.assign(cache, { epoch, checkedAt: now });
      return cache.byName;
    }
    const byName = new Map<string, CatalogueEntry>();
    for (const published of this.services.versions.latestPublished()) {
      if (!published.enabled) continue;
      // Any flow may run as a task, for clients that support tasks (the others call it as usual).
      const tool = { ...toolFor(published.snapshot), execution: { taskSupport: 'optional' as const } };
      byName.set(published.snapshot.tool.name, {
        ...published,
        tool: withLongRunHint(tool, this.services.runs.typicalDurationMs(published.flowId)),
      });
    }
    this.cache = { signature, epoch, checkedAt: now, byName };
    return byName;
  }

  /** The views (MCP Apps) of the flows offered now. */
  private views(): ViewResource[] {
    const own = [...this.catalogue().values()].flatMap((entry) => {
      const view = flowView(entry.snapshot);
      return view ? [{ uri: viewUri(entry.snapshot), toolName: entry.snapshot.tool.name, view }] : [];
    });
    return [{ uri: RUN_VIEW_URI, view: { title: 'Flow run' } }, ...own];
  }

  /** A protocol server for one connection. */
  createServer(): Server {
    const server = new Server(
      { name: 'flowbench', title: 'Flowbench', version: this.version },
      {
        capabilities: {
          tools: { listChanged: true },
          resources: {},
          tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
        },
        taskStore: this.tasks,
        instructions:
          'Each tool runs a Flowbench flow on this machine. flows_list and flows_execute run any published flow by name.',
      },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [
        ...[...this.catalogue().values()].map((e) => e.tool),
        flowsListTool,
        flowsExecuteTool,
        flowsStartTool,
        flowsResultTool,
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
      request.params.task && extra.taskStore
        ? this.callAsTask(
            server,
            request.params.name,
            request.params.arguments,
            extra.taskStore,
            request.params.task.ttl,
            extra,
          )
        : this.call(server, request.params.name, request.params.arguments, extra),
    );
    serveResources(server, this.services, () => this.views());
    this.servers.add(server);
    const previous = server.onclose;
    server.onclose = () => {
      this.servers.delete(server);
      previous?.();
    };
    return server;
  }

  /** Starts comparing the catalogue with the database and notifying connections of changes. */
  startWatching(pollMs = CATALOGUE_POLL_MS): void {
    this.lastSignature = this.services.versions.catalogueSignature();
    this.watcher = setInterval(() => this.checkForChanges(), pollMs);
    this.watcher.unref();
  }

  /** Sends tools/list_changed to every connection when the catalogue differs from the last check. */
  checkForChanges(): void {
    const signature = this.services.versions.catalogueSignature();
    if (signature === this.lastSignature) return;
    this.lastSignature = signature;
    for (const server of this.servers) {
      // A connection that has not finished initializing cannot take notifications yet.
      if (server.getClientCapabilities()) server.sendToolListChanged().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    if (this.watcher) clearInterval(this.watcher);
    // Its expiry timers would keep a stopping process alive for a day.
    this.tasks.cleanup();
    await Promise.all([...this.servers].map((s) => s.close().catch(() => undefined)));
  }

  private async call(
    server: Server,
    name: string,
    args: Record<string, unknown> | undefined,
    extra: CallExtra,
  ): Promise<McpToolResult> {
    const size = Buffer.byteLength(JSON.stringify(args ?? {}));
    if (size > MAX_ARGUMENT_BYTES) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `arguments of ${name} are ${(size / 1024 / 1024).toFixed(1)} MB; the limit is 1 MB`,
      );
    }
    if (name === FLOWS_LIST) return this.flowsList(args ?? {});
    if (name === FLOWS_EXECUTE) return this.flowsExecute(server, args ?? {}, extra);
    if (name === FLOWS_START) return this.flowsStart(server, args ?? {}, extra);
    if (name === FLOWS_RESULT) return runResult(this.services, args ?? {}, extra.signal);
    const checked = this.flowCall(name, args);
    if ('invalid' in checked) return textResult(checked.invalid, true);
    const { entry, inputs } = checked;
    try {
      const record = await this.run(server, entry, inputs, extra);
      return toolResult(entry.snapshot, record);
    } catch (error) {
      const failure = toFlowbenchError(error);
      return textResult(`${name} could not run: ${failure.code}: ${failure.message}`, true);
    }
  }

  /**
   * A call of a flow tool, checked: the flow and its inputs, or why the
   * arguments do not fit (a call answers that as an error result, a task as a
   * protocol error). An unknown tool is a protocol error either way.
   */
  private flowCall(
    name: string,
    args: Record<string, unknown> | undefined,
    unknownNote = '',
  ): { entry: CatalogueEntry; inputs: Record<string, unknown> } | { invalid: string } {
    const entry = this.catalogue().get(name);
    if (!entry) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}${unknownNote}`);
    try {
      return { entry, inputs: prepareInputs(entry.snapshot.parameters, args ?? {}) };
    } catch (error) {
      return { invalid: `Invalid arguments for ${name}: ${argumentProblems(error)}` };
    }
  }

  /** A flow tool called as a task: checked as a call is, then answered with the task while the run goes on. */
  private async callAsTask(
    server: Server,
    name: string,
    args: Record<string, unknown> | undefined,
    store: RequestTaskStore,
    ttl: number | undefined,
    extra: CallExtra,
  ): Promise<{ task: Task }> {
    const checked = this.flowCall(name, args, ' (only flow tools run as tasks)');
    if ('invalid' in checked) throw new McpError(ErrorCode.InvalidParams, checked.invalid);
    const { entry, inputs } = checked;
    return startTask(this.tasks, store, ttl, {
      flow: entry.snapshot,
      run: (signal, onNodeDone) =>
        this.services.runner.run({
          flow: entry.snapshot,
          flowVersion: entry.version,
          inputs,
          ...callerOf(server, extra),
          signal,
          listeners: [nodesDone((done) => onNodeDone(done))],
        }),
    });
  }

  private run(
    server: Server,
    entry: CatalogueEntry,
    inputs: Record<string, unknown>,
    extra: CallExtra,
  ): Promise<RunRecord> {
    return this.services.runner.run({
      flow: entry.snapshot,
      flowVersion: entry.version,
      inputs,
      ...callerOf(server, extra),
      // The SDK aborts it on notifications/cancelled (with the client's reason); the run records CANCELLED.
      signal: extra.signal,
      listeners: progressListeners(entry.snapshot, extra),
    });
  }

  /**
   * The entry at a published version: `ref` is its number or the semver the
   * flow declares; absent, the newest. Throws VALIDATION_ERROR naming the versions there are.
   */
  private atRef(entry: CatalogueEntry, ref: unknown): CatalogueEntry {
    if (ref === undefined || ref === '') return entry;
    if (typeof ref !== 'string') throw new FlowbenchError('VALIDATION_ERROR', 'ref must be a string');
    const versions = this.services.versions.list(entry.flowId);
    for (const summary of versions) {
      const snapshot = this.services.versions.get(entry.flowId, summary.version);
      if (String(summary.version) === ref || declaredMetadata(snapshot).version === ref) {
        return { ...entry, version: summary.version, snapshot, publishedAt: Date.parse(summary.createdAt) };
      }
    }
    throw new FlowbenchError(
      'VALIDATION_ERROR',
      `flow "${entry.snapshot.tool.name}" has no published version "${ref}" (versions: ${versions.map((v) => v.version).join(', ')})`,
    );
  }

  private flowsList(args: Record<string, unknown>): ToolResult {
    const includeMetadata = args.includeMetadata !== false;
    const flows = [...this.catalogue().values()].map((entry) => {
      const flow = entry.snapshot;
      const declared = declaredMetadata(flow);
      const semver = declared.version;
      // Seed 001: dates the file declares; else when Flowbench first published it and when it last did.
      const created = declared.created ?? this.services.versions.list(entry.flowId).at(-1)?.createdAt;
      return {
        name: flow.tool.name,
        flowId: flow.id,
        title: flow.name,
        description: entry.tool.description,
        version: semver ?? String(entry.version),
        publishedVersion: entry.version,
        nodeCount: flow.nodes.length,
        ...(includeMetadata
          ? {
              parameters: flow.parameters.map((p) => ({
                name: p.name,
                type: p.type,
                required: p.required && p.default === undefined,
                description: p.description,
              })),
              ...(created ? { created } : {}),
              updated: declared.updated ?? new Date(entry.publishedAt).toISOString(),
            }
          : {}),
      };
    });
    const structuredContent = { flows };
    return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
  }

  /**
   * What flows_execute and flows_start run: the flow named (tool name, id or
   * name) at the version asked for, with the initial variables its parameters
   * take; or the seed 002 failure that says why not.
   */
  private resolveExecution(
    args: Record<string, unknown>,
  ): { entry: CatalogueEntry; inputs: Record<string, unknown>; unused: string[] } | { failure: ToolResult } {
    const flowName = args.flowName;
    const variables = args.initialVariables ?? {};
    const failure = (code: string, message: string) => {
      const structuredContent = {
        flowName: String(flowName),
        status: 'failed',
        intermediateResults: [],
        finalResult: null,
        error: { code: seedCode(code), flowbenchCode: code, message, source: 'flows_execute' },
      };
      return {
        failure: {
          content: [{ type: 'text' as const, text: JSON.stringify(structuredContent) }],
          structuredContent,
          isError: true,
        },
      };
    };
    if (typeof flowName !== 'string' || flowName === '')
      return failure('VALIDATION_ERROR', 'flowName must be a non-empty string');
    if (variables === null || typeof variables !== 'object' || Array.isArray(variables)) {
      return failure('VALIDATION_ERROR', 'initialVariables must be an object');
    }
    const entries = [...this.catalogue().values()];
    const named =
      entries.find((e) => e.snapshot.tool.name === flowName) ??
      entries.find((e) => e.flowId === flowName) ??
      entries.find((e) => e.snapshot.name === flowName);
    if (!named)
      return failure('FLOW_NOT_FOUND', `no published, enabled flow is named "${flowName}"; flows_list shows them`);
    let entry: CatalogueEntry;
    try {
      entry = this.atRef(named, args.ref);
    } catch (error) {
      return failure(toFlowbenchError(error).code, toFlowbenchError(error).message);
    }
    // Seed 001 starts from every initial variable; those no parameter takes are listed, not refused.
    const known = new Set(entry.snapshot.parameters.map((p) => p.name));
    const given = variables as Record<string, unknown>;
    const unused = Object.keys(given).filter((name) => !known.has(name));
    try {
      const inputs = prepareInputs(
        entry.snapshot.parameters,
        Object.fromEntries(Object.entries(given).filter(([name]) => known.has(name))),
      );
      return { entry, inputs, unused };
    } catch (error) {
      return failure(toFlowbenchError(error).code, argumentProblems(error));
    }
  }

  private async flowsExecute(server: Server, args: Record<string, unknown>, extra: CallExtra): Promise<ToolResult> {
    const resolved = this.resolveExecution(args);
    if ('failure' in resolved) return resolved.failure;
    const { entry, inputs, unused } = resolved;
    const record = await this.run(server, entry, inputs, extra);
    const execution = {
      ...flowExecution(entry.snapshot, record),
      ...(unused.length > 0 ? { unusedVariables: unused } : {}),
    };
    return {
      content: [{ type: 'text', text: JSON.stringify(execution) }],
      structuredContent: execution as unknown as Record<string, unknown>,
      ...(execution.status === 'success' ? {} : { isError: true }),
    };
  }

  /**
   * Starts the run apart from this request (a client that goes away does not
   * cancel it) and answers once the run is stored, so the id it returns can
   * always be asked for.
   */
  private async flowsStart(server: Server, args: Record<string, unknown>, extra: CallExtra): Promise<McpToolResult> {
    const resolved = this.resolveExecution(args);
    if ('failure' in resolved) return resolved.failure;
    const { entry, inputs, unused } = resolved;
    const { runId } = await this.services.runner.start({
      flow: entry.snapshot,
      flowVersion: entry.version,
      inputs,
      ...callerOf(server, extra),
    });
    await this.services.runLog.durable();
    return startedResult(entry.snapshot, runId, unused);
  }
}

/** Who started a run: an MCP client, by its name, with the trace context it sent (if well formed). */
function callerOf(server: Server, extra: CallExtra): { trigger: 'mcp'; client?: string; traceparent?: string } {
  const client = server.getClientVersion()?.name;
  const traceparent = validTraceparent(extra._meta?.traceparent);
  return { trigger: 'mcp', ...(client ? { client } : {}), ...(traceparent ? { traceparent } : {}) };
}

/** Past this a flow's usual run outlasts what several clients wait for one call. */
const LONG_RUN_MS = 30_000;

/**
 * A flow whose runs (learnt from its history) usually take longer than a
 * client waits says so in its description, with the ways that do not wait.
 */
function withLongRunHint(tool: CatalogueEntry['tool'], typicalMs: number | undefined): CatalogueEntry['tool'] {
  if (typicalMs === undefined || typicalMs < LONG_RUN_MS) return tool;
  const hint = `This flow usually takes about ${Math.round(typicalMs / 1000)} s: call it as a task, or through flows_start and flows_result, rather than waiting on one call.`;
  const description = typeof tool.description === 'string' ? tool.description : '';
  return { ...tool, description: [description, hint].filter(Boolean).join('\n\n') };
}

/** Every bad field of a refused call, in one line a model can act on. */
function argumentProblems(error: unknown): string {
  const failure = toFlowbenchError(error);
  if (failure.code === 'MISSING_VARIABLES') return failure.message;
  const problems = (failure.data?.problems ?? []) as { message: string }[];
  return problems.length > 0 ? problems.map((p) => p.message).join('; ') : failure.message;
}

/** Calls `onDone` with the count each time a node ends for good (finished, skipped, or failed with no retry left). */
function nodesDone(onDone: (done: number, nodeId: string, verb: string) => void): RunEventListener {
  let done = 0;
  return (event) => {
    if (
      event.type !== 'node.finished' &&
      event.type !== 'node.skipped' &&
      !(event.type === 'node.failed' && !event.willRetry)
    )
      return;
    done++;
    onDone(
      done,
      event.nodeId,
      event.type === 'node.finished' ? 'finished' : event.type === 'node.skipped' ? 'skipped' : 'failed',
    );
  };
}

/** One progress notification per finished node, when the caller sent a progress token. */
function progressListeners(flow: Flow, extra: CallExtra): RunEventListener[] {
  const token = extra._meta?.progressToken;
  if (token === undefined) return [];
  return [
    nodesDone((done, nodeId, verb) => {
      extra
        .sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress: done, total: flow.nodes.length, message: `${nodeId} ${verb}` },
        })
        .catch(() => undefined);
    }),
  ];
}

/** What a flow file declared about itself (seed 001's metadata: semver, dates), wherever the importer kept it. */
function declaredMetadata(flow: Flow): { version?: string; created?: string; updated?: string } {
  const kept = (flow.metadata.flowyprompt as { metadata?: Record<string, unknown> } | undefined)?.metadata ?? {};
  // Seed 004 declares an integer version at the top of the definition.
  const definition = (flow.metadata.flowDefinition ?? {}) as Record<string, unknown>;
  const pick = (key: string) => {
    const value = flow.metadata[key] ?? kept[key] ?? definition[key];
    return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
  };
  const version = pick('version');
  const created = pick('created');
  const updated = pick('updated');
  return { ...(version ? { version } : {}), ...(created ? { created } : {}), ...(updated ? { updated } : {}) };
}
