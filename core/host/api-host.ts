import { randomUUID } from 'node:crypto';
import { API, type ApiReply, type FlowDetail, type HostEvent } from '../api/contract';
import { exportFlowText } from '../formats/export';
import { isLayoutOnly, type ChangeSet } from '../model/change-set';
import { FlowbenchError, toFlowbenchError } from '../model/errors';
import { validateFlow } from '../model/validate';
import { importFlowText } from './import-service';
import type { Services } from './services';
import { FLOWBENCH_VERSION } from './version';

type Handler = (args: never, context: CallContext) => unknown;

export interface CallContext {
  /** Which window or tab made the call, so it can ignore echoes of its own changes. */
  clientId?: string;
}

/**
 * The host side of the API: every call's arguments are checked against the
 * contract, every failure becomes `{ ok: false, error: { code, message } }`.
 * Events (runs, flow changes) go to every subscriber.
 */
export class ApiHost {
  private readonly listeners = new Set<(event: HostEvent) => void>();
  private readonly activeRuns = new Map<string, AbortController>();
  private readonly handlers: Record<string, Record<string, Handler>>;

  constructor(
    private readonly services: Services,
    private readonly kind: 'serve' | 'electron',
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
    const spec = (
      API as Record<
        string,
        Record<
          string,
          {
            args: {
              safeParse(v: unknown): {
                success: boolean;
                data?: unknown;
                error?: { issues: { path: PropertyKey[]; message: string }[] };
              };
            };
          }
        >
      >
    )[service]?.[method];
    const handler = this.handlers[service]?.[method];
    if (!spec || !handler)
      return { ok: false, error: { code: 'USAGE_ERROR', message: `unknown API method ${service}.${method}` } };
    const parsed = spec.args.safeParse(args);
    if (!parsed.success) {
      const detail = (parsed.error?.issues ?? [])
        .map((i) => `${i.path.map(String).join('.') || 'arguments'}: ${i.message}`)
        .join('; ');
      return {
        ok: false,
        error: { code: 'VALIDATION_ERROR', message: `bad arguments for ${service}.${method}: ${detail}` },
      };
    }
    try {
      return { ok: true, value: await handler(parsed.data as never, context) };
    } catch (error) {
      return { ok: false, error: toFlowbenchError(error).toJSON() };
    }
  }

  private detail(id: string, withProblems = true): FlowDetail {
    const { flows, versions } = this.services;
    const { flow, revs } = flows.load(id);
    const { problems } = withProblems
      ? validateFlow(flow, { isToolNameTaken: (name, flowId) => flows.isToolNameTaken(name, flowId) })
      : { problems: [] };
    return { flow, revs, problems, enabled: flow.tool.enabled, versions: versions.list(id) };
  }

  private changed(flowIds: string[], context: CallContext): void {
    this.emit({ type: 'flows.changed', flowIds, ...(context.clientId ? { origin: context.clientId } : {}) });
  }

  private buildHandlers() {
    const { flows, versions, runs, providers } = this.services;
    return {
      flows: {
        list: () => flows.list(),
        get: ({ id, withProblems }: { id: string; withProblems: boolean }) => this.detail(id, withProblems),
        create: ({ name }: { name: string }, context: CallContext) => {
          const base =
            name
              .toLowerCase()
              .replace(/[^a-z0-9]+/g, '_')
              .replace(/^_+|_+$/g, '') || 'flow';
          const created = flows.create({
            schemaVersion: 1,
            id: randomUUID(),
            name,
            tool: { name: flows.freeToolName(base.slice(0, 100)) },
            parameters: [],
            nodes: [],
            edges: [],
          });
          this.changed([created.id], context);
          return this.detail(created.id);
        },
        duplicate: ({ id }: { id: string }, context: CallContext) => {
          const original = flows.get(id);
          const copy = flows.create({
            ...original,
            id: randomUUID(),
            name: `${original.name} (copy)`,
            tool: { ...original.tool, name: flows.freeToolName(original.tool.name) },
          });
          this.changed([copy.id], context);
          return flows.list().find((f) => f.id === copy.id);
        },
        remove: ({ id }: { id: string }, context: CallContext) => {
          flows.delete(id);
          this.changed([id], context);
          return { id };
        },
        setEnabled: ({ id, enabled }: { id: string; enabled: boolean }, context: CallContext) => {
          flows.setEnabled(id, enabled);
          this.changed([id], context);
          return { id, enabled };
        },
        applyChanges: ({ id, changes }: { id: string; changes: ChangeSet }, context: CallContext) => {
          const result = flows.applyChanges(id, changes);
          this.changed([id], context);
          // Moves and renames happen on every drag: they cannot change problems, so skip the full validation.
          if (isLayoutOnly(changes)) return result;
          const { problems } = validateFlow(flows.get(id), {
            isToolNameTaken: (name, flowId) => flows.isToolNameTaken(name, flowId),
          });
          return { ...result, problems };
        },
        importText: ({ text, fileName }: { text: string; fileName: string }, context: CallContext) => {
          const report = importFlowText(this.services, text, fileName);
          this.changed([report.flow.id], context);
          return {
            format: report.format,
            flow: flows.list().find((f) => f.id === report.flow.id),
            problems: report.problems,
          };
        },
        exportText: ({
          id,
          format,
        }: {
          id: string;
          format: 'native' | 'flowyprompt' | 'flow-definition-json' | 'flow-definition-yaml';
        }) => {
          const flow = flows.get(id);
          const text = exportFlowText(flow, format, versions.list(id)[0]?.version);
          const extension = format === 'flow-definition-yaml' ? 'yaml' : 'json';
          return { text, fileName: `${flow.tool.name}.${format === 'native' ? 'flowbench.' : ''}${extension}` };
        },
        publish: ({ id, note }: { id: string; note: string }, context: CallContext) => {
          const published = versions.publish(id, note);
          this.changed([id], context);
          return published;
        },
      },
      runs: {
        start: ({ flowId, inputs }: { flowId: string; inputs: Record<string, unknown> }) =>
          this.startRun(flowId, inputs),
        get: ({ id }: { id: string }) => runs.get(id),
        list: ({ flowId, limit }: { flowId?: string; limit: number }) =>
          runs.list({ ...(flowId ? { flowId } : {}), limit }),
        cancel: ({ runId }: { runId: string }) => {
          const controller = this.activeRuns.get(runId);
          if (!controller) throw new FlowbenchError('RUN_NOT_FOUND', `run ${runId} is not running`);
          controller.abort(new FlowbenchError('CANCELLED', 'cancelled from the editor'));
          return { runId };
        },
      },
      providers: { list: () => providers.list() },
      host: { info: () => ({ version: FLOWBENCH_VERSION, database: this.services.database.path, kind: this.kind }) },
    };
  }

  /** Starts a run of the draft in the background; its events reach every subscriber. */
  private startRun(flowId: string, inputs: Record<string, unknown>): Promise<{ runId: string }> {
    const flow = this.services.flows.get(flowId);
    const controller = new AbortController();
    return new Promise((resolve, reject) => {
      let runId: string | undefined;
      this.services.runner
        .run({
          flow,
          inputs,
          trigger: 'editor',
          signal: controller.signal,
          listeners: [
            (event) => {
              if (event.type === 'run.started') {
                runId = event.runId;
                this.activeRuns.set(runId, controller);
                resolve({ runId });
              }
              this.emit({ type: 'run', event });
            },
          ],
        })
        .then(
          () => undefined,
          (error: unknown) => reject(error instanceof Error ? error : new Error(String(error))),
        )
        .finally(() => {
          if (runId) this.activeRuns.delete(runId);
        });
    });
  }
}
