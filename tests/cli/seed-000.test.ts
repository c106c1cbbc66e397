import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, runJson } from '../helpers/cli';
import { buildFlow, input } from '../helpers/flow-builder';
import { connectStdio, prepareDatabase, publishFlows } from '../helpers/mcp';
import { useTempDir } from '../helpers/temp';

const tempDir = useTempDir();

describe('seed 000: a flow as a tool, its return values as written', () => {
  it('keeps {{…}} in imported return values as text, says how the invalid tool name was rewritten, and an MCP client gets the text as written', async () => {
    const db = join(tempDir(), 'seed000.db');
    const imported = await runJson<{
      id: string;
      toolName: string;
      problems: unknown[];
      warnings: { code: string; message: string }[];
    }>(['--db', db, 'import', 'tests/fixtures/formats/tool-flow-literal.json']);
    expect(imported.toolName).toBe('template_help');
    expect(imported.problems).toEqual([]);
    expect(imported.warnings).toEqual([
      expect.objectContaining({
        code: 'IMPORT_PROBLEM',
        message:
          'toolName: "template help!" is not a valid MCP tool name (letters, digits, _ . - up to 128); imported as "template_help"',
      }),
    ]);
    // A second import of the same file: the name is taken, and the import says what it used instead.
    const again = await runJson<{ toolName: string; warnings: { message: string }[] }>([
      '--db',
      db,
      'import',
      'tests/fixtures/formats/tool-flow-literal.json',
    ]);
    expect(again.toolName).toBe('template_help_2');
    expect(again.warnings.map((w) => w.message)).toContain(
      'tool name: another flow already uses the tool name "template_help"; imported as "template_help_2"',
    );
    expect((await runCli(['--db', db, 'publish', imported.id])).code).toBe(0);
    const { client } = await connectStdio(db);
    try {
      const result = await client.callTool({ name: 'template_help', arguments: {} });
      expect(result.content).toEqual([
        { type: 'text', text: "Write {{name}} where the recipient's name goes." },
        { type: 'text', text: 'Write {{nodes.x.output}} literally too: nothing here is evaluated.' },
      ]);
    } finally {
      await client.close();
    }
  });

  it('leaves out of content[] a return value fed only by a branch that did not run', async () => {
    const db = join(tempDir(), 'branches.db');
    prepareDatabase(db, (services) =>
      publishFlows(services, [
        buildFlow({
          id: 'either',
          parameters: [{ name: 'kind', type: 'string' }],
          nodes: [
            input(),
            {
              id: 'check',
              type: 'condition',
              config: { rules: [{ value: '{{inputs.kind}}', operator: 'equals', operand: 'cat' }] },
            },
            { id: 'cat', type: 'template', config: { template: 'Meow.' } },
            { id: 'dog', type: 'template', config: { template: 'Woof.' } },
            {
              id: 'result',
              type: 'output',
              config: {
                returnValues: [
                  { id: 'intro', text: 'The animal says:' },
                  { id: 'cat', text: '{{nodes.cat.output}}' },
                  { id: 'dog', text: '{{nodes.dog.output}}' },
                ],
              },
            },
          ],
          edges: ['input>check', 'check.true>cat', 'check.false>dog', 'cat>result', 'dog>result'],
        }),
      ]),
    );
    const { client } = await connectStdio(db);
    try {
      const result = await client.callTool({ name: 'either', arguments: { kind: 'dog' } });
      expect(result.content).toEqual([
        { type: 'text', text: 'The animal says:' },
        { type: 'text', text: 'Woof.' },
      ]);
    } finally {
      await client.close();
    }
  });
});
