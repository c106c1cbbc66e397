import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { FlowbenchError } from '../model/errors';
import type { ResultView } from '../model/node-catalogue';
import type { RunRecord } from '../model/run';
import { VIEW_MIME_TYPE, viewHtml } from './view-html';
import type { Services } from '../services/open-services';

/** Run records as MCP resources: what a result's resource link points to. */
const RUN_URI = /^flowbench:\/\/runs\/([A-Za-z0-9-]{1,64})$/;
/** The specification's code for a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002;
const LISTED_RUNS = 20;

/** A published flow's view, by its `ui://` URI. */
export interface ViewResource {
  uri: string;
  /** The tool it is the view of; undefined for the built-in run view every other flow tool shares. */
  toolName?: string;
  view: ResultView;
}

/**
 * The server's resources, for either protocol revision:
 * `flowbench://runs/<id>`, the run records MCP clients started, as JSON; and
 * `ui://flowbench/views/<tool>`, the views (MCP Apps) of published flows, as HTML.
 */
export class FlowResources {
  constructor(
    private readonly services: Services,
    private readonly views: () => ViewResource[],
  ) {}

  templates() {
    return {
      resourceTemplates: [
        {
          uriTemplate: 'flowbench://runs/{runId}',
          name: 'run',
          title: 'A Flowbench run',
          description: 'A run an MCP client started: every step with its input, output and timing',
          mimeType: 'application/json',
        },
      ],
    };
  }

  list() {
    return {
      resources: [
        ...this.views().map((v) => ({
          uri: v.uri,
          name: v.toolName ? `${v.toolName} view` : 'run view',
          title: v.view.title,
          mimeType: VIEW_MIME_TYPE,
        })),
        ...runResources(this.services),
      ],
    };
  }

  read(uri: string) {
    const view = this.views().find((v) => v.uri === uri);
    if (view) {
      const html = viewHtml(view.view, view.toolName ? 'result' : 'run');
      return { contents: [{ uri, mimeType: VIEW_MIME_TYPE, text: html }] };
    }
    const id = RUN_URI.exec(uri)?.[1];
    const record = id ? readMcpRun(this.services, id) : undefined;
    if (!record) {
      throw new McpError(
        RESOURCE_NOT_FOUND,
        `Resource not found: ${uri} (a run an MCP client started, or a published flow's view)`,
        { uri },
      );
    }
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(record) }] };
  }
}

function runResources(services: Services) {
  return services.runs.list({ trigger: 'mcp', limit: LISTED_RUNS }).map((run) => ({
    uri: `flowbench://runs/${run.id}`,
    name: `run ${run.id}`,
    title: `${run.flowName}: ${run.status}, ${run.startedAt}`,
    mimeType: 'application/json',
  }));
}

/**
 * A run an MCP client started, by its full id; undefined for any other.
 * Throws DATABASE_BUSY while its records are still being written: that run
 * is not unknown, and saying so would be wrong.
 */
export function readMcpRun(services: Services, id: string): RunRecord | undefined {
  try {
    const record = services.runs.get(id);
    return record.id === id && record.trigger === 'mcp' ? record : undefined;
  } catch (error) {
    if (error instanceof FlowbenchError && error.code === 'DATABASE_BUSY') throw error;
    return undefined;
  }
}
