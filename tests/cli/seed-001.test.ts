import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, runJson } from '../helpers/cli';
import { connectStdio, prepareDatabase } from '../helpers/mcp';
import { useTempDir } from '../helpers/temp';

const tempDir = useTempDir();
const marketing = () =>
  JSON.parse(readFileSync('tests/fixtures/formats/flowyprompt-marketing.json', 'utf8')) as {
    metadata: Record<string, string>;
    nodes: { id: string; type: string; data: Record<string, unknown> }[];
    edges: { id: string; source: string; target: string; type: string }[];
  };

/** Writes a FlowyPrompt file and imports it; returns the import's JSON. */
async function importFile(db: string, doc: unknown, name = 'flow.json') {
  const file = join(tempDir(), name);
  writeFileSync(file, JSON.stringify(doc));
  return runCli(['--db', db, 'import', file, '--json']);
}

describe('seeds 001 and 002: FlowyPrompt files and their MCP contract', () => {
  it('flows_list gives the declared semver and dates; flows_execute answers in ExecutionResult shape, honours ref, accepts extra initialVariables', async () => {
    const db = join(tempDir(), 'fp.db');
    const doc = marketing();
    // Variables written as objects, as the seed's resolver reads them.
    doc.nodes[0]!.data.variables = [
      { name: 'company_name', required: true },
      { name: 'market' },
      { name: 'budget', required: false },
    ];
    const imported = await importFile(db, doc);
    expect(imported.code).toBe(0);
    const { id, warnings } = JSON.parse(imported.stdout) as { id: string; warnings: unknown[] };
    expect(warnings).toEqual([]);
    expect((await runCli(['--db', db, 'publish', id])).code).toBe(0);
    // Version 2 words the positioning differently; `ref` runs version 1 again.
    prepareDatabase(db, (services) => {
      const node = services.flows.get(id).nodes.find((n) => n.id === 'node-2');
      services.flows.applyChanges(id, {
        updateNodes: [{ id: 'node-2', config: { ...node?.config, template: 'NEW: {{inputs.company_name}}' } }],
      });
      services.versions.publish(id);
    });

    const { client } = await connectStdio(db);
    try {
      const list = await client.callTool({ name: 'flows_list', arguments: {} });
      const listed = (list.structuredContent as { flows: Record<string, unknown>[] }).flows[0];
      expect(listed).toMatchObject({
        name: 'Marketing_Strategy',
        version: '1.0.0',
        created: '2025-10-07T00:00:00.000Z',
        updated: '2025-10-07T00:00:00.000Z',
        nodeCount: 4,
      });
      expect(listed?.parameters).toEqual([
        expect.objectContaining({ name: 'company_name', required: true }),
        expect.objectContaining({ name: 'market', required: true }),
        expect.objectContaining({ name: 'budget', required: false }),
      ]);

      const before = Date.now();
      const executed = await client.callTool({
        name: 'flows_execute',
        arguments: {
          flowName: 'Marketing_Strategy',
          initialVariables: { company_name: 'TechCorp', market: 'AI', budget: '100K', tone: 'bold' },
          ref: '1',
        },
      });
      expect(executed.isError).toBeFalsy();
      const result = executed.structuredContent as {
        executionId: string;
        runId: string;
        intermediateResults: {
          nodeId: string;
          templateName: string;
          inputVariables: Record<string, unknown>;
          executionTimeMs: number;
        }[];
        unusedVariables: string[];
        status: string;
        finalResult: string;
      };
      expect(result.executionId).toMatch(/^Marketing_Strategy_\d{13}$/);
      expect(Number(result.executionId.split('_').at(-1))).toBeGreaterThanOrEqual(before - 1000);
      expect(result.status).toBe('success');
      // The result node is no step of its own; template names and variable names are the seed's.
      expect(result.intermediateResults.map((r) => [r.nodeId, r.templateName])).toEqual([
        ['node-2', 'Brand_Positioning_Strategy'],
        ['node-3', 'Campaign_Creation'],
      ]);
      expect(result.intermediateResults[0]?.inputVariables).toEqual({ company_name: 'TechCorp', market: 'AI' });
      expect(Object.keys(result.intermediateResults[1]?.inputVariables ?? {}).sort()).toEqual([
        'budget',
        'node2_result',
      ]);
      expect(
        result.intermediateResults.every((r) => Number.isInteger(r.executionTimeMs) && r.executionTimeMs >= 0),
      ).toBe(true);
      expect(result.unusedVariables).toEqual(['tone']);
      expect(result.finalResult).toContain('Plan a campaign with a budget of 100K.');
      expect(result.finalResult).not.toContain('NEW:');
      const newest = await client.callTool({
        name: 'flows_execute',
        arguments: {
          flowName: 'Marketing_Strategy',
          initialVariables: { company_name: 'TechCorp', market: 'AI', budget: '1' },
        },
      });
      expect((newest.structuredContent as { finalResult: string }).finalResult).toContain('NEW: TechCorp');

      const badRef = await client.callTool({
        name: 'flows_execute',
        arguments: {
          flowName: 'Marketing_Strategy',
          initialVariables: { company_name: 'x', market: 'y' },
          ref: '9.9.9',
        },
      });
      expect(badRef.structuredContent).toMatchObject({
        status: 'failed',
        error: { code: 'VALIDATION_ERROR', message: expect.stringContaining('no published version "9.9.9"') },
      });
    } finally {
      await client.close();
    }
  });

  it('an undeclared {x} stays as written unless given, with a warning saying so', async () => {
    const db = join(tempDir(), 'undeclared.db');
    const doc = marketing();
    doc.nodes[1]!.data.template =
      'Write a brand positioning for {company_name} in the {market} market, in a {tone} tone.';
    const imported = JSON.parse((await importFile(db, doc)).stdout) as {
      id: string;
      warnings: { message: string; nodeId?: string }[];
    };
    expect(imported.warnings).toEqual([
      expect.objectContaining({
        nodeId: 'node-2',
        message: expect.stringContaining('{tone} is not a variable any multi_input declares'),
      }),
    ]);
    const brandPositioning = async (...more: string[]) => {
      const run = await runJson<{ steps: { nodeId: string; output?: unknown }[] }>([
        ...['--db', db, 'run', imported.id, '--input', 'company_name=TechCorp', '--input', 'market=AI'],
        ...['--input', 'budget=1', ...more],
      ]);
      return run.steps.find((s) => s.nodeId === 'node-2')?.output;
    };
    expect(await brandPositioning()).toBe('Write a brand positioning for TechCorp in the AI market, in a {tone} tone.');
    expect(await brandPositioning('--input', 'tone=bold')).toBe(
      'Write a brand positioning for TechCorp in the AI market, in a bold tone.',
    );
  });

  it('a template node without text runs a saved template Flowbench lacks: TEMPLATE_NOT_FOUND, as seed 001 answers it', async () => {
    const db = join(tempDir(), 'missing-template.db');
    const doc = marketing();
    doc.nodes[2]!.data.template = '';
    const imported = JSON.parse((await importFile(db, doc)).stdout) as {
      id: string;
      warnings: { code: string; nodeId?: string; message: string }[];
    };
    expect(imported.warnings).toEqual([
      expect.objectContaining({
        code: 'TEMPLATE_NOT_FOUND',
        nodeId: 'node-3',
        message: expect.stringContaining('runs the saved template "Campaign_Creation", which Flowbench does not have'),
      }),
    ]);
    expect((await runCli(['--db', db, 'publish', imported.id])).code).toBe(0);
    const { client } = await connectStdio(db);
    try {
      const result = await client.callTool({
        name: 'flows_execute',
        arguments: {
          flowName: 'Marketing_Strategy',
          initialVariables: { company_name: 'TechCorp', market: 'AI', budget: '1' },
        },
      });
      expect(result.structuredContent).toMatchObject({
        status: 'partial',
        finalResult: null,
        intermediateResults: [
          expect.objectContaining({ nodeId: 'node-2', templateName: 'Brand_Positioning_Strategy' }),
        ],
        error: {
          code: 'TEMPLATE_NOT_FOUND',
          message: 'Template not found: Campaign_Creation',
          failedAt: { nodeId: 'node-3', templateName: 'Campaign_Creation' },
        },
      });
    } finally {
      await client.close();
    }
  });

  it("refuses a file over the seed's limits, naming the limit, and writes nothing", async () => {
    const db = join(tempDir(), 'limits.db');
    const doc = marketing();
    const many = {
      ...doc,
      nodes: [
        ...doc.nodes,
        ...Array.from({ length: 47 }, (_, i) => ({ id: `extra-${i}`, type: 'result', data: { label: `Extra ${i}` } })),
      ],
    };
    const refused = await importFile(db, many);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('nodes: 51 nodes, over the limit of 50');
    const big = { ...doc, metadata: { ...doc.metadata, description: 'x'.repeat(1024 * 1024) } };
    const tooBig = await importFile(db, big, 'big.json');
    expect(tooBig.stderr).toContain('FILE_TOO_LARGE');
    expect(tooBig.stderr).toContain('limited to 1 MB');
    expect((await runJson<{ flows: unknown[] }>(['--db', db, 'list'])).flows).toEqual([]);
  });
});
