import { ErrorCode, McpError, type Task, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Services } from '../services/open-services';
import { FlowbenchError, toFlowbenchError } from '../model/errors';
import type { Flow } from '../model/flow';
import { prepareInputs } from '../model/inputs';
import type { RunRecord } from '../model/run';
import type { PublishedFlow } from '../store/version-repository';
import {
  FLOWS_EXECUTE,
  FLOWS_LIST,
  flowExecution,
  flowsExecuteTool,
  flowsListTool,
  seedCode,
  unknownArguments,
} from './flows-tools';
import { flowView, RUN_VIEW_URI, toolFor, viewUri } from '../nodes/tool-schema';
import { toolResult, type McpToolResult, type ToolResult } from '../model/tool-result';
import { FlowResources, type ViewResource } from './resources';
import { FlowTaskStore, startTask } from './flow-tasks';
import type { RequestTaskStore } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { callerOf, nodesDone, progressListeners, type CallContext } from './call-context';
import { noHumanInput, type HumanInputPort } from '../model/human-input';
import { nodeRegistry } from '../nodes/registry';
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
  /** The flow has a node that may pause the run for a person's answer. */
  asksPeople: boolean;
  /** A run of the flow may call a model (see ProviderService.mayCallModels). */
  callsModels: boolean;
  /** The least a run of the flow takes, as its nodes say (its longest wait). */
  leastMs: number;
}

/** A connection's part in catalogue changes: told when they happen, closed with the host. */
export interface Attachment {
  toolsChanged(): void;
  close(): Promise<void>;
}

const textResult = (text: string, isError = false): ToolResult => ({
  content: [{ type: 'text', text }],
  ...(isError ? { isError } : {}),
});

/**
 * Serves published, enabled flows as MCP tools to any number of connections
 * of either protocol revision (legacy-server.ts for 2025-11-25, modern-server.ts
 * for 2026-07-28), and tells them when the catalogue changes, whichever
 * process changed it. Nothing here depends on an SDK's request context.
 */
export class McpHost {
  private readonly attached = new Set<Attachment>();
  /** The tasks of every connection of this process (each task answers only the session that made it). */
  readonly tasks = new FlowTaskStore();
  private cache:
    { signature: string; epoch: number; checkedAt: number; byName: Map<string, CatalogueEntry> } | undefined;
  private watcher: NodeJS.Timeout | undefined;
  private lastSignature: string | undefined;
  /** Each flow's usual run time, with when it was read (see typicalDurationMs). */
  private readonly typical = new Map<string, { ms: number | undefined; readAt: number }>();
  /** The warm-up after a first tools/list has started (see warmUpOnce). */
  private warming = false;
  /** Closed: a warm-up still going stops (see prepareTools). */
  private closed = false;

  /** Run records and views as resources. */
  readonly resources: FlowResources;

  constructor(
    private readonly services: Services,
    readonly version: string,
  ) {
    this.resources = new FlowResources(services, () => this.views());
    // A server whose tools call models loads the library while it starts, not on their first call (one
    // that fails leaves it to that call, which says why). One whose tools call none never loads it; a
    // flow run through flows_execute that does, or a tool published later, loads it at its first call.
    if (this.toolsCallModels()) services.providers.preload().catch(() => undefined);
  }

  /** Whether one of the tools offered now may call a model. */
  private toolsCallModels(): boolean {
    return [...this.catalogue().values()].some((entry) => entry.callsModels);
  }

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
      const leastMs = leastRunMs(published.snapshot);
      byName.set(published.snapshot.tool.name, {
        ...published,
        leastMs,
        tool: withLongRunHint(tool, this.typicalDurationMs(published.flowId), leastMs),
        asksPeople: published.snapshot.nodes.some((node) => nodeRegistry.get(node.type)?.asksPeople === true),
        callsModels: this.services.providers.mayCallModels(published.snapshot),
      });
    }
    this.cache = { signature, epoch, checkedAt: now, byName };
    return byName;
  }

  /** The views (MCP Apps) of the flows offered now. */
  views(): ViewResource[] {
    const own = [...this.catalogue().values()].flatMap((entry) => {
      const view = flowView(entry.snapshot);
      return view ? [{ uri: viewUri(entry.snapshot), toolName: entry.snapshot.tool.name, view }] : [];
    });
    return [{ uri: RUN_VIEW_URI, view: { title: 'Flow run' } }, ...own];
  }

  /**
   * Every tool, in a stable order: flow tools by name, then the four built-in
   * ones. Flow tools name their view only to a client that shows views.
   */
  listTools(withViews: boolean): Tool[] {
    this.warmUpOnce();
    const flows = [...this.catalogue().values()]
      .map((e) => (withViews ? e.tool : withoutView(e.tool)))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return [...flows, flowsListTool, flowsExecuteTool, flowsStartTool, flowsResultTool] as Tool[];
  }

  /** Whether a call of the tool may pause for a person: a flow tool with an ask node, or a built-in one (it runs any flow). */
  asksPeople(name: string): boolean {
    return this.catalogue().get(name)?.asksPeople ?? true;
  }

  /**
   * Whether a tool is a flow's, and whether its runs outlast what a client
   * waits for: usually (its history), or always (a wait of its own).
   */
  flowToolLength(name: string): 'long' | 'usual' | undefined {
    const entry = this.catalogue().get(name);
    if (!entry) return undefined;
    const typical = this.typicalDurationMs(entry.flowId) ?? 0;
    return Math.max(typical, entry.leastMs) >= LONG_RUN_MS ? 'long' : 'usual';
  }

  /**
   * A flow's usual run time from its history, read again at most every
   * TYPICAL_FRESH_MS. The read takes about 0.17 ms, and a client that supports
   * tasks asks on every call; a flow becomes long over many runs, so a reading
   * a few seconds old decides the same.
   */
  private typicalDurationMs(flowId: string): number | undefined {
    const now = performance.now();
    const known = this.typical.get(flowId);
    if (known && now - known.readAt < TYPICAL_FRESH_MS) return known.ms;
    const ms = this.services.runs.typicalDurationMs(flowId);
    this.typical.set(flowId, { ms, readAt: now });
    return ms;
  }

  /**
   * Once a client has listed the tools it usually waits a while before its
   * first call (a person asks something): the model library's first-call
   * cost is paid then, not on that call (see ProviderService.warmUpOnce).
   */
  private warmUpOnce(): void {
    // Tools that call no model have no first model call to warm up for (nor a library to load).
    if (this.warming || !this.toolsCallModels()) return;
    this.warming = true;
    void this.services.providers
      .warmUpOnce(WARM_UP_AFTER_MS)
      .then(() => this.prepareTools())
      // A warm-up that fails changes nothing but the first call's time.
      .catch(() => undefined);
  }

  /**
   * Each listed tool's flow checked and planned as its first call would (the
   * engine keeps both), and the clients of the models it calls built (see
   * ProviderService.prepareModels), one flow a turn, so that a call that
   * comes meanwhile waits for one at most. The first call of a 3×3 flow 0.5 s
   * after tools/list ran in 632 ms instead of 638 with the flows checked and
   * planned (medians of 9, alternating with the build without that), and in
   * 622 instead of 628 with the models' clients built as well (medians of 11).
   */
  private async prepareTools(): Promise<void> {
    // The tools as last listed: the flows are not read again, and the host may have closed meanwhile.
    const snapshots = [...(this.cache?.byName.values() ?? [])].map((entry) => entry.snapshot);
    for (const snapshot of snapshots) {
      if (this.closed) return;
      this.services.runner.prepare(snapshot);
      await new Promise((resolve) => setImmediate(resolve));
    }
    // Every tool's models at once: the providers setting is read once, and a model two tools call is built once.
    if (this.closed) return;
    await this.services.providers.prepareModels(
      snapshots.flatMap((snapshot) => snapshot.nodes.flatMap((node) => nodeRegistry.models(node))),
    );
  }

  /** Adds a connection to those told of catalogue changes; returns its removal. */
  attach(attachment: Attachment): () => void {
    this.attached.add(attachment);
    return () => this.attached.delete(attachment);
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
    // A client that lists again on hearing of the change must get the new list, not the one cached.
    this.cache = undefined;
    for (const attachment of this.attached) attachment.toolsChanged();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.watcher) clearInterval(this.watcher);
    // Its expiry timers would keep a stopping process alive for a day.
    this.tasks.cleanup();
    await Promise.all([...this.attached].map((a) => a.close().catch(() => undefined)));
  }

  /** tools/call: a flow tool or a built-in one. */
  async call(name: string, args: Record<string, unknown> | undefined, ctx: CallContext): Promise<McpToolResult> {
    const size = Buffer.byteLength(JSON.stringify(args ?? {}));
    if (size > MAX_ARGUMENT_BYTES) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `arguments of ${name} are ${(size / 1024 / 1024).toFixed(1)} MB; the limit is 1 MB`,
      );
    }
    if (name === FLOWS_LIST) return this.flowsList(args ?? {});
    if (name === FLOWS_EXECUTE) return this.flowsExecute(args ?? {}, ctx);
    if (name === FLOWS_START) return this.flowsStart(args ?? {}, ctx);
    if (name === FLOWS_RESULT) return runResult(this.services, args ?? {}, ctx.signal);
    const checked = this.flowCall(name, args);
    if ('invalid' in checked) return textResult(checked.invalid, true);
    const { entry, inputs } = checked;
    try {
      const record = await this.run(entry, inputs, ctx);
      return toolResult(entry.snapshot, record, ctx.showsViews);
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
  async callAsTask(
    name: string,
    args: Record<string, unknown> | undefined,
    store: RequestTaskStore,
    ttl: number | undefined,
    ctx: CallContext,
  ): Promise<{ task: Task }> {
    const checked = this.flowCall(name, args, ' (only flow tools run as tasks)');
    if ('invalid' in checked) throw new McpError(ErrorCode.InvalidParams, checked.invalid);
    const { entry, inputs } = checked;
    return startTask(this.tasks, store, ttl, {
      flow: entry.snapshot,
      showsViews: ctx.showsViews,
      ...(ctx.humanInTask ? { ask: ctx.humanInTask } : {}),
      run: (signal, onNodeDone, human) =>
        this.services.runner.run({
          flow: entry.snapshot,
          flowVersion: entry.version,
          inputs,
          ...callerOf(ctx),
          signal,
          human: human ?? cannotElicit(ctx),
          listeners: [nodesDone((done) => onNodeDone(done))],
        }),
    });
  }

  private async run(entry: CatalogueEntry, inputs: Record<string, unknown>, ctx: CallContext): Promise<RunRecord> {
    const progress = progressListeners(entry.snapshot, ctx);
    const record = await this.services.runner.run({
      flow: entry.snapshot,
      flowVersion: entry.version,
      inputs,
      ...callerOf(ctx),
      // The SDK aborts it on notifications/cancelled (with the client's reason); the run records CANCELLED.
      signal: ctx.signal,
      human: ctx.human ?? cannotElicit(ctx),
      listeners: progress.listeners,
    });
    if (progress.listeners.length > 0) await progress.sent();
    return record;
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
    const unknown = unknownArguments(flowsListTool, args);
    if (unknown) return textResult(unknown, true);
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
    tool: { name: string; inputSchema: { properties: Record<string, unknown> } },
    args: Record<string, unknown>,
  ): { entry: CatalogueEntry; inputs: Record<string, unknown>; unused: string[] } | { failure: ToolResult } {
    const flowName = args.flowName;
    const variables = args.initialVariables ?? {};
    const failure = (code: string, message: string) => {
      const structuredContent = {
        // The name as asked for; none asked for (or no text) is "", not "undefined".
        flowName: typeof flowName === 'string' ? flowName : '',
        status: 'failed',
        intermediateResults: [],
        finalResult: null,
        // The tool that refused: flows_start shares these checks.
        error: { code: seedCode(code), flowbenchCode: code, message, source: tool.name },
      };
      return {
        failure: {
          content: [{ type: 'text' as const, text: JSON.stringify(structuredContent) }],
          structuredContent,
          isError: true,
        },
      };
    };
    const unknown = unknownArguments(tool, args);
    if (unknown) return failure('VALIDATION_ERROR', unknown);
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

  private async flowsExecute(args: Record<string, unknown>, ctx: CallContext): Promise<ToolResult> {
    const resolved = this.resolveExecution(flowsExecuteTool, args);
    if ('failure' in resolved) return resolved.failure;
    const { entry, inputs, unused } = resolved;
    const record = await this.run(entry, inputs, ctx);
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
  private async flowsStart(args: Record<string, unknown>, ctx: CallContext): Promise<McpToolResult> {
    const resolved = this.resolveExecution(flowsStartTool, args);
    if ('failure' in resolved) return resolved.failure;
    const { entry, inputs, unused } = resolved;
    const { runId } = await this.services.runner.start({
      flow: entry.snapshot,
      flowVersion: entry.version,
      inputs,
      ...callerOf(ctx),
      human: noHumanInput('a run flows_start started has no client waiting to answer (call the flow’s tool instead)'),
    });
    await this.services.runLog.durable();
    return startedResult(entry.snapshot, runId, unused);
  }
}

/** How long after the first tools/list the model library is warmed up: the answer goes out first. */
const WARM_UP_AFTER_MS = 50;

/** Past this a flow's usual run outlasts what several clients wait for one call. */
const LONG_RUN_MS = 30_000;
/** How long a flow's usual run time, once read, stands for it. */
const TYPICAL_FRESH_MS = 10_000;

/** The longest time one of the flow's nodes takes at least (a wait); a loop to run it again is not counted. */
function leastRunMs(flow: Flow): number {
  let longest = 0;
  for (const node of flow.nodes) if (!node.disabled) longest = Math.max(longest, nodeRegistry.leastDurationMs(node));
  return longest;
}

/**
 * A flow whose runs take longer than a client waits, usually (learnt from its
 * history) or always (a wait of its own, before it ever ran), says so in its
 * description, with the ways that do not wait.
 */
function withLongRunHint(
  tool: CatalogueEntry['tool'],
  typicalMs: number | undefined,
  leastMs: number,
): CatalogueEntry['tool'] {
  const about =
    typicalMs !== undefined && typicalMs >= LONG_RUN_MS
      ? `usually takes about ${Math.round(typicalMs / 1000)} s`
      : leastMs >= LONG_RUN_MS
        ? `takes at least ${Math.round(leastMs / 1000)} s (it waits that long)`
        : undefined;
  if (!about) return tool;
  const hint = `This flow ${about}: call it as a task, or through flows_start and flows_result, rather than waiting on one call.`;
  const description = typeof tool.description === 'string' ? tool.description : '';
  return { ...tool, description: [description, hint].filter(Boolean).join('\n\n') };
}

/** A flow tool as a client that shows no views gets it: without the view it names in `_meta.ui`. */
function withoutView(tool: CatalogueEntry['tool']): CatalogueEntry['tool'] {
  const copy: CatalogueEntry['tool'] & { _meta?: Record<string, unknown> } = { ...tool };
  if (!copy._meta) return tool;
  const meta = { ...copy._meta };
  delete meta.ui;
  if (Object.keys(meta).length > 0) copy._meta = meta;
  else delete copy._meta;
  return copy;
}

/** Every bad field of a refused call, in one line a model can act on. */
function argumentProblems(error: unknown): string {
  const failure = toFlowbenchError(error);
  if (failure.code === 'MISSING_VARIABLES') return failure.message;
  const problems = (failure.data?.problems ?? []) as { message: string }[];
  return problems.length > 0 ? problems.map((p) => p.message).join('; ') : failure.message;
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

/** For a client that declared no elicitation: its ask nodes fail naming the node and the client. */
function cannotElicit(ctx: CallContext): HumanInputPort {
  return noHumanInput(`the MCP client${ctx.client ? ` "${ctx.client}"` : ''} does not support elicitation`);
}
