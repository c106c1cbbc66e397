import { CLIENT_INFO_META_KEY, specTypeSchemas, type Server, type ServerContext } from '@modelcontextprotocol/server';
import { CheckedModernServer } from './checked-modern-server';
import { showsViews, type CallContext } from './call-context';
import { clientCapabilities } from './conversation';
import { SERVER_INSTRUCTIONS } from './legacy-server';
import type { McpHost } from './mcp-host';
import { PausedRuns } from './input-required';
import { ModernTasks, supportsTasks, TASK_AFTER_MS, TASKS_EXTENSION } from './modern-tasks';
import { z } from 'zod';

/** What outlives one request of a 2026-07-28 client: paused runs and tasks (one per HTTP endpoint or stdio connection). */
export class ModernState {
  readonly paused = new PausedRuns();
  readonly tasks = new ModernTasks();

  close(): void {
    this.paused.close();
    this.tasks.close();
  }
}

const TaskParams = z.object({ taskId: z.string().min(1).max(200) });

/**
 * How long a 2026-07-28 client may reuse a list before asking again. Short,
 * because publishing changes the catalogue at any time; clients that listen
 * (subscriptions/listen) hear of a change at once anyway. Private: the tools
 * are this person's flows.
 */
const LIST_TTL_MS = 5_000;

/**
 * A protocol server for 2026-07-28 requests, on the v2 SDK: one instance per
 * HTTP request or per stdio connection (the SDK's serving entries call this
 * factory), with the same tools and resources the 2025-11-25 server offers.
 * `server/discover`, the per-request envelope, `subscriptions/listen` and the
 * cache fields are the SDK's; the host answers everything else.
 */
export function createModernServer(host: McpHost, state: ModernState): Server {
  const server = new CheckedModernServer(
    { name: 'flowbench', title: 'Flowbench', version: host.version },
    {
      capabilities: { tools: { listChanged: true }, resources: {}, extensions: { [TASKS_EXTENSION]: {} } },
      instructions: SERVER_INSTRUCTIONS,
      cacheHints: {
        'server/discover': { ttlMs: LIST_TTL_MS, cacheScope: 'private' },
        'tools/list': { ttlMs: LIST_TTL_MS, cacheScope: 'private' },
        'resources/list': { ttlMs: LIST_TTL_MS, cacheScope: 'private' },
        'resources/templates/list': { ttlMs: LIST_TTL_MS, cacheScope: 'private' },
      },
    },
  );
  const context = (ctx: ServerContext): CallContext => {
    const info = ctx.mcpReq.envelope?.[CLIENT_INFO_META_KEY as never] as { name?: unknown } | undefined;
    return {
      signal: ctx.mcpReq.signal,
      meta: ctx.mcpReq._meta,
      client: typeof info?.name === 'string' ? info.name : server.getClientVersion()?.name,
      notify: (notification) => ctx.mcpReq.notify(notification),
      showsViews: showsViews(clientCapabilities(ctx)),
    };
  };
  // Spec methods are registered with the spec's params schema: the SDK's
  // own check of a spec request answers a malformed one (`"uri": 1`) -32603,
  // an internal error; with a schema given it answers -32602, each issue named.
  server.setRequestHandler('tools/list', { params: specTypeSchemas.PaginatedRequestParams }, (_params, ctx) => ({
    tools: host.listTools(showsViews(clientCapabilities(ctx))),
  }));
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name, arguments: args } = request.params;
    const start = (callContext: CallContext) => host.call(name, args, callContext);
    const length = supportsTasks(ctx) ? host.flowToolLength(name) : undefined;
    if (length)
      return (await state.tasks.call(ctx, name, context(ctx), start, length === 'long' ? 0 : TASK_AFTER_MS)) as never;
    return await state.paused.call(ctx, name, context(ctx), start, host.asksPeople(name));
  });
  server.setRequestHandler('tasks/get', { params: TaskParams }, ({ taskId }) => state.tasks.get(taskId) as never);
  server.setRequestHandler(
    'tasks/update',
    // The SDK lifts inputResponses out of the params into the request context, as for retried calls.
    { params: TaskParams },
    ({ taskId }, ctx) => state.tasks.update(taskId, ctx.mcpReq.inputResponses ?? {}) as never,
  );
  server.setRequestHandler('tasks/cancel', { params: TaskParams }, ({ taskId }) => state.tasks.cancel(taskId) as never);
  server.setRequestHandler('resources/templates/list', { params: specTypeSchemas.PaginatedRequestParams }, () =>
    host.resources.templates(),
  );
  server.setRequestHandler('resources/list', { params: specTypeSchemas.PaginatedRequestParams }, () =>
    host.resources.list(),
  );
  server.setRequestHandler('resources/read', { params: specTypeSchemas.ReadResourceRequestParams }, ({ uri }) =>
    host.resources.read(uri),
  );
  return server;
}
