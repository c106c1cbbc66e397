import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../../tests/helpers/temp';
import { importFlowText } from './import-service';
import { openServices } from './open-services';

const tempDir = useTempDir();
const FIXTURES = join(import.meta.dirname, '..', '..', 'tests', 'fixtures', 'formats');

/** A setting no node can hold: more characters than any text setting takes. */
const TOO_LONG = 'x'.repeat(1_000_001);

describe("another tool's settings that a Flowbench node cannot hold", () => {
  it('are left at their defaults, each an error where it is, and the rest of the file is imported', async () => {
    const services = openServices(join(tempDir(), 'flows.db'));
    try {
      const n8n = JSON.stringify({
        name: 'Big code',
        nodes: [
          { name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
          {
            name: 'Data',
            type: 'n8n-nodes-base.code',
            typeVersion: 2,
            position: [220, 0],
            parameters: { jsCode: `return [${TOO_LONG}];` },
          },
        ],
        connections: { Start: { main: [[{ node: 'Data', type: 'main', index: 0 }]] } },
      });
      const report = await importFlowText(services, n8n, 'big.json');
      const stored = services.flows.get(report.flow.id);
      const data = stored.nodes.find((node) => node.label === 'Data');
      expect(data?.config).toMatchObject({ code: 'return values;' });
      expect(stored.edges.map((edge) => `${edge.source}>${edge.target}`)).toContain('Start>Data');
      expect(report.problems).toContainEqual(
        expect.objectContaining({
          code: 'IMPORT_PROBLEM',
          severity: 'error',
          nodeId: 'Data',
          message: expect.stringMatching(
            /config\.code: its setting code does not fit a Flowbench code node \(config\.code: Too big: expected string to have <=1000000 characters\), so it is left at its default here/,
          ),
        }),
      );

      // A seed's file too: the setting is said where the file has it.
      const workshop = JSON.parse(readFileSync(join(FIXTURES, 'flow-definition-minimal.json'), 'utf8')) as {
        flowId: string;
        steps: { prompt: string }[];
      };
      workshop.flowId = 'too-long-prompt';
      workshop.steps[0]!.prompt = TOO_LONG;
      const seed = await importFlowText(services, JSON.stringify(workshop), 'workshop.json');
      expect(seed.problems.filter((problem) => problem.message.includes('does not fit'))).toEqual([
        expect.objectContaining({
          severity: 'error',
          nodeId: 'gather_requirements',
          message: expect.stringMatching(/^steps\[0\]\.prompt: its setting system does not fit a Flowbench agent node/),
        }),
      ]);
    } finally {
      services.close();
    }
  });

  it('refuse a native file as before: a file Flowbench wrote must be valid as it is', async () => {
    const services = openServices(join(tempDir(), 'flows.db'));
    try {
      const native = {
        schemaVersion: 1,
        id: 'native',
        name: 'Native',
        tool: { name: 'native' },
        parameters: [],
        nodes: [
          { id: 'input', type: 'input' },
          { id: 'run', type: 'code', config: { code: TOO_LONG } },
        ],
        edges: [{ id: 'e', source: 'input', sourcePort: 'out', target: 'run', targetPort: 'in' }],
      };
      await expect(importFlowText(services, JSON.stringify(native), 'native.json')).rejects.toMatchObject({
        code: 'VALIDATION_ERROR',
      });
      expect(services.flows.list()).toEqual([]);
    } finally {
      services.close();
    }
  });
});
