import { FlowSchema, type Flow, type FlowInput } from '../../core/model/flow';

type NodeInput = FlowInput['nodes'][number];

/** Builds test flows tersely: nodes by id and type, edges as `a>b` or `a.port>b`. */
export function buildFlow(parts: {
  parameters?: FlowInput['parameters'];
  nodes: (NodeInput & { id: string })[];
  edges: string[];
  id?: string;
}): FlowInput {
  return {
    schemaVersion: 1,
    id: parts.id ?? 'test-flow',
    name: 'Test flow',
    tool: { name: parts.id ?? 'test_flow' },
    parameters: parts.parameters ?? [],
    nodes: parts.nodes,
    edges: parts.edges.map((spec, i) => {
      const [from = '', to = ''] = spec.split('>');
      const [source = '', sourcePort = 'out'] = from.split('.');
      return { id: `e${i}`, source, sourcePort, target: to, targetPort: 'in' };
    }),
  };
}

export const input = (): NodeInput & { id: string } => ({ id: 'input', type: 'input' });
export const template = (id: string, text: string): NodeInput & { id: string } => ({
  id,
  type: 'template',
  config: { template: text },
});
export const llm = (
  id: string,
  prompt: string,
  config: Record<string, unknown> = {},
  extra: Partial<NodeInput> = {},
): NodeInput & { id: string } => ({
  id,
  type: 'llm',
  config: { prompt, ...config },
  ...extra,
});
export const output = (...texts: string[]): NodeInput & { id: string } => ({
  id: 'result',
  type: 'output',
  config: { returnValues: texts.map((text, i) => ({ id: `r${i}`, text })) },
});

/** input → template "Hello {{inputs.who}}" → output: the smallest flow whose runs store a step of each kind. */
export function greeterFlow(id?: string): Flow {
  return FlowSchema.parse(
    buildFlow({
      ...(id ? { id } : {}),
      parameters: [{ name: 'who', type: 'string' }],
      nodes: [input(), template('greet', 'Hello {{inputs.who}}'), output('{{nodes.greet.output}}')],
      edges: ['input>greet', 'greet>result'],
    }),
  );
}
