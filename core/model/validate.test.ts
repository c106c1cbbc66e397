import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { smallFlow } from '../../tests/helpers/flows';
import type { ProblemCode } from './problems';
import { nodeRegistry } from '../nodes/registry';
import { validateFlow } from './validate';

const codes = (input: unknown) => validateFlow(input, { catalogue: nodeRegistry }).problems.map((p) => p.code);
const errorsOf = (input: unknown) =>
  validateFlow(input, { catalogue: nodeRegistry }).problems.filter((p) => p.severity === 'error');

describe('validateFlow', () => {
  it('accepts a small flow and fills defaults', () => {
    const { flow, problems } = validateFlow(smallFlow(), { catalogue: nodeRegistry });
    expect(problems).toEqual([]);
    expect(flow?.tool).toMatchObject({ name: 'small_flow', enabled: true, description: '' });
    expect(flow?.nodes[1]).toMatchObject({
      id: 'greet',
      version: 1,
      label: '',
      config: { template: 'About {{inputs.topic}}' },
    });
    expect(flow?.nodes[2]?.config).toEqual({
      mode: 'return_values',
      returnValues: [{ id: 'r', text: '{{nodes.greet.output}}' }],
      fields: [],
    });
  });

  it('accepts every shipped example', () => {
    const folder = join(import.meta.dirname, '../../resources/examples');
    const files = readdirSync(folder).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const file of files) {
      const result = validateFlow(JSON.parse(readFileSync(join(folder, file), 'utf8')), { catalogue: nodeRegistry });
      expect(result.problems, file).toEqual([]);
    }
  });

  it('reports a cycle with its path', () => {
    const flow = smallFlow({ edges: [...smallFlow().edges!, { id: 'back', source: 'greet', target: 'input' }] });
    const problems = errorsOf(flow);
    // The input node has no input port, so the back edge is also a port problem.
    expect(problems.map((p) => p.code)).toContain('CIRCULAR_DEPENDENCY');
    const cycle = problems.find((p) => p.code === 'CIRCULAR_DEPENDENCY');
    expect(cycle?.message).toMatch(/input → greet → input|greet → input → greet/);
  });

  it('reports a cycle among template nodes', () => {
    const flow = smallFlow({
      nodes: [
        { id: 'a', type: 'template', config: { template: 'a' } },
        { id: 'b', type: 'template', config: { template: 'b' } },
        { id: 'c', type: 'template', config: { template: 'c' } },
      ],
      edges: [
        { id: 'ab', source: 'a', target: 'b' },
        { id: 'bc', source: 'b', target: 'c' },
        { id: 'ca', source: 'c', target: 'a' },
      ],
    });
    expect(errorsOf(flow).map((p) => p.code)).toEqual(['CIRCULAR_DEPENDENCY']);
  });

  it('reports every problem at once, each with where it is', () => {
    const flow = smallFlow({
      tool: { name: 'bad name!' },
      nodes: [
        ...smallFlow().nodes,
        { id: 'greet', type: 'template', config: { template: 'dup' } },
        { id: 'mystery', type: 'teleport' },
        { id: 'llm1', type: 'llm', config: { temperature: 7 } },
        {
          id: 'late',
          type: 'template',
          config: { template: '{{inputs.nope}} {{nodes.ghost.output}} {{nodes.llm1.output}} {{oops}}' },
        },
      ],
      edges: [...smallFlow().edges!, { id: 'e9', source: 'greet', target: 'nowhere' }],
    });
    const problems = errorsOf(flow);
    const found = new Set(problems.map((p) => p.code));
    for (const code of [
      'INVALID_TOOL_NAME',
      'DUPLICATE_NODE_ID',
      'UNKNOWN_NODE_TYPE',
      'INVALID_CONFIG',
      'DANGLING_EDGE',
      'UNRESOLVED_REFERENCE',
    ] as ProblemCode[]) {
      expect(found, code).toContain(code);
    }
    expect(problems.find((p) => p.code === 'UNKNOWN_NODE_TYPE')).toMatchObject({ nodeId: 'mystery' });
    expect(problems.find((p) => p.code === 'INVALID_CONFIG')).toMatchObject({
      nodeId: 'llm1',
      field: 'config.temperature',
    });
    expect(problems.find((p) => p.code === 'DANGLING_EDGE')?.message).toBe(
      'edge "e9" ends at node "nowhere", which does not exist',
    );
    const refs = problems.filter((p) => p.code === 'UNRESOLVED_REFERENCE').map((p) => p.message);
    expect(refs).toHaveLength(4);
    expect(refs[0]).toContain('{{inputs.nope}} names no parameter (parameters: topic)');
    expect(refs[1]).toContain('node "ghost", which does not exist');
    expect(refs[2]).toContain('node "llm1" is not upstream of "late"');
    expect(refs[3]).toContain('must start with inputs., nodes., item or secrets.');
  });

  it('reports the duplicate tool name the store knows about', () => {
    const { problems } = validateFlow(smallFlow(), {
      catalogue: nodeRegistry,
      isToolNameTaken: (name) => name === 'small_flow',
    });
    expect(problems).toEqual([
      {
        code: 'DUPLICATE_TOOL_NAME',
        severity: 'error',
        field: 'tool.name',
        message: 'another flow already uses the tool name "small_flow"',
      },
    ]);
  });

  it('checks ports, parameters and duplicate edges', () => {
    const flow = smallFlow({
      parameters: [
        { name: 'topic', type: 'string' },
        { name: 'topic', type: 'number' },
      ],
    });
    expect(codes(flow)).toContain('DUPLICATE_PARAMETER');

    const ports = smallFlow({
      edges: [
        { id: 'e1', source: 'input', target: 'greet', targetPort: 'sideways' },
        { id: 'e2', source: 'greet', target: 'result' },
        { id: 'e3', source: 'greet', target: 'result' },
      ],
    });
    expect(codes(ports)).toEqual(['UNKNOWN_PORT', 'DUPLICATE_EDGE']);

    const enumWithoutValues = smallFlow({ parameters: [{ name: 'topic', type: 'enum', default: 'x' }] });
    expect(errorsOf(enumWithoutValues).map((p) => p.message)).toEqual([
      'enum parameter "topic" lists no allowed values',
      'default of "topic": expected one of ',
    ]);
  });

  it('warns about a flow without output', () => {
    const flow = smallFlow({
      nodes: smallFlow().nodes.slice(0, 2),
      edges: [{ id: 'e1', source: 'input', target: 'greet' }],
    });
    expect(validateFlow(flow, { catalogue: nodeRegistry }).problems).toEqual([
      expect.objectContaining({ code: 'MISSING_OUTPUT', severity: 'warning' }),
    ]);
  });

  it('explains a malformed document instead of throwing', () => {
    expect(codes({ nodes: 'many' })).toContain('INVALID_FLOW');
    expect(codes(null)).toEqual(['INVALID_FLOW']);
    expect(errorsOf({ ...smallFlow(), nodes: [{ id: '1bad', type: 'input' }] })[0]).toMatchObject({
      code: 'INVALID_FLOW',
      nodeId: '1bad',
    });
  });

  it('validates 5,000 nodes quickly enough for every edit', () => {
    const nodes = Array.from({ length: 5000 }, (_, i) => ({
      id: `n${i}`,
      type: 'template',
      config: { template: i ? `{{nodes.n${i - 1}.output}}` : 'x' },
    }));
    const edges = nodes.slice(1).map((n, i) => ({ id: `e${i}`, source: `n${i}`, target: n.id }));
    const started = performance.now();
    const { problems } = validateFlow(smallFlow({ nodes, edges }), { catalogue: nodeRegistry });
    expect(problems.map((p) => p.code)).toEqual(['MISSING_OUTPUT']);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('checks references far back in a big flow in one pass, and still finds those that are not upstream', () => {
    // Every node quotes the first one and the one before it; a walk back per reference took 6.6 s here.
    const count = 10_000;
    const nodes = Array.from({ length: count }, (_, i) => ({
      id: `n${i}`,
      type: 'template',
      config: { template: i ? `{{nodes.n0.output}} {{nodes.n${i - 1}.output}}` : 'x' },
    }));
    const edges = nodes.slice(1).map((n, i) => ({ id: `e${i}`, source: `n${i}`, target: n.id }));
    // Not upstream: a node beside the chain (far, from the last node), and a later node (near, from the sixth).
    nodes.push({ id: 'beside', type: 'template', config: { template: 'y' } });
    nodes[count - 1]!.config.template += ' {{nodes.beside.output}}';
    nodes[5]!.config.template += ' {{nodes.n9.output}}';
    const started = performance.now();
    const { problems } = validateFlow(smallFlow({ nodes, edges }), { catalogue: nodeRegistry });
    expect(performance.now() - started).toBeLessThan(2000);
    const unresolved = problems.filter((p) => p.code === 'UNRESOLVED_REFERENCE');
    expect(unresolved.map((p) => [p.nodeId, p.message])).toEqual([
      ['n5', expect.stringContaining('node "n9" is not upstream of "n5"')],
      [`n${count - 1}`, expect.stringContaining(`node "beside" is not upstream of "n${count - 1}"`)],
    ]);
  });
});

describe('reserved tool names (security finding 6)', () => {
  it.each(['flows_list', 'flows_execute', 'flows_start', 'flows_result'])(
    'refuses a flow offered as %s, the name of a built-in tool',
    (name) => {
      const { problems } = validateFlow(smallFlow({ tool: { name } }), { catalogue: nodeRegistry });
      expect(problems).toEqual([
        expect.objectContaining({ code: 'INVALID_TOOL_NAME', severity: 'error', field: 'tool.name' }),
      ]);
      expect(problems[0]?.message).toContain('reserved');
    },
  );
});
