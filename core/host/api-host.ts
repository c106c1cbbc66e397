import {
  clientConfigPath,
  clientSetups,
  projectFolder,
  readClientConfig,
  writeClientConfig,
  type Endpoints,
} from './client-config';
import { findMethod, type ApiHandlers, type ApiReply, type CallContext, type HostEvent } from '../api/contract';
import { droppedFields } from '../model/dropped-fields';
import { FlowbenchError, toFlowbenchError } from '../model/errors';
import { installExamples } from '../services/examples';
import { QuestionDesk } from '../services/question-desk';
import { importFlowText } from '../services/import-service';
import type { Services } from '../services/open-services';
import { FLOWBENCH_VERSION } from '../services/version';

export type { CallContext } from '../api/contract';

/** A handler as the dispatcher calls it: arguments already checked against the method's schema. */
type ErasedHandler = (args: unknown, context: CallContext) => unknown;

/**
 * The host side of the API: every call's arguments are checked against the
 * contract, every failure becomes `{ ok: false, error: { code, message } }`.
 * Events (runs, flow changes) go to every subscriber. The handlers only
 * translate: what they do lives in the services.
 */
export class ApiHost {
  private readonly listeners = new Set<(event: HostEvent) => void>();
  private readonly handlers: ApiHandlers;
  /** The questions of ask nodes in runs started here, for the Run panel. */
  private readonly questions = new QuestionDesk((event) => this.emit(event));

  constructor(
    private readonly services: Services,
    private readonly kind: 'serve' | 'electron',
    /** Where MCP clients reach this host (the stdio command, the HTTP URL and token), for the Connect screen. */
    private readonly endpoints: () => Endpoints,
    /** Moves the MCP endpoint to another port; only the app can (serve's port is its --port). */
    private readonly movePort?: (port: number) => Promise<void>,
  ) {
    this.handlers = this.buildHandlers();
  }

  subscribe(listener: (event: HostEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: HostEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  async invoke(service: string, method: string, args: unknown, context: CallContext = {}): Promise<ApiReply> {
    const spec = findMethod(service, method);
    if (!spec) return { ok: false, error: { code: 'USAGE_ERROR', message: `unknown API method ${service}.${method}` } };
    const parsed = spec.args.safeParse(args);
    if (!parsed.success) {
      const detail = parsed.error.issues
        .map((i) => `${i.path.map(String).join('.') || 'arguments'}: ${i.message}`)
        .join('; ');
      return {
        ok: false,
        error: { code: 'VALIDATION_ERROR', message: `bad arguments for ${service}.${method}: ${detail}` },
      };
    }
    // A field no schema of the method knows, at any depth (a provider's `baseURL`, a parameter's
    // `descripton`), is refused, not dropped: the call would answer ok and store less than was sent.
    const unknown = droppedFields(args, parsed.data);
    if (unknown.length > 0) {
      const detail = unknown.map((path) => `unknown field "${path}"`).join('; ');
      return {
        ok: false,
        error: { code: 'VALIDATION_ERROR', message: `bad arguments for ${service}.${method}: ${detail}` },
      };
    }
    // findMethod found the method in the contract, and the handler table has every contract method.
    const handler = (this.handlers as unknown as Record<string, Record<string, ErasedHandler>>)[service]?.[method];
    try {
      return { ok: true, value: await handler?.(parsed.data, context) };
    } catch (error) {
      return { ok: false, error: toFlowbenchError(error).toJSON() };
    }
  }

  private changed(flowIds: string[], context: CallContext): void {
    this.emit({ type: 'flows.changed', flowIds, ...(context.clientId ? { origin: context.clientId } : {}) });
  }

  private buildHandlers() {
    const { flows, flowService, versions, runs, runner, providers } = this.services;
    return {
      flows: {
        list: () => flowService.list(),
        get: ({ id, withProblems }) => {
          const detail = flowService.detail(id, withProblems);
          // A flow that may call models, once opened, is likely to be run: the model library loads
          // meanwhile, not on its first call. A host whose editor only lists, or opens flows without models,
          // never loads it (1.2 MB of JavaScript). One that fails leaves it to the first call, which says why.
          providers.preloadFor(detail.flow).catch(() => undefined);
          return detail;
        },
        create: ({ name }, context) => {
          const created = flowService.create(name);
          this.changed([created.id], context);
          return flowService.detail(created.id);
        },
        duplicate: ({ id }, context) => {
          const copy = flowService.duplicate(id);
          this.changed([copy.id], context);
          return flowService.summary(copy.id);
        },
        remove: ({ id }, context) => {
          flows.delete(id);
          this.changed([id], context);
          return { id };
        },
        setEnabled: ({ id, enabled }, context) => {
          flows.setEnabled(id, enabled);
          this.changed([id], context);
          return { id, enabled };
        },
        version: ({ id, version }) => flowService.version(id, version),
        applyChanges: ({ id, changes }, context) => {
          const result = flowService.applyChanges(id, changes);
          this.changed([id], context);
          return result;
        },
        importText: async ({ text, fileName }, context) => {
          const report = await importFlowText(this.services, text, fileName);
          this.changed([report.flow.id], context);
          return {
            format: report.format,
            flow: flowService.summary(report.flow.id),
            problems: report.problems,
            ...(report.laidOut ? { laidOut: report.laidOut } : {}),
          };
        },
        exportText: ({ id, format }) => flowService.exportFile(id, format),
        installExamples: (_, context) => {
          const { added, skipped } = installExamples(flows);
          this.changed(
            added.map((f) => f.id),
            context,
          );
          return { added: added.length, skipped };
        },
        publish: async ({ id, note }, context) => {
          await this.services.tests.gatePublish(flows.get(id));
          const published = versions.publish(id, note);
          this.changed([id], context);
          return published;
        },
      },
      runs: {
        start: ({ flowId, inputs, from, to, conversation }) =>
          runner.start({
            flow: flows.get(flowId),
            inputs,
            ...(from ? { from } : {}),
            ...(to ? { to } : {}),
            ...(conversation !== undefined ? { conversation } : {}),
            // A person trying the flow: pinned outputs stand in for their nodes, as in n8n's manual runs.
            usePins: true,
            trigger: 'editor',
            // The editor shows the tokens as they come.
            streamTokens: true,
            human: this.questions.portFor(flowId),
            listeners: [(event) => this.emit({ type: 'run', event })],
          }),
        get: ({ id }) => runs.get(id),
        list: ({ flowId, trigger, status, limit, offset }) =>
          runs.list({
            ...(flowId ? { flowId } : {}),
            ...(trigger ? { trigger } : {}),
            ...(status ? { status } : {}),
            limit,
            offset,
          }),
        snapshot: ({ id }) => runs.snapshot(id),
        remove: ({ ids }) => ({ removed: runs.delete(ids) }),
        cancel: ({ runId }) => {
          runner.cancel(runId, 'cancelled from the editor');
          return { runId };
        },
        questions: ({ flowId }) => this.questions.list(flowId),
        answer: (args) => {
          this.questions.answer(
            args.runId,
            args.nodeId,
            args.action === 'accept' ? { action: 'accept', content: args.content } : { action: args.action },
          );
          return { runId: args.runId };
        },
      },
      tests: {
        run: ({ flowId, only }) => this.services.tests.runAll(flows.get(flowId), only ? { only } : {}),
      },
      providers: {
        list: () => providers.list(),
        set: ({ provider, isDefault, removeKey }) => {
          // A key is entered once: an edit that leaves it out keeps the stored one.
          providers.set(provider, isDefault, { keepKey: !removeKey });
          return providers.list();
        },
        remove: ({ name }) => {
          providers.remove(name);
          return providers.list();
        },
        setDefault: ({ name }) => {
          providers.setDefault(name);
          return providers.list();
        },
        test: ({ name }) => providers.test(name),
        detect: () => providers.detect(),
        prices: () => providers.prices(),
        setPrice: ({ price }) => providers.setPrice(price),
        removePrice: ({ model, provider }) => providers.removePrice(model, provider),
      },
      clients: {
        list: () => clientSetups(this.endpoints()),
        endpoint: () => this.endpoints(),
        setPort: async ({ port }, context) => {
          if (!this.movePort) {
            throw new FlowbenchError(
              'USAGE_ERROR',
              "this server's port is chosen when it starts: `flowbench serve --port <n>`",
            );
          }
          // The page would lose the server it was loaded from.
          if (context.transport === 'http') {
            throw new FlowbenchError(
              'USAGE_ERROR',
              "the app's MCP port is chosen on the Connect screen of the app's own window, not from a browser page it serves",
            );
          }
          await this.movePort(port);
          return this.endpoints();
        },
        write: ({ client }) => writeClientConfig(client, clientConfigPath(client), this.endpoints()),
      },
      memory: {
        show: ({ flowId, limit }) => this.services.memory.show(flowId, { limit }),
        clear: ({ flowId, channel, conversation }) => this.services.memory.clear(flowId, channel, conversation),
      },
      secrets: {
        list: () => this.services.flowSecrets.list(),
        set: ({ name, value }) => {
          this.services.flowSecrets.set(name, value);
          return this.services.flowSecrets.list();
        },
        remove: ({ name }) => {
          this.services.flowSecrets.remove(name);
          return this.services.flowSecrets.list();
        },
        wanted: () => this.services.flowSecrets.wanted(),
      },
      servers: {
        list: () => this.services.servers.list(),
        set: ({ server, previousName }) => {
          this.services.servers.set(server, previousName);
          return this.services.servers.list();
        },
        remove: ({ name }) => {
          this.services.servers.remove(name);
          return this.services.servers.list();
        },
        test: ({ name }) => this.services.servers.test(name),
        import: ({ text, client, project, replace, dryRun }) => {
          const file = client
            ? readClientConfig(client, project === undefined ? {} : { project: projectFolder(project) })
            : { text: text ?? '', source: 'the pasted config' };
          return this.services.servers.importConfig(file.text, file.source, { replace, dryRun });
        },
      },
      agents: {
        list: () => this.services.agents.list(),
        create: (input) => this.services.agents.create(input),
        update: ({ id, ...change }) => this.services.agents.update(id, change),
        publish: ({ id }) => this.services.agents.publish(id),
        versions: ({ id }) => this.services.agents.versions(id),
        remove: ({ id }) => {
          this.services.agents.remove(id);
          return { id };
        },
      },
      host: {
        info: (_args, context) => ({
          version: FLOWBENCH_VERSION,
          database: this.services.database.path,
          // A browser page the app serves is served as by `serve`: no port to move from it (see setPort).
          kind: context.transport === 'http' ? 'serve' : this.kind,
          secrets: { store: this.services.secrets.store, label: this.services.secrets.label },
        }),
      },
    } satisfies ApiHandlers;
  }
}
