import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { RunRecord } from '../model/run';
import type { Services } from '../services/open-services';

/** Run records as MCP resources: what a result's resource link points to. */
const RUN_URI = /^flowbench:\/\/runs\/([A-Za-z0-9-]{1,64})$/;
/** The specification's code for a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002;
const LISTED_RUNS = 20;

/** Serves `flowbench://runs/<id>`: the run records MCP clients started, as JSON. */
export function serveRunResources(server: Server, services: Services): void {
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
      {
        uriTemplate: 'flowbench://runs/{runId}',
        name: 'run',
        title: 'A Flowbench run',
        description: 'A run an MCP client started: every step with its input, output and timing',
        mimeType: 'application/json',
      },
    ],
  }));
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: services.runs.list({ trigger: 'mcp', limit: LISTED_RUNS }).map((run) => ({
      uri: `flowbench://runs/${run.id}`,
      name: `run ${run.id}`,
      title: `${run.flowName}: ${run.status}, ${run.startedAt}`,
      mimeType: 'application/json',
    })),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    const { uri } = request.params;
    const id = RUN_URI.exec(uri)?.[1];
    const record = id ? readMcpRun(services, id) : undefined;
    if (!record)
      throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri} (a run an MCP client started)`, { uri });
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(record) }] };
  });
}

/** A run an MCP client started, by its full id; undefined for any other. */
export function readMcpRun(services: Services, id: string): RunRecord | undefined {
  try {
    const record = services.runs.get(id);
    return record.id === id && record.trigger === 'mcp' ? record : undefined;
  } catch {
    return undefined;
  }
}
