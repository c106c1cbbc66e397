import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { llmFlow, smallFlow } from '../../tests/helpers/flows';
import { useTempDir } from '../../tests/helpers/temp';
import { endpointsFor } from './client-config';

const tempDir = useTempDir();

/**
 * Whether the model library was asked for is once a process: each test reads its own copy of the
 * modules, whatever the tests run before it in this test worker did with theirs.
 */
async function freshModules() {
  vi.resetModules();
  const { modelLibraryRequested } = await import('../providers/model-library');
  const { ApiHost } = await import('./api-host');
  const { McpHost } = await import('../mcp/mcp-host');
  const { openServices } = await import('../services/open-services');
  const services = openServices(join(tempDir(), 'preload.db'), { seedExamples: false });
  services.flows.create(smallFlow());
  const askFlow = llmFlow(
    { id: 'ask', name: 'Ask', parameter: { name: 'q', type: 'string' } },
    { id: 'answer', prompt: '{{inputs.q}}' },
  );
  services.flows.create({ ...askFlow, tool: { ...askFlow.tool, name: 'ask' } });
  return { modelLibraryRequested, ApiHost, McpHost, services };
}

describe('the model library is loaded ahead of a first model call, and only where one may come', () => {
  it("by the editor's host: not for the flow list nor a flow without models; at once for one with an LLM node", async () => {
    const { modelLibraryRequested, ApiHost, services } = await freshModules();
    try {
      const host = new ApiHost(services, 'serve', () => endpointsFor('/tmp/preload.db', 4747, 'token'));
      const call = async (service: string, method: string, args: unknown) => {
        const reply = await host.invoke(service, method, args);
        if (!reply.ok) throw new Error(reply.error.message);
        return reply.value;
      };
      await call('flows', 'list', {});
      await call('flows', 'get', { id: 'small', withProblems: true });
      expect(modelLibraryRequested()).toBe(false);
      await call('flows', 'get', { id: 'ask', withProblems: true });
      expect(modelLibraryRequested()).toBe(true);
    } finally {
      services.close();
    }
  });

  it('by an MCP server as it starts, when one of its tools calls a model', async () => {
    const { modelLibraryRequested, McpHost, services } = await freshModules();
    try {
      services.versions.publish('small');
      const templatesOnly = new McpHost(services, 'test');
      expect(templatesOnly.listTools(false).map((tool) => tool.name)).toContain('small_flow');
      // Nor after a client's tools/list, when the warm-up for a first model call would start.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(modelLibraryRequested()).toBe(false);
      await templatesOnly.close();
      services.versions.publish('ask');
      const withModels = new McpHost(services, 'test');
      expect(modelLibraryRequested()).toBe(true);
      await withModels.close();
    } finally {
      services.close();
    }
  });
});
