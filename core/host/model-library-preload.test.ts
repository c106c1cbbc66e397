import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { llmFlow, smallFlow } from '../../tests/helpers/flows';
import { useTempDir } from '../../tests/helpers/temp';
import { endpointsFor } from './client-config';

// Whether the model library was asked for is once a process: this file reads its own copy of the
// modules, whatever the files run before it in this test worker did with theirs.
vi.resetModules();
const { modelLibraryRequested } = await import('../providers/model-library');
const { ApiHost } = await import('./api-host');
const { openServices } = await import('../services/open-services');

const tempDir = useTempDir();

describe("the editor's host loads the model library when a flow that calls models is opened", () => {
  it('not for the flow list nor for a flow without models; at once for one with an LLM node', async () => {
    const services = openServices(join(tempDir(), 'preload.db'), { seedExamples: false });
    try {
      services.flows.create(smallFlow());
      services.flows.create(
        llmFlow(
          { id: 'ask', name: 'Ask', parameter: { name: 'q', type: 'string' } },
          { id: 'answer', prompt: '{{inputs.q}}' },
        ),
      );
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
});
