import { setImmediate as nextTurn } from 'node:timers/promises';
import { InMemoryTaskMessageQueue } from '@modelcontextprotocol/sdk/experimental/tasks';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CheckedServer } from './checked-server';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ElicitResultSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { elicitsForms, showsViews, type CallContext } from './call-context';
import { elicitationFailure } from './elicitation-failure';
import type { McpHost } from './mcp-host';
import { elicitationParams, type HumanInputPort } from '../model/human-input';

type RequestExtra = Parameters<Parameters<Server['setRequestHandler']>[1]>[1];

export const SERVER_INSTRUCTIONS =
  'Each tool runs a Flowbench flow on this machine. flows_list and flows_execute run any published flow by name.';

export interface LegacyServerOptions {
  /**
   * Over HTTP, a tools/call is answered on an SSE stream whose headers go out
   * when the request has been taken. The run starts one turn of the event
   * loop later, after them: the client reads the headers while the flow runs,
   * not after it. Started at once, the run held the headers up until its
   * first await, and the client read them only then; on two cores the call's
   * p50 was 45 µs (8 %) longer.
   */
  runAfterHeaders?: boolean;
}

/**
 * A protocol server for one 2025-11-25 connection (stdio, or one HTTP
 * session), on the v1 SDK: sessions, the standalone GET stream for
 * list_changed and 2025-11-25 tasks are what these clients expect, and the
 * v2 SDK leaves the last to an extension with no tools/call receiver.
 */
export function createLegacyServer(host: McpHost, options: LegacyServerOptions = {}): Server {
  const server = new CheckedServer(
    { name: 'flowbench', title: 'Flowbench', version: host.version },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: {},
        tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      },
      taskStore: host.tasks,
      // Where an ask node's question in a task waits until the client's tasks/result takes it.
      taskMessageQueue: new InMemoryTaskMessageQueue(),
      instructions: SERVER_INSTRUCTIONS,
    },
  );
  const context = (extra: RequestExtra): CallContext => ({
    signal: extra.signal,
    meta: extra._meta,
    client: server.getClientVersion()?.name,
    notify: (notification) => extra.sendNotification(notification),
    showsViews: showsViews(server.getClientCapabilities()),
    ...(canElicit(server)
      ? { human: elicitation(extra), humanInTask: (taskId: string) => elicitation(extra, taskId) }
      : {}),
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: host.listTools(showsViews(server.getClientCapabilities())),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args, task } = request.params;
    if (task && extra.taskStore) return host.callAsTask(name, args, extra.taskStore, task.ttl, context(extra));
    // Resolves in the event loop's next check phase, after this turn's writes.
    if (options.runAfterHeaders) await nextTurn();
    return host.call(name, args, context(extra));
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => host.resources.templates());
  server.setRequestHandler(ListResourcesRequestSchema, () => host.resources.list());
  server.setRequestHandler(ReadResourceRequestSchema, (request) => host.resources.read(request.params.uri));
  const detach = host.attach({
    // A connection that has not finished initializing cannot take notifications yet.
    toolsChanged: () => {
      if (server.getClientCapabilities()) server.sendToolListChanged().catch(() => undefined);
    },
    close: () => server.close(),
  });
  const previous = server.onclose;
  server.onclose = () => {
    detach();
    previous?.();
  };
  return server;
}

/** The client declared form-mode elicitation when it initialized (an empty object means form). */
function canElicit(server: Server): boolean {
  return elicitsForms(server.getClientCapabilities()?.elicitation);
}

/** How long the SDK lets a question wait; the ask node's own time limit ends it sooner. */
const QUESTION_WAIT_MS = 24 * 60 * 60_000;

/**
 * Asks through `elicitation/create`, sent as part of the tools/call request
 * (its HTTP stream); within a task, queued for the task's `tasks/result`
 * instead (the SDK marks the task input_required meanwhile).
 */
function elicitation(extra: RequestExtra, taskId?: string): HumanInputPort {
  return {
    ask: async (request, signal) => {
      const result = await extra
        .sendRequest({ method: 'elicitation/create', params: elicitationParams(request) }, ElicitResultSchema, {
          signal: signal as AbortSignal,
          timeout: QUESTION_WAIT_MS,
          ...(taskId === undefined ? {} : { relatedTask: { taskId } }),
        })
        .catch((thrown: unknown) => {
          throw elicitationFailure(request.nodeId, thrown, signal);
        });
      return result.action === 'accept'
        ? { action: 'accept', content: result.content ?? {} }
        : { action: result.action };
    },
  };
}
