import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { smallFlow } from '../../tests/helpers/flows';
import { useTempDir } from '../../tests/helpers/temp';
import { endpointsFor } from '../host/client-config';
import { ApiHost } from '../host/api-host';
import { openServices, type Services } from '../services/open-services';
import { createApiClient } from './client';
import type { ApiTransport } from './contract';

const tempDir = useTempDir();
let services: Services | undefined;
afterEach(() => services?.close());

/** The client over the real host, as the Electron bridge and `serve` wire it. */
function client() {
  services = openServices(join(tempDir(), 'api.db'), { seedExamples: false });
  services.flows.create(smallFlow());
  const host = new ApiHost(services, 'serve', () => endpointsFor('/tmp/api.db', 4747, 'token'));
  const transport: ApiTransport = {
    invoke: (service, method, args) => host.invoke(service, method, args),
    subscribe: (listener) => host.subscribe(listener),
  };
  return createApiClient(transport);
}

describe('createApiClient', () => {
  it('calls the host by service and method and returns its value', async () => {
    const api = client();
    const detail = await api.flows.get({ id: 'small', withProblems: false });
    expect(detail.flow.nodes.map((n) => n.id)).toEqual(['input', 'greet', 'result']);
    expect(detail.revs).toEqual({ input: 1, greet: 1, result: 1 });
    expect((await api.flows.list({})).map((f) => f.id)).toEqual(['small']);
  });

  it('gives the problems only the host can tell, also when the editor validates the rest', async () => {
    const api = client();
    const missing = { code: 'MISSING_FLOW', nodeId: 'sub' };
    const saved = await api.flows.applyChanges({
      id: 'small',
      changes: { addNodes: [{ id: 'sub', type: 'flow', position: { x: 0, y: 200 }, config: { flow: 'nowhere' } }] },
    });
    expect(saved.libraryProblems).toEqual([expect.objectContaining(missing)]);
    expect(saved.problems).toContainEqual(expect.objectContaining(missing));
    const detail = await api.flows.get({ id: 'small', withProblems: false });
    expect(detail.problems).toEqual([]);
    expect(detail.libraryProblems).toEqual([expect.objectContaining(missing)]);
  });

  it('gives a published version as it was published, and says which is not there', async () => {
    const api = client();
    services?.versions.publish('small');
    await api.flows.applyChanges({ id: 'small', changes: { updateNodes: [{ id: 'greet', label: 'Changed' }] } });
    const version = await api.flows.version({ id: 'small', version: 1 });
    expect(version.nodes.find((n) => n.id === 'greet')?.label).toBe('');
    expect(version.notes).toEqual([]);
    await expect(api.flows.version({ id: 'small', version: 2 })).rejects.toMatchObject({ code: 'FLOW_NOT_FOUND' });
    await expect(api.flows.version({ id: 'nope', version: 1 })).rejects.toMatchObject({ code: 'FLOW_NOT_FOUND' });
    await expect(api.flows.version({ id: 'small', version: 0 })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it("rethrows the host's errors with their codes", async () => {
    const api = client();
    await expect(api.flows.get({ id: 'nope', withProblems: false })).rejects.toMatchObject({
      name: 'FlowbenchError',
      code: 'FLOW_NOT_FOUND',
    });
    await expect(api.flows.get({ id: '' })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    const unknown = (api as unknown as Record<string, Record<string, () => Promise<unknown>>>).flows?.explode;
    await expect(unknown?.()).rejects.toMatchObject({ code: expect.any(String) });
  });

  it('is never mistaken for a promise', async () => {
    const api = client();
    // What `await` does with a value: looks for a callable `then`.
    expect((api.flows as unknown as { then?: unknown }).then).toBeUndefined();
    expect(await Promise.resolve(api.flows)).toBe(api.flows);
    expect(api.flows.get).toBe(api.flows.get);
  });
});
