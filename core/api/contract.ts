import { RUN_STATUSES, RUN_TRIGGERS } from '../model/run';
import { PriceSchema, type PriceTable } from '../model/pricing';
import { ProviderInputSchema } from '../model/provider-config';
import { AgentNameSchema, AgentSettingsSchema, type AgentSummary, type AgentVersion } from '../model/agents';
import { McpServerConfigSchema, type ServerListing } from '../model/tools';
import type { TestRunSummary } from '../model/test-cases';
import { ChannelNameSchema, ConversationSchema, type FlowMemory } from '../model/memory';
import { WRITABLE_CLIENTS, type ClientSetup, type WriteResult } from '../model/client-setup';
import { z } from 'zod';
import {
  FLOW_SECRET_NAME,
  FLOW_SECRET_NAME_RULE,
  MAX_FLOW_SECRET_LENGTH,
  type FlowSecretListing,
  type WantedSecret,
  type SecretStore,
} from '../model/secrets';
import type { AppCommand } from './app-commands';
import type { Endpoints } from '../model/client-setup';
import { EXPORT_FORMATS } from '../formats/export-formats';
import type { ServerImportResult } from '../formats/mcp-client-config';
import { ChangeSetSchema, type ChangeResult } from '../model/change-set';
import type { SerializedError } from '../model/errors';
import { MAX_FLOW_FILE_BYTES } from '../model/limits';
import type { Flow } from '../model/flow';
import type { Problem } from '../model/problems';
import type { RunEvent, RunRecord, RunSummary } from '../model/run';
import type { Question, QuestionEvent } from '../model/human-input';
import type { FlowSummary, ProviderListing, VersionSummary } from '../model/summaries';

/**
 * The one API between the renderer and a host (the Electron main process, or
 * `flowbench serve` over HTTP). Argument schemas are checked by the host: the
 * renderer is untrusted. Result types exist only for the compiler.
 */
export interface Method<Args extends z.ZodType, Result> {
  args: Args;
  /** Phantom: never set, only carries the result type. */
  result?: Result;
}

/**
 * A method's arguments. A field they do not have, at any depth, is refused
 * by the host (ApiHost.invoke), not dropped: a client's `{ name, description }`
 * to flows.create made a flow with no description, and answered ok.
 */
function method<Result>() {
  return <Args extends z.ZodType>(args: Args): Method<Args, Result> => ({ args });
}

const id = z.string().min(1).max(128);
/** The largest file the editor may import, as in the CLI. */
export const MAX_IMPORT_TEXT = MAX_FLOW_FILE_BYTES;

/** A flow as the editor opens it: the draft, each node's revision, and its problems. */
export interface FlowDetail {
  flow: Flow;
  revs: Record<string, number>;
  problems: Problem[];
  /**
   * The problems only the host can tell (the agent library, flows calling
   * flows), also when `withProblems` is false: the editor validates the rest.
   */
  libraryProblems: Problem[];
  enabled: boolean;
  versions: VersionSummary[];
  /** The draft was edited after its latest version was published. */
  hasUnpublishedChanges: boolean;
}

/** What an editor save answers: the nodes' new revisions, and the flow's problems unless only its layout changed. */
export type AppliedChanges = ChangeResult & { problems?: Problem[]; libraryProblems?: Problem[] };

export interface ImportResult {
  format: string;
  flow: FlowSummary;
  problems: Problem[];
  /** Why the nodes were laid out on import (positions missing, overlapping, a branching flow in one row). */
  laidOut?: string;
}

export const API = {
  flows: {
    list: method<FlowSummary[]>()(z.object({})),
    /** `withProblems: false` skips validation; the editor validates big flows itself after the first paint. */
    get: method<FlowDetail>()(z.object({ id, withProblems: z.boolean().default(true) })),
    create: method<FlowDetail>()(z.object({ name: z.string().trim().min(1).max(300) })),
    duplicate: method<FlowSummary>()(z.object({ id })),
    remove: method<{ id: string }>()(z.object({ id })),
    setEnabled: method<{ id: string; enabled: boolean }>()(z.object({ id, enabled: z.boolean() })),
    /** A published version as it was published, to show it over the canvas or restore it into the draft. */
    version: method<Flow>()(z.object({ id, version: z.number().int().min(1) })),
    /** `problems` (and `libraryProblems`, their part only the host can tell) are left out after a move or rename: they cannot change. */
    applyChanges: method<AppliedChanges>()(z.object({ id, changes: ChangeSetSchema })),
    importText: method<ImportResult>()(
      z.object({ text: z.string().max(MAX_IMPORT_TEXT), fileName: z.string().max(500) }),
    ),
    exportText: method<{ text: string; fileName: string; leftOut: string[] }>()(
      z.object({ id, format: z.enum(EXPORT_FORMATS) }),
    ),
    publish: method<VersionSummary>()(z.object({ id, note: z.string().max(2000).default('') })),
    /** Adds the shipped example flows whose tool names are free; `skipped` lists the files left out. */
    installExamples: method<{ added: number; skipped: string[] }>()(z.object({})),
  },
  runs: {
    /**
     * `from`: run from a node, reusing the outputs upstream of it from an earlier run (whose inputs fill the gaps).
     * `to`: run to a node: it and the nodes it needs run, nothing after it.
     * `conversation`: the conversation it goes on (the Chat tab's), for per-conversation memory channels.
     */
    start: method<{ runId: string }>()(
      z.object({
        flowId: id,
        inputs: z.record(z.string(), z.unknown()).default({}),
        from: z.object({ nodeId: z.string().min(1).max(64), runId: id }).optional(),
        to: z.string().min(1).max(64).optional(),
        conversation: ConversationSchema.optional(),
      }),
    ),
    get: method<RunRecord>()(z.object({ id })),
    /** Newest first; `offset` pages on. Each run carries its token and cost totals. */
    list: method<RunSummary[]>()(
      z.object({
        flowId: id.optional(),
        trigger: z.enum(RUN_TRIGGERS).optional(),
        status: z.enum(RUN_STATUSES).optional(),
        limit: z.number().int().min(1).max(500).default(50),
        offset: z.number().int().min(0).max(1_000_000).default(0),
      }),
    ),
    /** The flow as the run ran it (its stored snapshot), to show an old run over the nodes it had. */
    snapshot: method<Flow>()(z.object({ id })),
    remove: method<{ removed: number }>()(z.object({ ids: z.array(id).min(1).max(500) })),
    cancel: method<{ runId: string }>()(z.object({ runId: id })),
    /** The questions ask nodes of editor runs wait on (all, or one flow's runs'). */
    questions: method<Question[]>()(z.object({ flowId: id.optional() })),
    /** The person's answer to an ask node's question; an accepted one must fit the fields. */
    answer: method<{ runId: string }>()(
      z.discriminatedUnion('action', [
        z.object({
          runId: id,
          nodeId: z.string().min(1).max(64),
          action: z.literal('accept'),
          content: z.record(z.string(), z.json()),
        }),
        z.object({ runId: id, nodeId: z.string().min(1).max(64), action: z.enum(['decline', 'cancel']) }),
      ]),
    ),
  },
  tests: {
    /** Runs the flow's test cases as saved (all, or those in `only`); each is a stored run with trigger `test`. */
    run: method<TestRunSummary>()(z.object({ flowId: id, only: z.array(z.string().max(64)).max(500).optional() })),
  },
  providers: {
    list: method<ProviderListing[]>()(z.object({})),
    /**
     * Adds or replaces one; `apiKey` left out keeps the stored key (the editor
     * never gets it back), unless `removeKey`.
     */
    set: method<ProviderListing[]>()(
      z.object({
        provider: ProviderInputSchema.partial({ apiKey: true }),
        isDefault: z.boolean().default(false),
        removeKey: z.boolean().default(false),
      }),
    ),
    remove: method<ProviderListing[]>()(z.object({ name: z.string().min(1).max(64) })),
    setDefault: method<ProviderListing[]>()(z.object({ name: z.string().min(1).max(64) })),
    /** Asks the provider for its model list: proves the URL and the key work. */
    test: method<{ url: string; models: string[] }>()(z.object({ name: z.string().min(1).max(64) })),
    /** Ollama or LM Studio answering on their default ports, with their models. */
    detect: method<{ name: string; url: string; models: string[] }[]>()(z.object({})),
    prices: method<PriceTable>()(z.object({})),
    /** Adds or replaces a model's price (dollars per million tokens); a negative one is refused. */
    setPrice: method<PriceTable>()(z.object({ price: PriceSchema })),
    removePrice: method<PriceTable>()(
      z.object({ model: z.string().min(1).max(200), provider: z.string().max(64).default('') }),
    ),
  },
  servers: {
    /** Every connected MCP server: its settings (secrets masked) and its state, tools and last error. */
    list: method<ServerListing[]>()(z.object({})),
    /** Adds or replaces one (`previousName` renames); masked secrets keep their stored values. */
    set: method<ServerListing[]>()(
      z.object({ server: McpServerConfigSchema, previousName: z.string().min(1).max(64).optional() }),
    ),
    remove: method<ServerListing[]>()(z.object({ name: z.string().min(1).max(64) })),
    /** Connects afresh within the server's time limit and lists its tools. */
    test: method<ServerListing>()(z.object({ name: z.string().min(1).max(64) })),
    /**
     * Adds the servers a desktop client's config lists: pasted `text`, or the
     * config file of `client` on this machine (with `project`, the one it
     * keeps in that project's folder). A name already here is kept unless
     * `replace`; `dryRun` says what would happen and writes nothing.
     */
    import: method<ServerImportResult>()(
      z
        .object({
          text: z.string().max(MAX_FLOW_FILE_BYTES).optional(),
          client: z.enum(WRITABLE_CLIENTS).optional(),
          project: z.string().trim().min(1, 'a project folder is a path').max(4096).optional(),
          replace: z.boolean().default(false),
          dryRun: z.boolean().default(false),
        })
        .refine((input) => (input.text === undefined) !== (input.client === undefined), {
          message: 'give either the text of a config or the client whose config to read',
        })
        .refine((input) => input.project === undefined || input.client !== undefined, {
          message: 'a project folder goes with the client whose config in it to read',
        }),
    ),
  },
  secrets: {
    /** The secrets flows read as `{{secrets.name}}`: names and where each is kept, never a value. */
    list: method<FlowSecretListing[]>()(z.object({})),
    /** Adds one or replaces its value; the value is never sent back. */
    set: method<FlowSecretListing[]>()(
      z.object({
        name: z.string().regex(FLOW_SECRET_NAME, `a secret's name: ${FLOW_SECRET_NAME_RULE}`),
        value: z.string().min(1, 'a secret has a value').max(MAX_FLOW_SECRET_LENGTH),
      }),
    ),
    remove: method<FlowSecretListing[]>()(z.object({ name: z.string().min(1).max(64) })),
    /** The secrets flows read that are not set here, with the flows reading each. */
    wanted: method<WantedSecret[]>()(z.object({})),
  },
  agents: {
    list: method<AgentSummary[]>()(z.object({})),
    create: method<AgentSummary>()(
      z.object({ name: AgentNameSchema, description: z.string().max(4000).default(''), draft: AgentSettingsSchema }),
    ),
    /** `reviewed: true` marks an agent an import created as checked, so flows using it can publish. */
    update: method<AgentSummary>()(
      z.object({
        id,
        name: AgentNameSchema.optional(),
        description: z.string().max(4000).optional(),
        draft: AgentSettingsSchema.optional(),
        reviewed: z.boolean().optional(),
      }),
    ),
    publish: method<AgentVersion>()(z.object({ id })),
    versions: method<AgentVersion[]>()(z.object({ id })),
    remove: method<{ id: string }>()(z.object({ id })),
  },
  memory: {
    /** A flow's memory channels with their latest entries (`limit` per channel). */
    show: method<FlowMemory>()(z.object({ flowId: id, limit: z.number().int().min(1).max(1000).default(20) })),
    /** Empties one channel, or every channel of the flow; only one conversation's entries when given. */
    clear: method<{ removed: number }>()(
      z.object({ flowId: id, channel: ChannelNameSchema.optional(), conversation: ConversationSchema.optional() }),
    ),
  },
  clients: {
    /** Each desktop MCP client: its config file, whether it exists, and the exact snippet Flowbench needs there. */
    list: method<ClientSetup[]>()(z.object({})),
    /** Where clients reach this host's MCP server: the stdio entry, the HTTP URL with its bearer header, and whether it serves now. */
    endpoint: method<Endpoints>()(z.object({})),
    /** The desktop app: serves MCP on this port from now on, and on later launches (0: any free port). */
    setPort: method<Endpoints>()(z.object({ port: z.number().int().min(0).max(65535) })),
    /** Writes the snippet into the client's own config file (merged, backed up; CLIENT_CONFIG_INVALID when unparseable). */
    write: method<WriteResult>()(z.object({ client: z.enum(WRITABLE_CLIENTS) })),
  },
  host: {
    /** `secrets`: where keys entered now are kept (the Providers and Servers screens say it by the field). */
    info: method<{
      version: string;
      database: string;
      kind: 'serve' | 'electron';
      secrets: { store: SecretStore; label: string };
    }>()(z.object({})),
  },
} as const;

export type Api = typeof API;
export type ServiceName = keyof Api;
export type MethodName<S extends ServiceName> = keyof Api[S] & string;

type ArgsOf<M> = M extends Method<infer A, unknown> ? z.input<A> : never;
/** The arguments a handler receives: what the schema's parse returns, defaults filled in. */
type ParsedArgsOf<M> = M extends Method<infer A, unknown> ? z.output<A> : never;
type ResultOf<M> = M extends Method<z.ZodType, infer R> ? R : never;

/** The renderer's view of the API, derived from the contract (never written twice). */
export type ApiClient = {
  [S in ServiceName]: { [M in MethodName<S>]: (args: ArgsOf<Api[S][M]>) => Promise<ResultOf<Api[S][M]>> };
};

/** Who made a call, as a host's transport knows it. */
export interface CallContext {
  /** Which window or tab made the call, so it can ignore echoes of its own changes. */
  clientId?: string;
  /**
   * 'http': a browser page called over HTTP. The desktop app serves its windows (over IPC) and
   * browsers (over HTTP) from one host, which answers the browsers as `serve` would.
   */
  transport?: 'ipc' | 'http';
}

/**
 * The host's side, derived from the contract like the client: one handler
 * per method, taking the parsed arguments and returning the promised result.
 * A host checks its table with `satisfies ApiHandlers`, so a missing handler
 * or a wrong result does not compile.
 */
export type ApiHandlers = {
  [S in ServiceName]: {
    [M in MethodName<S>]: (
      args: ParsedArgsOf<Api[S][M]>,
      context: CallContext,
    ) => ResultOf<Api[S][M]> | Promise<ResultOf<Api[S][M]>>;
  };
};

/** The contract's method, if `service.method` names one (own properties only: `constructor` is no method). */
export function findMethod(service: string, method: string): Method<z.ZodType, unknown> | undefined {
  const methods: Record<string, Method<z.ZodType, unknown>> | undefined = Object.hasOwn(API, service)
    ? API[service as ServiceName]
    : undefined;
  return methods && Object.hasOwn(methods, method) ? methods[method] : undefined;
}

/** Host → renderer notifications. */
export type HostEvent =
  | { type: 'run'; event: RunEvent }
  /** An ask node of an editor run waits on the person, or no longer does. */
  | QuestionEvent
  /** Flows changed (here or in another process); `origin` is the client that made the change. */
  | { type: 'flows.changed'; flowIds: string[]; origin?: string }
  /** Another connection stored runs (an MCP client's, the CLI's), and no flow or agent changed: lists of runs ask again. */
  | { type: 'runs.changed' }
  /** The desktop app's menu, or a flow file opened with the app (never sent by `serve`). */
  | { type: 'app.command'; command: AppCommand };

/** What crosses the wire for a call: error classes do not survive, codes do. */
export type ApiReply<T = unknown> = { ok: true; value: T } | { ok: false; error: SerializedError };

/** Moves calls and events; the Electron preload bridge and HTTP implement it alike. */
export interface ApiTransport {
  invoke(service: string, method: string, args: unknown): Promise<ApiReply>;
  subscribe(listener: (event: HostEvent) => void): () => void;
}
