import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FlowInput } from '../../core/model/flow';
import { echoFlow } from '../fixtures/mcp-flows';
import { buildFlow, input } from '../helpers/flow-builder';
import { connectStdio, prepareDatabase, publishFlows } from '../helpers/mcp';
import { useTempDir } from '../helpers/temp';

const tempDir = useTempDir();

/** Seed-style text check: does the text match a pattern? Routes to true or false. */
const patternFlow: FlowInput = {
  ...buildFlow({
    id: 'pattern',
    parameters: [{ name: 'text', type: 'string' }],
    nodes: [
      input(),
      {
        id: 'check',
        type: 'condition',
        config: { rules: [{ value: '{{inputs.text}}', operator: 'matches', operand: '^(a+)+$' }] },
      },
      { id: 'yes', type: 'output', config: { returnValues: [{ id: 'r', text: 'matches' }] } },
      { id: 'no', type: 'output', config: { returnValues: [{ id: 'r', text: 'no match' }] } },
    ],
    edges: ['input>check', 'check.true>yes', 'check.false>no'],
  }),
  name: 'Pattern',
  tool: { name: 'pattern_check' },
};

const textOf = (result: unknown) => (result as { content: { text: string }[] }).content.map((c) => c.text).join('');

describe('MCP regressions of the security review', () => {
  it('finding 4: ^(a+)+$ against 32 a and ! answers at once, and other calls are not held up', async () => {
    const db = join(tempDir(), 'pattern.db');
    prepareDatabase(db, (services) => publishFlows(services, [patternFlow, echoFlow]));
    const { client } = await connectStdio(db);
    try {
      const started = Date.now();
      const [pattern, echo] = await Promise.all([
        client.callTool({ name: 'pattern_check', arguments: { text: `${'a'.repeat(32)}!` } }),
        client.callTool({ name: 'echo_tool', arguments: { message: 'still answered' } }),
      ]);
      expect(textOf(pattern)).toBe('no match');
      expect(textOf(echo)).toContain('You said: still answered');
      // Backtracking took 5–6 s at 27 characters and minutes at 32.
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await client.close();
    }
  });

  it('finding 6: no flow can be published as flows_execute, so tools/list never repeats a name', async () => {
    const db = join(tempDir(), 'reserved.db');
    let refusal: unknown;
    prepareDatabase(db, (services) => {
      publishFlows(services, [echoFlow]);
      try {
        publishFlows(services, [{ ...echoFlow, id: 'impostor', tool: { name: 'flows_execute' } }]);
      } catch (error) {
        refusal = error;
      }
    });
    expect(refusal).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(refusal).toMatchObject({
      data: {
        problems: [
          expect.objectContaining({ code: 'INVALID_TOOL_NAME', message: expect.stringContaining('reserved') }),
        ],
      },
    });
    const { client } = await connectStdio(db);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names.filter((n) => n === 'flows_execute')).toHaveLength(1);
      expect(new Set(names).size).toBe(names.length);
    } finally {
      await client.close();
    }
  });
});
